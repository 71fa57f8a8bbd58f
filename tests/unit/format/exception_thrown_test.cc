// ExceptionThrown's type and message read in place answer exactly what the template decoder
// gives (DecodePayload), on every payload shape runtimes write and on broken ones; where
// they cannot, they say so (the caller decodes).
#include <catch2/catch.hpp>

#include <string>

#include "format/payload/exception_thrown.h"
#include "format/payload_decoder.h"
#include "write/payload_builder.h"

namespace nettrace {
namespace {

EventMetadata ExceptionMeta(uint32_t version, uint32_t id = 80) {
  EventMetadata m;
  m.providerName = "Microsoft-Windows-DotNETRuntime";
  m.eventId = id;
  m.version = version;
  return m;
}

std::string DecodedText(const DecodedPayload& d, const char* name) {
  const PayloadValue* v = d.Find(name);
  return v && v->kind() == PayloadValue::Kind::kString ? v->text() : std::string();
}

// In place and decoded agree; false when the in-place read declined.
bool Agrees(const EventMetadata& m, const PayloadBuilder& b, uint32_t ptr) {
  std::string type = "stale", message = "stale", typeOnly = "stale";
  if (!ReadExceptionThrownStrings(m, b.span(), ptr, &type, &message)) return false;
  REQUIRE(ReadExceptionThrownStrings(m, b.span(), ptr, &typeOnly, nullptr));
  const DecodedPayload d = DecodePayload(m, b.span(), ptr, 4);
  CHECK(type == DecodedText(d, "ExceptionType"));
  CHECK(message == DecodedText(d, "ExceptionMessage"));
  CHECK(typeOnly == type);
  return true;
}

TEST_CASE("ExceptionThrown's strings in place equal the decoder's", "[payload][exception]") {
  for (uint32_t ptr : {8u, 4u}) {
    for (uint32_t version : {1u, 0u}) {
      INFO("pointer size " << ptr << " version " << version);
      auto tail = [&](PayloadBuilder& b) {
        if (ptr == 8) b.AppendU64(0x00007FF812345678ULL); else b.AppendU32(0x12345678u);
        b.AppendU32(0x80131509u).AppendU16(0x10).AppendU16(3);
      };
      const EventMetadata m = ExceptionMeta(version);
      PayloadBuilder with;
      with.AppendNullTerminatedUtf16("System.InvalidOperationException").AppendNullTerminatedUtf16("bo\xC3\xB6m \xF0\x9F\x98\x80");
      tail(with);
      CHECK(Agrees(m, with, ptr));
      PayloadBuilder omitted;  // older runtimes: an empty message is not written at all
      omitted.AppendNullTerminatedUtf16("System.InvalidOperationException");
      tail(omitted);
      CHECK(Agrees(m, omitted, ptr));
      PayloadBuilder empty;  // .NET 6+: a lone terminator
      empty.AppendNullTerminatedUtf16("T").AppendNullTerminatedUtf16("");
      tail(empty);
      CHECK(Agrees(m, empty, ptr));
      PayloadBuilder typeOnly;  // ends between fields
      typeOnly.AppendNullTerminatedUtf16("T");
      CHECK(Agrees(m, typeOnly, ptr));
      PayloadBuilder cutMessage;  // ends inside the message: the decoder's to answer
      cutMessage.AppendNullTerminatedUtf16("T").AppendU16('a').AppendU16('b');
      CHECK_FALSE(Agrees(m, cutMessage, ptr));
      PayloadBuilder cutType;
      cutType.AppendU16('T');
      CHECK_FALSE(Agrees(m, cutType, ptr));
      CHECK(Agrees(m, PayloadBuilder(), ptr));  // no fields at all
    }
  }
  PayloadBuilder b;
  b.AppendNullTerminatedUtf16("T").AppendNullTerminatedUtf16("m");
  // Not ExceptionThrown, or metadata that describes its own fields: the decoder's.
  CHECK_FALSE(Agrees(ExceptionMeta(1, 81), b, 8));
  EventMetadata described = ExceptionMeta(1);
  described.fields.push_back(FieldDescription{"ExceptionType", FieldType{TypeCode::kNullTerminatedUTF16String}});
  CHECK_FALSE(Agrees(described, b, 8));
  EventMetadata otherProvider = ExceptionMeta(1);
  otherProvider.providerName = "MyEventSource";
  CHECK_FALSE(Agrees(otherProvider, b, 8));
}

}  // namespace
}  // namespace nettrace
