// ReadClrIntegerField and ReadClrStringField (format/payload/clr_field_read.h) against
// DecodePayload on every event of every corpus trace: for each top-level field of the event's
// template, an answer read in place must be exactly what the decoded payload holds, and
// "absent" must mean the decoded payload has no integer there. The first event of each type is also cut at every length.
// ClrIntegerField and ClrStringField, the call-site forms that place a field once per layout,
// must answer as ReadClrIntegerField and ReadClrStringField do while the layout changes from
// event to event.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
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
    const ClrFieldLayout* layout = types->Of(e.metadataId).clrLayout;
    Compare(m, layout, e.payload);
    if (cutTypes.insert(e.metadataId).second)
      for (size_t n = 0; n < e.payload.size(); ++n) Compare(m, layout, e.payload.first(n));
    return Status::Ok();
  }

  void Compare(const EventMetadata& m, const ClrFieldLayout* layout, std::span<const uint8_t> payload) {
    CompareStructArray(m, layout, payload);
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
      // One call site per name, shared by every event type: it places the field again
      // whenever the layout changes.
      auto [textSite, textAdded] = stringSites.try_emplace(name);
      if (textAdded) textSite->second = std::make_unique<ClrStringField>(textSite->first);
      const ClrStringRead byLayoutText = ReadClrStringField(layout, payload, name);
      const ClrStringRead cachedText = textSite->second->Read(layout, payload);
      ++cachedStringReads;
      if (cachedText.result != byLayoutText.result || cachedText.utf16.data() != byLayoutText.utf16.data() ||
          cachedText.utf16.size() != byLayoutText.utf16.size()) {
        ++mismatches;
        UNSCOPED_INFO("cached string " << m.providerName << " " << m.eventId << " v" << m.version << " " << name);
      }
      auto [site, added] = sites.try_emplace(name);
      if (added) site->second = std::make_unique<ClrIntegerField>(site->first);
      const ClrFieldRead byLayout = ReadClrIntegerField(layout, payload, name);
      const ClrFieldRead cached = site->second->Read(layout, payload);
      ++cachedReads;
      if (cached.result != byLayout.result || cached.value != byLayout.value) {
        ++mismatches;
        UNSCOPED_INFO("cached " << m.providerName << " " << m.eventId << " v" << m.version << " " << name);
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

  // An array of structs read in place (ReadClrStructArray: GC/PerHeapHistory's Values) has
  // the decoded array's elements, each member the decoded integer; a payload cut inside it is
  // left to the decoder.
  void CompareStructArray(const EventMetadata& m, const ClrFieldLayout* layout, std::span<const uint8_t> payload) {
    if (!layout || layout->elementSize == 0) return;
    ClrStructArray inPlace;
    const bool read = ReadClrStructArray(layout, payload, layout->arrayName, &inPlace);
    const DecodedPayload decoded = DecodePayload(m, payload, pointerSize, reader->formatMajor());
    const PayloadValue* array = decoded.Find(layout->arrayName);
    const bool whole = array && array->kind() == PayloadValue::Kind::kArray && !decoded.hasErrors;
    if (!read) {
      structArraysLeft += 1;
      return;
    }
    ++structArrays;
    if (!whole || array->items().size() != inPlace.count) {
      ++mismatches;
      UNSCOPED_INFO(m.eventId << " v" << m.version << " size " << payload.size() << ": " << inPlace.count << " elements");
      return;
    }
    for (uint32_t g = 0; g < inPlace.count; ++g)
      for (const ClrFieldSlot& member : layout->elementMembers) {
        const PayloadValue* v = array->items()[g].Find(member.name);
        ++structMembers;
        if (!v || !v->isInteger() || v->asUInt() != inPlace.UInt(g, member.name)) ++mismatches;
      }
    if (inPlace.UInt(0, "NoSuchMember") != 0) ++mismatches;
  }
  uint64_t structArrays = 0, structArraysLeft = 0, structMembers = 0;
  uint32_t pointerSize = 8;
  const TraceReader* reader = nullptr;
  const TypeResolver* types = nullptr;  // the stage before this sink: what each id is
  std::set<uint32_t> cutTypes;
  std::map<std::string, std::unique_ptr<ClrIntegerField>> sites;  // by field name
  std::map<std::string, std::unique_ptr<ClrStringField>> stringSites;
  uint64_t values = 0, absent = 0, strings = 0, cachedReads = 0, cachedStringReads = 0, mismatches = 0;
};

}  // namespace

