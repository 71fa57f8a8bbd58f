// Payload decoding on hand-built payloads: every TypeCode of NetTrace v4/v5/v6
// (NetTraceFormat.md §MetadataBlock "enum TypeCode"), the v6 field-decoding scenarios
// (v6-test-scenarios.md §B 8-27: bad RelLoc/DataLoc, truncated prefixes, string arrays
// claiming more than the bytes hold — the event still decodes, the bad field is an error
// value), and CLR manifest templates (pointer sizes, counted arrays and structs, the
// ExceptionThrown quirk, short and long payloads).
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "format/clr_events.generated.h"
#include "format/payload_decoder.h"
#include "write/field_types.h"
#include "write/payload_builder.h"

namespace nettrace {
namespace {

using Kind = PayloadValue::Kind;

EventMetadata Meta(std::vector<FieldDescription> fields) {
  EventMetadata m;
  m.providerName = "TestProvider";
  m.eventName = "TestEvent";
  m.fields = std::move(fields);
  return m;
}

EventMetadata ClrMeta(uint32_t id, uint32_t version, const char* provider = "Microsoft-Windows-DotNETRuntime") {
  EventMetadata m;
  m.providerName = provider;
  m.eventId = id;
  m.version = version;
  return m;
}

DecodedPayload Decode(const EventMetadata& m, const PayloadBuilder& b, uint32_t pointerSize = 8, int major = 6) {
  return DecodePayload(m, b.span(), pointerSize, major);
}

std::string Json(const DecodedPayload& d) {
  JsonWriter w;
  d.ToJson(w);
  return w.Take();
}

std::string Json(const PayloadValue& v) {
  JsonWriter w;
  v.ToJson(w);
  return w.Take();
}

bool Clean(const DecodedPayload& d) {
  return !d.hasErrors && !d.shorterThanTemplate && !d.longerThanTemplate && !d.stoppedAtError && d.trailingBytes == 0;
}

FieldType T(TypeCode c) { return Scalar(c); }

TEST_CASE("payload: every scalar TypeCode", "[payload]") {
  Guid g;
  for (int i = 0; i < 16; ++i) g.bytes[i] = static_cast<uint8_t>(i + 1);
  auto m = Meta({Field("b32", T(TypeCode::kBoolean32)), Field("c16", T(TypeCode::kUTF16CodeUnit)),
                 Field("i8", T(TypeCode::kSByte)), Field("u8", T(TypeCode::kByte)), Field("i16", T(TypeCode::kInt16)),
                 Field("u16", T(TypeCode::kUInt16)), Field("i32", T(TypeCode::kInt32)),
                 Field("u32", T(TypeCode::kUInt32)), Field("i64", T(TypeCode::kInt64)),
                 Field("u64", T(TypeCode::kUInt64)), Field("f32", T(TypeCode::kSingle)),
                 Field("f64", T(TypeCode::kDouble)), Field("guid", T(TypeCode::kGuid)),
                 Field("str", T(TypeCode::kNullTerminatedUTF16String)), Field("vi", T(TypeCode::kVarInt)),
                 Field("vu", T(TypeCode::kVarUInt)), Field("c8", T(TypeCode::kUTF8CodeUnit)),
                 Field("b8", T(TypeCode::kBoolean8))});
  PayloadBuilder b;
  b.AppendBool32(true).AppendUtf16CodeUnit(u'\u00e9').AppendI8(-5).AppendU8(250).AppendI16(-300).AppendU16(65000);
  b.AppendI32(-70000).AppendU32(4000000000u).AppendI64(-5000000000LL).AppendU64(18000000000000000000ULL);
  b.AppendF32(1.5f).AppendF64(-0.1).AppendGuid(g).AppendNullTerminatedUtf16("h\xC3\xA9llo");
  b.AppendVarInt(-17982).AppendVarUInt(17982).AppendUtf8CodeUnit('A').AppendBool8(false);
  auto d = Decode(m, b);
  REQUIRE(Clean(d));
  REQUIRE(d.schema == PayloadSchema::kMetadata);
  REQUIRE(d.fields.size() == 18);
  CHECK(d.Find("b32")->kind() == Kind::kBool);
  CHECK(d.Find("b32")->asBool());
  CHECK(d.Find("c16")->text() == "\xC3\xA9");
  CHECK(d.Find("i8")->asInt() == -5);
  CHECK(d.Find("u8")->asUInt() == 250);
  CHECK(d.Find("i16")->asInt() == -300);
  CHECK(d.Find("u16")->asUInt() == 65000);
  CHECK(d.Find("i32")->asInt() == -70000);
  CHECK(d.Find("u32")->asUInt() == 4000000000u);
  CHECK(d.Find("i64")->asInt() == -5000000000LL);
  CHECK(d.Find("u64")->asUInt() == 18000000000000000000ULL);
  CHECK(d.Find("f32")->asDouble() == 1.5);
  CHECK(d.Find("f64")->asDouble() == -0.1);
  CHECK(d.Find("guid")->text() == g.ToString());
  CHECK(d.Find("str")->text() == "h\xC3\xA9llo");
  CHECK(d.Find("vi")->asInt() == -17982);
  CHECK(d.Find("vu")->asUInt() == 17982);
  CHECK(d.Find("c8")->text() == "A");
  CHECK(d.Find("b8")->kind() == Kind::kBool);
  CHECK_FALSE(d.Find("b8")->asBool());
  // JSON: integers beyond 2^53 as strings, doubles as their shortest text.
  std::string json = Json(d);
  CHECK(json.find("{\"name\":\"u64\",\"value\":\"18000000000000000000\"}") != std::string::npos);
  CHECK(json.find("{\"name\":\"i64\",\"value\":-5000000000}") != std::string::npos);
  CHECK(json.find("{\"name\":\"f64\",\"value\":-0.1}") != std::string::npos);
  CHECK(json.find("{\"name\":\"f32\",\"value\":1.5}") != std::string::npos);
  CHECK(json.find("\"schema\":\"metadata\"") != std::string::npos);
}

TEST_CASE("payload: v4/v5 layout (UTF-16 strings, packed) decodes the same way", "[payload]") {
  auto m = Meta({Field("name", T(TypeCode::kNullTerminatedUTF16String)), Field("n", T(TypeCode::kInt32)),
                 Field("when", T(TypeCode::kDateTime))});
  PayloadBuilder b;
  // 2025-02-03T04:05:06Z as a FILETIME: what EventSource writes for a DateTime.
  b.AppendNullTerminatedUtf16("x").AppendI32(7).AppendI64(133830291060000000LL);
  auto d = Decode(m, b, 8, 5);
  REQUIRE(Clean(d));
  CHECK(d.Find("name")->text() == "x");
  CHECK(d.Find("n")->asInt() == 7);
  const PayloadValue* when = d.Find("when");
  REQUIRE(when->kind() == Kind::kDateTime);
  CHECK(when->dateTimeEncoding() == PayloadValue::DateTimeEncoding::kFileTime);
  CHECK(when->text() == "2025-02-03T04:05:06.0000000Z");
  CHECK(when->fileTime() == 133830291060000000LL);
  CHECK(d.dateTimeEncoding == PayloadValue::DateTimeEncoding::kFileTime);
  CHECK(Json(*when) == "{\"$dateTime\":\"2025-02-03T04:05:06.0000000Z\",\"$fileTime\":\"133830291060000000\"}");
}

TEST_CASE("payload: DateTime is FILETIME unless only a SYSTEMTIME fits (v6)", "[payload]") {
  auto m = Meta({Field("when", T(TypeCode::kDateTime)), Field("n", T(TypeCode::kInt16))});
  SystemTime st{2025, 2, 1, 3, 4, 5, 6, 789};
  PayloadBuilder sys;
  sys.AppendDateTime(st).AppendI16(9);
  auto d = Decode(m, sys, 8, 6);
  REQUIRE(Clean(d));
  CHECK(d.dateTimeEncoding == PayloadValue::DateTimeEncoding::kSystemTime);
  CHECK(d.Find("when")->text() == "2025-02-03T04:05:06.7890000Z");
  CHECK(d.Find("n")->asInt() == 9);
  CHECK(Json(*d.Find("when")) == "{\"$dateTime\":\"2025-02-03T04:05:06.7890000Z\",\"$systemTime\":[2025,2,1,3,4,5,6,789]}");

  PayloadBuilder ft;
  ft.AppendI64(133830291060000000LL).AppendI16(9);
  auto f = Decode(m, ft, 8, 6);
  REQUIRE(Clean(f));
  CHECK(f.dateTimeEncoding == PayloadValue::DateTimeEncoding::kFileTime);
  CHECK(f.Find("n")->asInt() == 9);

  // v5: always FILETIME; the 18-byte payload then has 8 trailing bytes.
  auto v5 = Decode(m, sys, 8, 5);
  CHECK(v5.dateTimeEncoding == PayloadValue::DateTimeEncoding::kFileTime);
  CHECK(v5.longerThanTemplate);
  CHECK(v5.trailingBytes == 8);
}

TEST_CASE("payload: nested objects (struct {Int32, Byte}, Boolean32) and deeper", "[payload]") {
  auto m = Meta({Field("s", ObjectOf({Field("a", T(TypeCode::kInt32)), Field("b", T(TypeCode::kByte))})),
                 Field("flag", T(TypeCode::kBoolean32)),
                 Field("outer", ObjectOf({Field("inner", ObjectOf({Field("x", T(TypeCode::kInt16))})),
                                          Field("y", T(TypeCode::kByte))}))});
  PayloadBuilder b;
  b.AppendI32(3).AppendU8(19).AppendBool32(true).AppendI16(-2).AppendU8(4);
  auto d = Decode(m, b);
  REQUIRE(Clean(d));
  const PayloadValue* s = d.Find("s");
  REQUIRE(s->kind() == Kind::kObject);
  CHECK(s->Find("a")->asInt() == 3);
  CHECK(s->Find("b")->asUInt() == 19);
  CHECK(d.Find("flag")->asBool());
  CHECK(d.Find("outer")->Find("inner")->Find("x")->asInt() == -2);
  CHECK(d.Find("outer")->Find("y")->asUInt() == 4);
  CHECK(Json(*s) == "{\"a\":3,\"b\":19}");
}

TEST_CASE("payload: variable-length arrays, arrays of strings, Boolean8 arrays and structs", "[payload]") {
  auto m = Meta({Field("ints", ArrayOf(T(TypeCode::kInt32))), Field("u8s", ArrayOf(T(TypeCode::kUTF8CodeUnit))),
                 Field("u16s", ArrayOf(T(TypeCode::kUTF16CodeUnit))),
                 Field("strs", ArrayOf(ArrayOf(T(TypeCode::kUTF16CodeUnit)))),
                 Field("bools", ArrayOf(T(TypeCode::kBoolean8))),
                 Field("opt", ObjectOf({Field("HasValue", T(TypeCode::kBoolean8)), Field("Value", T(TypeCode::kInt32))})),
                 Field("ntStrs", ArrayOf(T(TypeCode::kNullTerminatedUTF16String)))});
  PayloadBuilder b;
  b.AppendArrayCount(3).AppendI32(1).AppendI32(-2).AppendI32(3);
  b.AppendUtf8Array("Hello").AppendUtf16Array("W\xC3\xB6rld");
  b.AppendArrayCount(2).AppendUtf16Array("ab").AppendUtf16Array("");
  b.AppendArrayCount(3).AppendBool8(true).AppendBool8(false).AppendBool8(true);
  b.AppendBool8(true).AppendI32(184);
  b.AppendArrayCount(2).AppendNullTerminatedUtf16("x").AppendNullTerminatedUtf16("yz");
  auto d = Decode(m, b);
  REQUIRE(Clean(d));
  CHECK(d.Find("ints")->ToString() == "[1,-2,3]");
  CHECK(d.Find("u8s")->kind() == Kind::kString);
  CHECK(d.Find("u8s")->text() == "Hello");
  CHECK(d.Find("u16s")->text() == "W\xC3\xB6rld");
  REQUIRE(d.Find("strs")->items().size() == 2);
  CHECK(d.Find("strs")->items()[0].text() == "ab");
  CHECK(d.Find("strs")->items()[1].text() == "");
  CHECK(d.Find("bools")->ToString() == "[true,false,true]");
  CHECK(d.Find("opt")->ToString() == "{HasValue=true,Value=184}");
  CHECK(d.Find("ntStrs")->ToString() == "[x,yz]");
  CHECK(Json(*d.Find("strs")) == "[\"ab\",\"\"]");
}

TEST_CASE("payload: byte arrays are one blob", "[payload]") {
  auto m = Meta({Field("blob", ArrayOf(T(TypeCode::kByte))), Field("fixed", FixedArrayOf(T(TypeCode::kByte), 2)),
                 Field("signed", ArrayOf(T(TypeCode::kSByte)))});
  PayloadBuilder b;
  b.AppendArrayCount(3).AppendU8(0xDE).AppendU8(0xAD).AppendU8(0x01).AppendU8(0xBE).AppendU8(0xEF);
  b.AppendArrayCount(2).AppendI8(-1).AppendI8(2);
  auto d = Decode(m, b);
  REQUIRE(Clean(d));
  CHECK(d.Find("blob")->kind() == Kind::kBytes);
  CHECK(Json(*d.Find("blob")) == "{\"$bytes\":\"dead01\"}");
  CHECK(d.Find("fixed")->ToString() == "beef");
  CHECK(d.Find("signed")->ToString() == "[-1,2]");
  std::vector<uint8_t> short_ = {5, 0, 1, 2};
  CHECK(DecodePayload(m, short_, 8, 6).fields[0].value.isError());
}

TEST_CASE("payload: FixedLengthArray of ints, UTF-8 / UTF-16 code units and strings", "[payload]") {
  auto m = Meta({Field("ints", FixedArrayOf(T(TypeCode::kInt32), 3)),
                 Field("u8", FixedArrayOf(T(TypeCode::kUTF8CodeUnit), 3)),
                 Field("u16", FixedArrayOf(T(TypeCode::kUTF16CodeUnit), 3)),
                 Field("strs", FixedArrayOf(ArrayOf(T(TypeCode::kUTF16CodeUnit)), 2))});
  PayloadBuilder b;
  b.AppendI32(7).AppendI32(8).AppendI32(9);
  b.AppendUtf8CodeUnit('a').AppendUtf8CodeUnit('b').AppendUtf8CodeUnit('c');
  b.AppendUtf16CodeUnit(u'x').AppendUtf16CodeUnit(u'y').AppendUtf16CodeUnit(u'z');
  b.AppendUtf16Array("one").AppendUtf16Array("two");  // no outer count prefix
  auto d = Decode(m, b);
  REQUIRE(Clean(d));
  CHECK(d.Find("ints")->ToString() == "[7,8,9]");
  CHECK(d.Find("u8")->text() == "abc");
  CHECK(d.Find("u16")->text() == "xyz");
  CHECK(d.Find("strs")->ToString() == "[one,two]");
}

TEST_CASE("payload: RelLoc and DataLoc referencing data after the fields", "[payload]") {
  // Four locations, a padding int, then the data (v6-test-scenarios.md §B 12).
  auto m = Meta({Field("relInts", RelLocOf(T(TypeCode::kInt32))), Field("dataInts", DataLocOf(T(TypeCode::kInt32))),
                 Field("relU8", RelLocOf(T(TypeCode::kUTF8CodeUnit))),
                 Field("dataU16", DataLocOf(T(TypeCode::kUTF16CodeUnit))), Field("pad", T(TypeCode::kInt32))});
  // Data area starts at 20: int32[3] at 20, int32[2] at 32, "hi" (UTF-8) at 40, "ok" (UTF-16) at 42.
  PayloadBuilder b;
  b.AppendLocation(12, 20 - 4);      // RelLoc: from the end of its own field (offset 4)
  b.AppendLocation(8, 32);           // DataLoc: from the payload start
  b.AppendLocation(2, 40 - 12);      // RelLoc at 8..12
  b.AppendLocation(4, 42);           // DataLoc
  b.AppendI32(-1);
  b.AppendI32(1).AppendI32(2).AppendI32(3).AppendI32(4).AppendI32(5);
  b.AppendUtf8CodeUnit('h').AppendUtf8CodeUnit('i').AppendUtf16CodeUnit(u'o').AppendUtf16CodeUnit(u'k');
  auto d = Decode(m, b);
  CHECK(Clean(d));  // the referenced data after the last field is not "trailing"
  CHECK(d.Find("relInts")->ToString() == "[1,2,3]");
  CHECK(d.Find("dataInts")->ToString() == "[4,5]");
  CHECK(d.Find("relU8")->text() == "hi");
  CHECK(d.Find("dataU16")->text() == "ok");
  CHECK(d.Find("pad")->asInt() == -1);
  // Bytes after the furthest referenced range still count as trailing.
  b.AppendU8(0);
  auto longer = Decode(m, b);
  CHECK(longer.trailingBytes == 1);
  CHECK(longer.longerThanTemplate);
}

TEST_CASE("payload: RelLoc/DataLoc out of bounds or not a multiple of the element size", "[payload]") {
  // v6-test-scenarios.md §B 13: size 4 at offset 100; size 3 at offsets 4 / 0.
  for (TypeCode code : {TypeCode::kRelLoc, TypeCode::kDataLoc}) {
    FieldType loc = WithElement(code, T(TypeCode::kInt32));
    auto m = Meta({Field("loc", loc), Field("after", T(TypeCode::kInt32))});
    struct Case {
      uint16_t size, offset;
    };
    for (Case c : {Case{4, 100}, Case{3, 4}, Case{3, 0}}) {
      INFO("type " << int(code) << " size " << c.size << " offset " << c.offset);
      PayloadBuilder b;
      b.AppendLocation(c.size, c.offset).AppendI32(42).AppendI32(0);
      auto d = Decode(m, b);
      REQUIRE(d.fields.size() == 2);
      CHECK(d.fields[0].value.isError());
      CHECK(d.hasErrors);
      CHECK_FALSE(d.stoppedAtError);  // the location's own size is known: decoding goes on
      CHECK(d.Find("after")->asInt() == 42);
      CHECK(Json(d.fields[0].value).rfind("{\"$error\":", 0) == 0);
    }
  }
}

TEST_CASE("payload: truncated count prefixes and arrays claiming more than the bytes", "[payload]") {
  SECTION("UTF-16 counted string, 1 byte for a 2-byte prefix (§B 14)") {
    auto m = Meta({Field("s", ArrayOf(T(TypeCode::kUTF16CodeUnit)))});
    std::vector<uint8_t> one = {5};
    auto d = DecodePayload(m, one, 8, 6);
    REQUIRE(d.fields.size() == 1);
    CHECK(d.fields[0].value.isError());
    CHECK(d.shorterThanTemplate);
  }
  SECTION("int array, 1 byte (§B 15)") {
    auto m = Meta({Field("a", ArrayOf(T(TypeCode::kInt32)))});
    std::vector<uint8_t> one = {3};
    auto d = DecodePayload(m, one, 8, 6);
    REQUIRE(d.fields.size() == 1);
    CHECK(d.fields[0].value.isError());
  }
  SECTION("string array of 3 with 3 bytes of data (§B 16)") {
    auto m = Meta({Field("a", ArrayOf(ArrayOf(T(TypeCode::kUTF8CodeUnit)))), Field("b", T(TypeCode::kInt32))});
    std::vector<uint8_t> p = {3, 0, 'a', 'b', 'c'};
    auto d = DecodePayload(m, p, 8, 6);
    REQUIRE(d.fields.size() == 1);  // b's position is unknown: left out
    CHECK(d.fields[0].value.isError());
    CHECK(d.stoppedAtError);
    CHECK(d.hasErrors);
  }
  SECTION("a counted string claiming more code units than remain") {
    auto m = Meta({Field("s", ArrayOf(T(TypeCode::kUTF16CodeUnit)))});
    std::vector<uint8_t> p = {0xFF, 0xFF, 'a', 0};
    auto d = DecodePayload(m, p, 8, 6);
    CHECK(d.fields[0].value.isError());
  }
  SECTION("unterminated UTF-16 string and truncated VarInt") {
    auto m = Meta({Field("s", T(TypeCode::kNullTerminatedUTF16String))});
    std::vector<uint8_t> p = {'a', 0, 'b'};
    CHECK(DecodePayload(m, p, 8, 6).fields[0].value.isError());
    auto mv = Meta({Field("v", T(TypeCode::kVarInt))});
    std::vector<uint8_t> q = {0x80, 0x80};
    CHECK(DecodePayload(mv, q, 8, 6).fields[0].value.isError());
  }
}

TEST_CASE("payload: VarInt / VarUInt extremes", "[payload]") {
  // v6-test-scenarios.md §B 23.
  auto m = Meta({Field("min", T(TypeCode::kVarInt)), Field("max", T(TypeCode::kVarInt)),
                 Field("zero", T(TypeCode::kVarInt)), Field("neg", T(TypeCode::kVarInt)),
                 Field("u0", T(TypeCode::kVarUInt)), Field("umax", T(TypeCode::kVarUInt))});
  PayloadBuilder b;
  b.AppendVarInt(std::numeric_limits<int64_t>::min()).AppendVarInt(std::numeric_limits<int64_t>::max());
  b.AppendVarInt(0).AppendVarInt(-17982).AppendVarUInt(0).AppendVarUInt(std::numeric_limits<uint64_t>::max());
  auto d = Decode(m, b);
  REQUIRE(Clean(d));
  CHECK(d.Find("min")->asInt() == std::numeric_limits<int64_t>::min());
  CHECK(d.Find("max")->asInt() == std::numeric_limits<int64_t>::max());
  CHECK(d.Find("zero")->asInt() == 0);
  CHECK(d.Find("neg")->asInt() == -17982);
  CHECK(d.Find("u0")->asUInt() == 0);
  CHECK(d.Find("umax")->asUInt() == std::numeric_limits<uint64_t>::max());
  CHECK(Json(*d.Find("min")) == "\"-9223372036854775808\"");
  CHECK(Json(*d.Find("umax")) == "\"18446744073709551615\"");
  CHECK(Json(*d.Find("neg")) == "-17982");
}

TEST_CASE("payload: variable-size fields nested in a struct", "[payload]") {
  // v6-test-scenarios.md §B 24.
  auto m = Meta({Field("v", T(TypeCode::kVarInt)),
                 Field("s", ObjectOf({Field("u8", ArrayOf(T(TypeCode::kUTF8CodeUnit))), Field("vi", T(TypeCode::kVarInt)),
                                      Field("u16", ArrayOf(T(TypeCode::kUTF16CodeUnit))),
                                      Field("vu", T(TypeCode::kVarUInt))}))});
  PayloadBuilder b;
  b.AppendVarInt(-1).AppendUtf8Array("abc").AppendVarInt(300).AppendUtf16Array("de").AppendVarUInt(1 << 20);
  auto d = Decode(m, b);
  REQUIRE(Clean(d));
  CHECK(d.Find("v")->asInt() == -1);
  CHECK(d.Find("s")->ToString() == "{u8=abc,vi=300,u16=de,vu=1048576}");
}

TEST_CASE("payload: short and long payloads against metadata", "[payload]") {
  auto m = Meta({Field("a", T(TypeCode::kInt32)), Field("b", T(TypeCode::kInt32)), Field("c", T(TypeCode::kInt16))});
  SECTION("ends between fields: the rest is left out") {
    PayloadBuilder b;
    b.AppendI32(1).AppendI32(2);
    auto d = Decode(m, b);
    CHECK(d.shorterThanTemplate);
    CHECK_FALSE(d.hasErrors);
    CHECK(d.fields.size() == 2);
  }
  SECTION("ends inside a field: that field is an error") {
    PayloadBuilder b;
    b.AppendI32(1).AppendI32(2).AppendU8(3);
    auto d = Decode(m, b);
    CHECK(d.shorterThanTemplate);
    REQUIRE(d.fields.size() == 3);
    CHECK(d.fields[2].value.isError());
  }
  SECTION("longer: trailing bytes counted") {
    PayloadBuilder b;
    b.AppendI32(1).AppendI32(2).AppendI16(3).AppendU8(0xAA).AppendU8(0xBB).AppendU8(0xCC);
    auto d = Decode(m, b);
    CHECK(d.longerThanTemplate);
    CHECK(d.trailingBytes == 3);
    CHECK_FALSE(d.hasErrors);
    CHECK(Json(d).find("\"trailingBytes\":3") != std::string::npos);
  }
}

TEST_CASE("payload: unsupported type codes and hostile shapes end safely", "[payload]") {
  SECTION("Decimal: size unknown, decoding stops") {
    auto m = Meta({Field("a", T(TypeCode::kInt32)), Field("d", T(TypeCode::kDecimal)), Field("z", T(TypeCode::kInt32))});
    PayloadBuilder b;
    b.AppendI32(1).AppendI64(0).AppendI64(0).AppendI32(2);
    auto d = Decode(m, b);
    REQUIRE(d.fields.size() == 2);
    CHECK(d.fields[1].value.isError());
    CHECK(d.stoppedAtError);
  }
  SECTION("arrays of empty objects: the value budget ends them") {
    // Empty objects take no bytes, so only the per-event value budget bounds them.
    FieldType empty = ObjectOf({});
    auto flat = Meta({Field("a", ArrayOf(empty))});
    PayloadBuilder one;
    one.AppendArrayCount(65535);
    auto d1 = Decode(flat, one);
    REQUIRE(d1.fields.size() == 1);
    CHECK(d1.fields[0].value.isError());  // 65,535 > the budget of a 2-byte payload

    auto nested = Meta({Field("a", ArrayOf(ArrayOf(empty)))});
    PayloadBuilder b;
    b.AppendArrayCount(200);
    for (int i = 0; i < 200; ++i) b.AppendArrayCount(4000);
    auto d2 = Decode(nested, b);
    CHECK(d2.hasErrors);
    CHECK(d2.stoppedAtError);
    size_t values = 0;
    for (const auto& inner : d2.fields[0].value.items()) values += 1 + inner.items().size();
    CHECK(values < 4096 + 4 * b.size() + 1);
  }
  SECTION("objects nested deeper than 32 levels") {
    FieldType t = T(TypeCode::kInt32);
    for (int i = 0; i < 40; ++i) t = ObjectOf({Field("x", t)});
    auto m = Meta({Field("deep", t)});
    PayloadBuilder b;
    b.AppendI32(5);
    auto d = Decode(m, b);
    CHECK(d.hasErrors);
  }
  SECTION("a FixedLengthArray far larger than the payload") {
    auto m = Meta({Field("a", FixedArrayOf(FixedArrayOf(T(TypeCode::kInt64), 65535), 65535))});
    PayloadBuilder b;
    b.AppendI64(1);
    auto d = Decode(m, b);
    REQUIRE(d.fields.size() == 1);
    CHECK(d.fields[0].value.isError());
  }
}

TEST_CASE("payload: metadata without fields and no CLR template decodes nothing", "[payload]") {
  auto m = Meta({});
  PayloadBuilder b;
  b.AppendI32(1);
  auto d = Decode(m, b);
  CHECK(d.schema == PayloadSchema::kNone);
  CHECK(d.fields.empty());
  CHECK(d.trailingBytes == 4);
}

// ---- CLR templates -------------------------------------------------------------------

TEST_CASE("payload: CLR GC/Start V2 from the manifest template", "[payload]") {
  PayloadBuilder b;
  b.AppendU32(1).AppendU32(0).AppendU32(0).AppendU32(0).AppendU16(3).AppendU64(0);
  auto d = Decode(ClrMeta(1, 2), b, 8, 4);
  REQUIRE(d.schema == PayloadSchema::kClrTemplate);
  REQUIRE(d.clrEvent != nullptr);
  CHECK(std::string(d.clrEvent->symbol) == "GCStart_V2");
  REQUIRE(Clean(d));
  CHECK(Json(d).rfind("{\"schema\":\"clr\",\"template\":\"GCStart_V2\",\"templateVersion\":2,\"fields\":[", 0) == 0);
  CHECK(d.fields.size() == 6);
  CHECK(d.Find("Count")->asUInt() == 1);
  CHECK(d.Find("ClrInstanceID")->asUInt() == 3);
  CHECK(d.Find("ClientSequenceNumber")->asUInt() == 0);

  SECTION("a V1-sized payload under the V2 template: shorter, trailing fields left out") {
    PayloadBuilder s;
    s.AppendU32(1).AppendU32(0).AppendU32(0).AppendU32(0).AppendU16(3);
    auto ds = Decode(ClrMeta(1, 2), s, 8, 4);
    CHECK(ds.shorterThanTemplate);
    CHECK_FALSE(ds.hasErrors);
    CHECK(ds.fields.size() == 5);
    CHECK(ds.Find("ClientSequenceNumber") == nullptr);
  }
  SECTION("longer payload: trailing bytes") {
    PayloadBuilder l = b;
    l.AppendU32(0xDEADBEEF);
    auto dl = Decode(ClrMeta(1, 2), l, 8, 4);
    CHECK(dl.longerThanTemplate);
    CHECK(dl.trailingBytes == 4);
    CHECK(dl.fields.size() == 6);
  }
}

TEST_CASE("payload: CLR AllocationTick V3 with 8- and 4-byte pointers", "[payload]") {
  for (uint32_t ptr : {8u, 4u}) {
    INFO("pointer size " << ptr);
    PayloadBuilder b;
    b.AppendU32(0x196A0).AppendU32(0).AppendU16(3).AppendU64(104096);
    if (ptr == 8) b.AppendU64(0x00007FFEA911EA28ULL); else b.AppendU32(0x0A11EA28u);
    b.AppendNullTerminatedUtf16("System.Object[]").AppendU32(0);
    if (ptr == 8) b.AppendU64(0x0000019A00017FE8ULL); else b.AppendU32(0x00017FE8u);
    auto d = Decode(ClrMeta(10, 3), b, ptr, 4);
    REQUIRE(Clean(d));
    REQUIRE(d.fields.size() == 8);
    CHECK(d.Find("AllocationAmount")->asUInt() == 0x196A0);
    CHECK(d.Find("AllocationAmount")->hex());
    CHECK(d.Find("AllocationAmount64")->asUInt() == 104096);
    CHECK(d.Find("TypeName")->text() == "System.Object[]");
    CHECK(d.Find("HeapIndex")->asUInt() == 0);
    const PayloadValue* typeId = d.Find("TypeID");
    CHECK(typeId->width() == ptr);
    if (ptr == 8) {
      CHECK(typeId->asUInt() == 0x00007FFEA911EA28ULL);
      CHECK(Json(*typeId) == "\"0x00007FFEA911EA28\"");
      CHECK(d.Find("Address")->asUInt() == 0x0000019A00017FE8ULL);
    } else {
      CHECK(typeId->asUInt() == 0x0A11EA28u);
      CHECK(Json(*typeId) == "\"0x0A11EA28\"");
      CHECK(d.Find("Address")->asUInt() == 0x00017FE8u);
    }
    // The same payload with the other pointer size does not fit the template.
    auto wrong = Decode(ClrMeta(10, 3), b, ptr == 8 ? 4 : 8, 4);
    CHECK_FALSE(Clean(wrong));
  }
}

TEST_CASE("payload: ExceptionThrown with and without the ExceptionMessage", "[payload]") {
  for (uint32_t ptr : {8u, 4u}) {
    for (uint32_t version : {1u, 0u}) {
      INFO("pointer size " << ptr << " version " << version);
      auto tail = [&](PayloadBuilder& b) {
        if (ptr == 8) b.AppendU64(0x00007FF812345678ULL); else b.AppendU32(0x12345678u);
        b.AppendU32(0x80131509u).AppendU16(0x10).AppendU16(3);
      };
      PayloadBuilder with;
      with.AppendNullTerminatedUtf16("System.InvalidOperationException").AppendNullTerminatedUtf16("boom");
      tail(with);
      auto d = Decode(ClrMeta(80, version), with, ptr, 4);
      REQUIRE(Clean(d));
      CHECK_FALSE(d.exceptionMessageOmitted);
      CHECK(d.Find("ExceptionMessage")->text() == "boom");
      CHECK(d.Find("ExceptionHRESULT")->asUInt() == 0x80131509u);

      PayloadBuilder without;  // older runtimes: an empty message is not written at all
      without.AppendNullTerminatedUtf16("System.InvalidOperationException");
      tail(without);
      auto e = Decode(ClrMeta(80, version), without, ptr, 4);
      REQUIRE(Clean(e));
      CHECK(e.exceptionMessageOmitted);
      CHECK(e.Find("ExceptionMessage")->text() == "");
      CHECK(e.Find("ExceptionType")->text() == "System.InvalidOperationException");
      CHECK(e.Find("ExceptionFlags")->asUInt() == 0x10);
      CHECK(e.Find("ClrInstanceID")->asUInt() == 3);
      CHECK(Json(e).find("\"exceptionMessageOmitted\":true") != std::string::npos);

      PayloadBuilder empty;  // .NET 6+: the empty message is written as a lone terminator
      empty.AppendNullTerminatedUtf16("T").AppendNullTerminatedUtf16("");
      tail(empty);
      auto f = Decode(ClrMeta(80, version), empty, ptr, 4);
      REQUIRE(Clean(f));
      CHECK_FALSE(f.exceptionMessageOmitted);
      CHECK(f.Find("ExceptionMessage")->text() == "");
    }
  }
}

TEST_CASE("payload: CLR counted struct arrays and scalar arrays", "[payload]") {
  SECTION("GC/BulkMovedObjectRanges: Count structs of (pointer, pointer, uint64)") {
    PayloadBuilder b;
    b.AppendU32(0).AppendU32(2).AppendU16(3);
    b.AppendU64(0x1048).AppendU64(0x1048).AppendU64(0x330);
    b.AppendU64(0x1498).AppendU64(0x1438).AppendU64(0xC0);
    auto d = Decode(ClrMeta(22, 0), b, 8, 4);
    REQUIRE(Clean(d));
    const PayloadValue* values = d.Find("Values");
    REQUIRE(values->kind() == Kind::kArray);
    REQUIRE(values->items().size() == 2);
    CHECK(values->items()[1].Find("OldRangeBase")->asUInt() == 0x1498);
    CHECK(values->items()[1].Find("NewRangeBase")->asUInt() == 0x1438);
    CHECK(values->items()[1].Find("RangeLength")->asUInt() == 0xC0);
  }
  SECTION("a struct count larger than the payload: error, nothing allocated for it") {
    PayloadBuilder b;
    b.AppendU32(0).AppendU32(0xFFFFFFFFu).AppendU16(3).AppendU64(1);
    auto d = Decode(ClrMeta(22, 0), b, 8, 4);
    CHECK(d.Find("Values")->isError());
    CHECK(d.hasErrors);
  }
  SECTION("Method/ILToNativeMap: two uint32 arrays counted by CountOfMapEntries") {
    PayloadBuilder b;
    b.AppendU64(0x7FFE0000).AppendU64(0).AppendU8(0).AppendU16(2);
    b.AppendU32(0).AppendU32(5).AppendU32(0x10).AppendU32(0x20).AppendU16(3);
    auto d = Decode(ClrMeta(190, 0), b, 8, 4);
    REQUIRE(Clean(d));
    CHECK(d.Find("ILOffsets")->ToString() == "[0,5]");
    CHECK(d.Find("NativeOffsets")->ToString() == "[16,32]");
    CHECK(d.Find("ClrInstanceID")->asUInt() == 3);
  }
  SECTION("Method/ILToNativeMap too short for its entry count (§B 27)") {
    PayloadBuilder b;
    b.AppendU64(0x7FFE0000).AppendU64(0).AppendU8(0).AppendU16(1000).AppendU32(0);
    auto d = Decode(ClrMeta(190, 0), b, 8, 4);
    CHECK(d.hasErrors);
    CHECK(d.Find("ILOffsets")->isError());
  }
  SECTION("GC/DynamicData: win:Binary whose length is DataSize") {
    PayloadBuilder b;
    b.AppendNullTerminatedUtf16("n").AppendU32(3).AppendU8(0xAB).AppendU8(0xCD).AppendU8(0xEF).AppendU16(3);
    auto d = Decode(ClrMeta(39, 0), b, 8, 4);
    REQUIRE(Clean(d));
    CHECK(d.Find("Data")->kind() == Kind::kBytes);
    CHECK(Json(*d.Find("Data")) == "{\"$bytes\":\"abcdef\"}");
  }
}

TEST_CASE("payload: rundown ExecutionCheckpointDCEnd (id 300)", "[payload]") {
  PayloadBuilder b;
  b.AppendU16(9).AppendNullTerminatedUtf16("RuntimeInit").AppendI64(11111925598665LL);
  auto d = Decode(ClrMeta(300, 0, "Microsoft-Windows-DotNETRuntimeRundown"), b, 8, 4);
  REQUIRE(Clean(d));
  CHECK(d.Find("Name")->text() == "RuntimeInit");
  CHECK(d.Find("Timestamp")->asInt() == 11111925598665LL);
}

TEST_CASE("payload: metadata fields win over the CLR template (v6 runtime events)", "[payload]") {
  EventMetadata m = ClrMeta(1, 2);
  m.fields = {Field("Only", T(TypeCode::kUInt16))};
  PayloadBuilder b;
  b.AppendU16(5);
  auto d = Decode(m, b, 8, 6);
  CHECK(d.schema == PayloadSchema::kMetadata);
  CHECK(d.Find("Only")->asUInt() == 5);
}

TEST_CASE("payload value: JSON of hex, doubles and special kinds", "[payload]") {
  CHECK(Json(PayloadValue::UInt(0x1F, 4, true)) == "\"0x0000001F\"");
  CHECK(Json(PayloadValue::Int(-1, 4, true)) == "\"0xFFFFFFFF\"");
  CHECK(Json(PayloadValue::UInt(uint64_t{1} << 53, 8)) == "9007199254740992");
  CHECK(Json(PayloadValue::UInt((uint64_t{1} << 53) + 1, 8)) == "\"9007199254740993\"");
  CHECK(Json(PayloadValue::Double(3.09483339131237E-05)) == "0.0000309483339131237");
  CHECK(Json(PayloadValue::Double(1e300)) == "\"1e+300\"");
  CHECK(Json(PayloadValue::Double(0.1f, true)) == "0.1");
  CHECK(Json(PayloadValue::Double(std::numeric_limits<double>::quiet_NaN())) == "\"NaN\"");
  CHECK(Json(PayloadValue::Error("bad")) == "{\"$error\":\"bad\"}");
  CHECK(FileTimeToIso8601(0) == "1601-01-01T00:00:00.0000000Z");
  CHECK(FileTimeToIso8601(-1) == "");
}

}  // namespace
}  // namespace nettrace

