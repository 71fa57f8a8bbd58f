// core/convert — rewrites any trace the reader understands as NetTrace v6, streaming:
// a RecordSink that turns records back into v6 blocks with the NetTraceV6Writer and
// hands the bytes out as they are produced. It is `nettrace convert` (old traces into the
// current format, readable by today's tools) and `nettrace trim` (a time window of a big
// trace). v4/v5 concepts get their v6 form: thread ids become Thread rows, activity ids
// become label lists, the Trace object's fields become the well-known key/values.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "format/record_sink.h"
#include "write/nettrace_writer.h"

namespace nettrace {

class V6Converter final : public RecordSink {
 public:
  using Output = std::function<Status(std::span<const uint8_t>)>;
  struct Options {
    // Keep only events with from <= time <= to (ms from the trace's sync time). Sequence
    // numbers are shifted so that cut events do not look dropped; real losses still show.
    std::optional<double> fromMs, toMs;
  };

  V6Converter(Output out, Options options) : out_(std::move(out)), options_(options) {}

  Status OnTraceInfo(const TraceInfo& info) override;
  Status OnMetadata(const EventMetadata& m) override;
  Status OnStack(uint32_t id, std::span<const uint8_t> ips) override;
  Status OnThread(const ThreadInfo& t) override;
  Status OnRemoveThread(const ThreadSequence& t) override;
  Status OnLabelList(uint32_t id, const LabelList& list) override;
  Status OnEvent(const EventRecord& e) override;
  Status OnSequencePoint(const SequencePoint& sp) override;
  Status OnEndOfStream() override;
  // After the input failed (a truncated or damaged trace): writes every record received so
  // far as whole blocks, without the end-of-stream marker. The records held back for
  // block-sized writes would otherwise be lost with the input's tail, and the output still
  // reads as incomplete, as the input does.
  Status FlushIncomplete() { return Flush(); }

  uint64_t eventsWritten() const { return eventsWritten_; }

 private:
  struct PendingEvent {
    EventRecord header;
    size_t payloadStart;
  };
  Status Flush();
  Status Drain();
  uint64_t ThreadIndexFor(uint64_t v4ThreadId);
  uint32_t LabelFor(const EventRecord& e);
  uint32_t TrimmedSequence(uint64_t captureThread, uint32_t seq) const;
  uint32_t OutputMetadataId(uint32_t inputId);

  Output out_;
  Options options_;
  std::optional<uint64_t> fromTicks_, toTicks_;
  NetTraceV6Writer writer_;
  bool v6Input_ = false;
  bool numberEvents_ = false;
  std::unordered_map<uint64_t, uint32_t> eventsOfThread_;  // capture thread → events numbered
  uint32_t processId_ = 0;
  std::vector<EventMetadata> pendingMetadata_;
  std::unordered_map<uint32_t, uint32_t> metadataIds_;  // input id → output id of its current definition
  std::unordered_set<uint32_t> usedMetadataIds_;        // output ids defined since the last metadata flush
  uint32_t nextSpareMetadataId_ = 1;                    // where the search for a fresh id starts
  std::vector<ThreadInfo> pendingThreads_;
  std::vector<ThreadSequence> pendingRemoves_;
  uint32_t pendingStackFirst_ = 0;
  std::vector<std::vector<uint8_t>> pendingStacks_;
  std::vector<std::pair<uint32_t, LabelList>> pendingLabels_;
  std::vector<PendingEvent> pendingEvents_;
  std::vector<uint8_t> payloads_;
  std::unordered_map<uint64_t, uint64_t> threadIndex_;  // v4/v5 thread id → v6 index
  std::unordered_map<std::string, uint32_t> regionActivities_;  // v4/v5 activity pair → label id
  uint32_t nextLabelId_ = 1;
  std::unordered_map<uint64_t, uint32_t> trimmedBefore_;  // capture thread → events cut so far
  uint64_t eventsWritten_ = 0;
};

}  // namespace nettrace
