// ReadClrIntegerField and ReadClrStringField (format/payload/clr_field_read.h) against
// DecodePayload on every event of every corpus trace: for each top-level field of the event's
// template, an answer read in place must be exactly what the decoded payload holds, and
// "absent" must mean the decoded payload has no integer there. The first event of each type is also cut at every length.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>

#include "format/clr_events.generated.h"
#include "format/payload/clr_field_read.h"
#include "format/payload_decoder.h"
#include "format/record_sink.h"
#include "io/byte_cursor.h"
#include "format/trace_reader.h"
#include "test_support.h"

using namespace nettrace;

namespace {

class CompareSink : public RecordSink {
 public:
  Status OnTraceInfo(const TraceInfo& t) override {
    pointerSize = t.pointerSize == 4 ? 4 : 8;
    return Status::Ok();
  }
  Status OnEvent(const EventRecord& e) override {
    const EventMetadata* defined = types->Of(e.metadataId).metadata;
    if (!defined) return Status::Ok();
    const EventMetadata& m = *defined;
    Compare(m, e.payload);
    if (cutTypes.insert(e.metadataId).second)
      for (size_t n = 0; n < e.payload.size(); ++n) Compare(m, e.payload.first(n));
    return Status::Ok();
  }

  void Compare(const EventMetadata& m, std::span<const uint8_t> payload) {
    std::vector<std::string> names = {"NoSuchField"};
    for (clr::Provider p : {clr::Provider::kRuntime, clr::Provider::kRundown, clr::Provider::kPrivate,
                            clr::Provider::kStress, clr::Provider::kSampleProfiler})
      if (const clr::EventInfo* info = clr::FindEvent(p, m.eventId, m.version))
        for (uint16_t i = 0; i < info->fieldCount; ++i) names.emplace_back(info->fields[i].name);
    DecodedPayload decoded;
    bool haveDecoded = false;
    for (const std::string& name : names) {
      // A string read in place (ReadClrStringField) is the decoded string, converted alike.
      const ClrStringRead text = ReadClrStringField(m, payload, pointerSize, name);
      if (text.result == ClrFieldRead::Result::kValue) {
        if (!haveDecoded) decoded = DecodePayload(m, payload, pointerSize, reader->formatMajor()), haveDecoded = true;
        const PayloadValue* v = decoded.Find(name);
        std::string utf8;
        AppendUtf16AsUtf8(text.utf16.data(), text.utf16.size() / 2, &utf8);
        ++strings;
        if (!v || v->kind() != PayloadValue::Kind::kString || v->text() != utf8) ++mismatches;
      } else if (text.result == ClrFieldRead::Result::kAbsent) {
        ++mismatches;  // never answered: a string that does not end is DecodePayload's error
      }
      const ClrFieldRead r = ReadClrIntegerField(m, payload, pointerSize, name);
      if (r.result == ClrFieldRead::Result::kNotFixed) continue;
      if (!haveDecoded) decoded = DecodePayload(m, payload, pointerSize, reader->formatMajor()), haveDecoded = true;
      const PayloadValue* v = decoded.Find(name);
      if (r.result == ClrFieldRead::Result::kValue) {
        ++values;
        if (!v || !v->isInteger() || v->asUInt() != r.value) {
          ++mismatches;
          UNSCOPED_INFO(m.providerName << " " << m.eventId << " v" << m.version << " " << name << " size "
                                       << payload.size() << ": read " << r.value);
        }
      } else {
        ++absent;
        if (v && v->isInteger()) ++mismatches;
      }
    }
  }

  uint32_t pointerSize = 8;
  const TraceReader* reader = nullptr;
  const TypeResolver* types = nullptr;  // the stage before this sink: what each id is
  std::set<uint32_t> cutTypes;
  uint64_t values = 0, absent = 0, strings = 0, mismatches = 0;
};

}  // namespace

TEST_CASE("CLR integer and string fields read in place equal the decoded payload's on every corpus event", "[format]") {
  uint64_t values = 0, absent = 0, strings = 0;
  for (const std::string& name : test::CorpusTraces()) {
    const std::vector<uint8_t> bytes = test::ReadFile(test::DataPath(name));
    CompareSink sink;
    test::ResolvedReader r(&sink);
    sink.types = &r.types;
    sink.reader = &r.reader;
    Status st = r.reader.Push(bytes.data(), bytes.size());
    if (st.ok()) st = r.reader.Finish();
    INFO(name);
    CHECK(st.ok());
    CHECK(sink.mismatches == 0);
    values += sink.values, absent += sink.absent, strings += sink.strings;
  }
  WARN("read in place: " << values << " values, " << absent << " absent, " << strings << " strings");
  // Every GC of the corpus answers in place, and the cut payloads reach "absent".
  CHECK(values > 100000);
  CHECK(absent > 100);
  CHECK(strings > 1000);  // AllocationTick's TypeName among them
}