// ---- robustness: random bytes against every schema (run under ASan/UBSan) --------------

namespace nettrace {
namespace {

struct Lcg {
  uint64_t state;
  uint32_t Next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(state >> 33);
  }
};

std::vector<uint8_t> RandomBytes(Lcg& rng, size_t n) {
  std::vector<uint8_t> out(n);
  for (auto& b : out) {
    // Mostly small values, so counts and lengths are often plausible.
    uint32_t r = rng.Next();
    b = static_cast<uint8_t>(r % 4 == 0 ? r >> 8 : r % 4);
  }
  return out;
}

void CheckInvariants(const DecodedPayload& d, size_t size) {
  CHECK(d.trailingBytes <= size);
  if (d.stoppedAtError) CHECK(d.hasErrors);
  JsonWriter w;
  d.ToJson(w);
  CHECK(!w.str().empty());
}

TEST_CASE("payload: every CLR template survives random and truncated payloads", "[payload]") {
  size_t count = 0;
  const clr::EventInfo* all = clr::AllEvents(&count);
  REQUIRE(count > 0);
  Lcg rng{42};
  // Indexed by clr::Provider.
  const char* providers[] = {"",
                             "Microsoft-Windows-DotNETRuntime",
                             "Microsoft-Windows-DotNETRuntimeRundown",
                             "Microsoft-Windows-DotNETRuntimePrivate",
                             "Microsoft-Windows-DotNETRuntimeStress",
                             "Microsoft-DotNETCore-SampleProfiler"};
  static_assert(sizeof providers / sizeof providers[0] == static_cast<size_t>(clr::Provider::kSampleProfiler) + 1);
  for (size_t i = 0; i < count; ++i) {
    EventMetadata m = ClrMeta(all[i].id, all[i].version, providers[static_cast<int>(all[i].provider)]);
    for (uint32_t ptr : {4u, 8u}) {
      for (size_t n = 0; n < 48; n += 1 + n / 8) {
        auto bytes = RandomBytes(rng, n);
        CheckInvariants(DecodePayload(m, bytes, ptr, 4), n);
      }
    }
  }
}

FieldType RandomType(Lcg& rng, int depth) {
  static const TypeCode kScalars[] = {
      TypeCode::kBoolean32, TypeCode::kUTF16CodeUnit, TypeCode::kSByte, TypeCode::kByte, TypeCode::kInt16,
      TypeCode::kUInt16, TypeCode::kInt32, TypeCode::kUInt32, TypeCode::kInt64, TypeCode::kUInt64,
      TypeCode::kSingle, TypeCode::kDouble, TypeCode::kDateTime, TypeCode::kGuid,
      TypeCode::kNullTerminatedUTF16String, TypeCode::kVarInt, TypeCode::kVarUInt, TypeCode::kUTF8CodeUnit,
      TypeCode::kBoolean8, TypeCode::kDecimal};
  uint32_t r = rng.Next() % 10;
  if (depth > 4 || r < 5) return Scalar(kScalars[rng.Next() % (sizeof kScalars / sizeof kScalars[0])]);
  switch (r) {
    case 5: return ArrayOf(RandomType(rng, depth + 1));
    case 6: return FixedArrayOf(RandomType(rng, depth + 1), static_cast<uint16_t>(rng.Next() % 5));
    case 7: return RelLocOf(RandomType(rng, depth + 1));
    case 8: return DataLocOf(RandomType(rng, depth + 1));
    default: {
      std::vector<FieldDescription> fields;
      for (uint32_t k = rng.Next() % 4; k > 0; --k) fields.push_back(Field("f", RandomType(rng, depth + 1)));
      return ObjectOf(std::move(fields));
    }
  }
}

TEST_CASE("payload: random metadata shapes against random payloads", "[payload]") {
  Lcg rng{7};
  for (int i = 0; i < 3000; ++i) {
    std::vector<FieldDescription> fields;
    for (uint32_t k = 1 + rng.Next() % 5; k > 0; --k) fields.push_back(Field("f", RandomType(rng, 0)));
    auto m = Meta(std::move(fields));
    size_t n = rng.Next() % 96;
    auto bytes = RandomBytes(rng, n);
    CheckInvariants(DecodePayload(m, bytes, 8, 4 + static_cast<int>(rng.Next() % 3)), n);
  }
}

}  // namespace
}  // namespace nettrace