TEST_CASE("CLR integer and string fields read in place equal the decoded payload's on every corpus event", "[format]") {
  uint64_t values = 0, absent = 0, strings = 0, cachedReads = 0, cachedStringReads = 0, structArrays = 0,
           structArraysLeft = 0, structMembers = 0;
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
    values += sink.values, absent += sink.absent, strings += sink.strings, cachedReads += sink.cachedReads;
    cachedStringReads += sink.cachedStringReads;
    structArrays += sink.structArrays, structArraysLeft += sink.structArraysLeft, structMembers += sink.structMembers;
  }
  WARN("struct arrays read in place: " << structArrays << " (" << structMembers << " members); left to the decoder: "
                                       << structArraysLeft);
  CHECK(structArrays > 400);      // objver4's 478 GC/PerHeapHistory among them
  CHECK(structArraysLeft > 100);  // their cuts inside the array
  WARN("read in place: " << values << " values, " << absent << " absent, " << strings << " strings, " << cachedReads
                          << " call-site reads");
  // Every GC of the corpus answers in place, and the cut payloads reach "absent".
  CHECK(values > 100000);
  CHECK(absent > 100);
  CHECK(strings > 1000);  // AllocationTick's TypeName among them
  CHECK(cachedReads > values);
  CHECK(cachedStringReads == cachedReads);  // every name through both call-site forms
}

TEST_CASE("A call site's integer field sign-extends Int32 and re-places itself when the layout changes", "[format]") {
  // GC/GlobalHeapHistory V2: FinalYoungestDesired (UInt64), NumHeaps (Int32), ... ; the
  // corpus has no negative signed field, so this one is written here.
  EventMetadata history;
  history.providerName = "Microsoft-Windows-DotNETRuntime", history.eventId = 205, history.version = 2;
  EventMetadata suspend;  // GC/SuspendEEStart V1: Reason (UInt32), Count (UInt32), ClrInstanceID
  suspend.providerName = "Microsoft-Windows-DotNETRuntime", suspend.eventId = 9, suspend.version = 1;
  const ClrFieldLayout historyLayout = BuildClrFieldLayout(history, 8);
  const ClrFieldLayout suspendLayout = BuildClrFieldLayout(suspend, 8);
  std::vector<uint8_t> payload(40, 0);
  payload[0] = 5;
  for (int i = 8; i < 12; ++i) payload[static_cast<size_t>(i)] = 0xFF;  // NumHeaps = -1
  payload[8] = 0xFE;                                                     // -2
  ClrIntegerField numHeaps("NumHeaps");
  for (int round = 0; round < 2; ++round) {
    const ClrFieldRead r = numHeaps.Read(&historyLayout, payload);
    CHECK(r.result == ClrFieldRead::Result::kValue);
    CHECK(r.value == static_cast<uint64_t>(int64_t{-2}));
    CHECK(r.value == DecodePayload(history, payload, 8, 5).Find("NumHeaps")->asUInt());
    // Another layout, which places every field and has no NumHeaps: absent, as ReadClrIntegerField says.
    CHECK(numHeaps.Read(&suspendLayout, payload).result == ClrFieldRead::Result::kAbsent);
    CHECK(ReadClrIntegerField(&suspendLayout, payload, "NumHeaps").result == ClrFieldRead::Result::kAbsent);
    CHECK(numHeaps.Read(nullptr, payload).result == ClrFieldRead::Result::kNotFixed);
  }
  // A payload that ends inside the field.
  CHECK(numHeaps.Read(&historyLayout, std::span<const uint8_t>(payload).first(10)).result ==
        ClrFieldRead::Result::kAbsent);
}
