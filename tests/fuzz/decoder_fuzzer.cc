// tests/fuzz — decoder_fuzzer: the byte-level decoders one at a time, without the reader
// in front of them, so the fuzzer reaches their corners directly (style.md §4: the cursor
// "gets its own fuzzer"). The first input byte picks the target, the rest is its input:
//
//   0 ByteCursor: an op stream of reads, varints checked against a reference LEB128
//   1 ChunkQueue: appends / peeks / consumes checked against a flat copy of the stream
//   2 v4/v5 metadata record (fast_serialization/metadata_payload.h) + payload decoding
//   3 v6 MetadataBlock + payload decoding by each metadata's field descriptions
//   4 CLR manifest templates (format/payload/clr_template.h via DecodePayload)
//   5 the v6 block decoders, 6 the v4/v5 object decoders (and the NetPerf EventBlock), 7 event rows re-decoding
//   8 format detection and UTF-16 → UTF-8
//
// Decoded payloads go to JSON (payload_value ToJson) and to free-text matching, as the
// event detail view and the search use them; the JSON must be valid.
#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "reread/text_search.h"
#include "base/json_writer.h"
#include "format/clr_events.generated.h"
#include "format/event_block.h"
#include "format/fast_serialization/metadata_payload.h"
#include "format/fast_serialization/sequence_point_block.h"
#include "format/fast_serialization/trace_object.h"
#include "format/netperf_event_block.h"
#include "format/payload_decoder.h"
#include "format/stack_block.h"
#include "format/trace_type.h"
#include "format/v6/blocks.h"
#include "fuzz_check.h"
#include "json_check.h"
#include "decoder_targets.h"

namespace nettrace::fuzz {
namespace {

// Absolute offset the decoded bytes pretend to start at (errors must name offsets in
// [kBase, kBase + size]).
constexpr uint64_t kBase = 0x10000;

void CheckDecoderStatus(const Status& s, size_t size, const char* what) {
  if (s.ok() || s.offset() == kNoOffset) return;  // the reader adds the block's offset
  FUZZ_CHECK(s.offset() >= kBase && s.offset() - kBase <= size, std::string(what) + ": " + s.ToString());
}

// Decodes `payload` by `m` as the detail view and the search do.
void DecodeAndShow(const EventMetadata& m, std::span<const uint8_t> payload, uint32_t pointerSize, int major) {
  DecodedPayload d = DecodePayload(m, payload, pointerSize, major);
  JsonWriter w;
  d.ToJson(w);
  const std::string json = w.Take();
  FUZZ_CHECK(IsValidJson(json), "payload JSON: " + json.substr(0, 400));
  PayloadContains(m, payload, "a", pointerSize, static_cast<uint32_t>(major));
}

// Collects what block decoders report; payloads of events are decoded by the metadata
// seen so far (v6 blocks define metadata before events use it).
class DecodingSink final : public RecordSink {
 public:
  DecodingSink(uint32_t pointerSize, int major) : pointerSize_(pointerSize), major_(major) {}
  Status OnMetadata(const EventMetadata& m) override {
    if (metadata_.size() < 64) metadata_.push_back(m);
    return Status::Ok();
  }
  Status OnEvent(const EventRecord& e) override {
    for (const EventMetadata& m : metadata_)
      if (m.id == e.metadataId) DecodeAndShow(m, e.payload, pointerSize_, major_);
    return Status::Ok();
  }
  const std::vector<EventMetadata>& metadata() const { return metadata_; }

 private:
  uint32_t pointerSize_;
  int major_;
  std::vector<EventMetadata> metadata_;
};

// [ptr][len lo][len hi] metadata record (len bytes), then a payload for it.
void V4V5Metadata(std::span<const uint8_t> in) {
  if (in.size() < 3) return;
  const uint32_t pointerSize = (in[0] & 1) ? 8 : 4;
  const size_t len = std::min<size_t>(in[1] | size_t{in[2]} << 8, in.size() - 3);
  EventMetadata m;
  MetadataParseResult r;
  Status s = ParseMetadataV4V5(in.subspan(3, len), kBase, &m, &r);
  CheckDecoderStatus(s, len, "ParseMetadataV4V5");
  if (s.ok()) DecodeAndShow(m, in.subspan(3 + len), pointerSize, r.sawV5Tags ? 5 : 4);
}

// [ptr][len lo][len hi] v6 MetadataBlock content, then one payload for every metadata.
void V6Metadata(std::span<const uint8_t> in) {
  if (in.size() < 3) return;
  const uint32_t pointerSize = (in[0] & 1) ? 8 : 4;
  const size_t len = std::min<size_t>(in[1] | size_t{in[2]} << 8, in.size() - 3);
  Stats stats;
  DecodingSink sink(pointerSize, 6);
  BlockContext ctx{&sink, &stats, RowGeneration::kV6};
  Status s = DecodeMetadataBlockV6(ByteCursor(in.subspan(3, len), kBase), ctx);
  CheckDecoderStatus(s, len, "DecodeMetadataBlockV6");
  for (const EventMetadata& m : sink.metadata()) DecodeAndShow(m, in.subspan(3 + len), pointerSize, 6);
}

// [idx lo][idx hi][flags] payload: template AllEvents()[idx], pointer size and v4/v5 by flags.
void ClrTemplate(std::span<const uint8_t> in) {
  static const char* const kProviders[] = {"", "Microsoft-Windows-DotNETRuntime", "Microsoft-Windows-DotNETRuntimeRundown",
                                           "Microsoft-Windows-DotNETRuntimePrivate",
                                           "Microsoft-Windows-DotNETRuntimeStress"};
  if (in.size() < 3) return;
  size_t count = 0;
  const clr::EventInfo* all = clr::AllEvents(&count);
  if (count == 0) return;
  const clr::EventInfo& info = all[(in[0] | size_t{in[1]} << 8) % count];
  EventMetadata m;
  m.providerName = kProviders[static_cast<size_t>(info.provider) % std::size(kProviders)];
  m.eventId = info.id;
  m.version = (in[2] & 2) ? info.version + 1u : info.version;  // newer versions fall back
  DecodeAndShow(m, in.subspan(3), (in[2] & 1) ? 8 : 4, (in[2] & 4) ? 5 : 4);
}

// [kind][ptr] content: one v6 block.
void V6Block(std::span<const uint8_t> in) {
  if (in.size() < 2) return;
  Stats stats;
  DecodingSink sink((in[1] & 1) ? 8 : 4, 6);
  BlockContext ctx{&sink, &stats, RowGeneration::kV6};
  const ByteCursor c(in.subspan(2), kBase);
  TraceInfo info;
  Status s;
  switch (in[0] % 8) {
    case 0: s = DecodeTraceBlockV6(c, &info); break;
    case 1: s = DecodeEventBlock(c, ctx); break;
    case 2: s = DecodeMetadataBlockV6(c, ctx); break;
    case 3: s = DecodeSequencePointBlockV6(c, ctx); break;
    case 4: s = DecodeStackBlock(c, ctx); break;
    case 5: s = DecodeThreadBlockV6(c, ctx); break;
    case 6: s = DecodeRemoveThreadBlockV6(c, ctx); break;
    default: s = DecodeLabelListBlockV6(c, ctx); break;
  }
  CheckDecoderStatus(s, in.size() - 2, "v6 block");
}

// [kind][ptr] content: one v4/v5 FastSerialization object's content.
void V4V5Block(std::span<const uint8_t> in) {
  if (in.size() < 2) return;
  Stats stats;
  DecodingSink sink((in[1] & 1) ? 8 : 4, 5);
  BlockContext ctx{&sink, &stats, RowGeneration::kV4V5};
  ByteCursor c(in.subspan(2), kBase);
  TraceInfo info;
  Status s;
  NetPerfEventDecoder netPerf;
  switch (in[0] % 6) {
    case 0: s = DecodeTraceObjectFields(c, &info); break;
    case 1: s = DecodeEventBlock(c, ctx); break;
    case 2: s = DecodeMetadataBlockV4V5(c, ctx); break;
    case 3: s = DecodeStackBlock(c, ctx); break;
    case 4: s = DecodeSequencePointBlockV4V5(c, ctx); break;
    default: s = netPerf.DecodeBlock(c, ctx); break;  // NetPerf (v3) EventBlock
  }
  CheckDecoderStatus(s, in.size() - 2, "v4/v5 object");
}

// [gen] content: an event block read again from the file (TraceSession::ProvideBlock).
void EventRows(std::span<const uint8_t> in) {
  if (in.empty()) return;
  std::vector<EventRecord> rows;
  const std::span<const uint8_t> content = in.subspan(1);
  // 2 selects NetPerf rows; otherwise the low bit, as before NetPerf was read.
  const RowGeneration gen = in[0] == 2 ? RowGeneration::kNetPerf : (in[0] & 1) ? RowGeneration::kV6 : RowGeneration::kV4V5;
  Status s = DecodeEventRows(ByteCursor(content, kBase), gen, &rows);
  CheckDecoderStatus(s, content.size(), "DecodeEventRows");
  for (const EventRecord& r : rows) {
    FUZZ_CHECK(r.payload.data() >= content.data() && r.payload.data() + r.payload.size() <= content.data() + content.size(),
               "a row's payload lies outside its block");
    FUZZ_CHECK(r.payloadOffset == kBase + static_cast<uint64_t>(r.payload.data() - content.data()),
               "a row's payloadOffset does not locate its payload");
  }
}

void Detection(std::span<const uint8_t> in) {
  DetectTraceType(in.first(std::min(in.size(), kTraceTypeProbeSize)));
  DetectTraceType(in);
  std::string utf8;
  AppendUtf16AsUtf8(in.data(), in.size() / 2, &utf8);
  FUZZ_CHECK(IsValidUtf8(utf8), "UTF-16 → UTF-8 produced invalid UTF-8");
  ByteCursor c(in, kBase);
  std::string s;
  while (c.ReadNullTerminatedUtf16(&s)) FUZZ_CHECK(IsValidUtf8(s), "ReadNullTerminatedUtf16 produced invalid UTF-8");
}

}  // namespace
}  // namespace nettrace::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nettrace::fuzz;
  if (size == 0) return 0;
  const std::span<const uint8_t> in(data + 1, size - 1);
  switch (data[0] % 9) {
    case 0: CursorOps(in); break;
    case 1: ChunkQueueOps(in); break;
    case 2: V4V5Metadata(in); break;
    case 3: V6Metadata(in); break;
    case 4: ClrTemplate(in); break;
    case 5: V6Block(in); break;
    case 6: V4V5Block(in); break;
    case 7: EventRows(in); break;
    default: Detection(in); break;
  }
  return 0;
}
