#include "convert/v6_converter.h"

#include <string>

#include "events/trace_clock.h"

namespace nettrace {

namespace {
// Flush pending events into blocks of about this size: big enough for good header
// compression, small enough that the converter's memory stays a few megabytes.
constexpr size_t kFlushPayloadBytes = 4 << 20;
constexpr size_t kFlushEvents = 1 << 16;
}  // namespace

Status V6Converter::Drain() {
  std::vector<uint8_t> bytes = writer_.TakeBytes();
  if (bytes.empty()) return Status::Ok();
  return out_(bytes);
}

Status V6Converter::OnTraceInfo(const TraceInfo& info) {
  v6Input_ = info.formatMajor >= 6;
  // NetPerf (format 3) numbers no events; v6 readers count a thread's events as lost when its
  // sequence numbers do not follow on, so the output numbers the events it keeps.
  numberEvents_ = info.formatMajor == 3;
  processId_ = info.processId;
  if (options_.fromMs) fromTicks_ = MsToTicks(info, *options_.fromMs);
  if (options_.toMs) toTicks_ = MsToTicks(info, *options_.toMs);
  NETTRACE_RETURN_IF_ERROR(writer_.WriteTraceBlock(info));
  return Drain();
}

// v4/v5 may define an id again (the reader lets the later definition win, and counts it);
// v6 forbids that without a sequence point that flushes metadata, and such a flush would
// also end the input's stack and label scopes. So a redefinition gets an id of its own, and
// events are renumbered onto whichever definition is current for their input id.
uint32_t V6Converter::OutputMetadataId(uint32_t inputId) {
  auto current = metadataIds_.find(inputId);
  if (current == metadataIds_.end() && !usedMetadataIds_.contains(inputId)) {
    usedMetadataIds_.insert(inputId);
    metadataIds_[inputId] = inputId;
    return inputId;
  }
  while (usedMetadataIds_.contains(nextSpareMetadataId_)) ++nextSpareMetadataId_;
  usedMetadataIds_.insert(nextSpareMetadataId_);
  metadataIds_[inputId] = nextSpareMetadataId_;
  return nextSpareMetadataId_;
}

Status V6Converter::OnMetadata(const EventMetadata& m) {
  EventMetadata copy = m;
  copy.id = OutputMetadataId(m.id);
  if (!v6Input_) {
    // v4/v5 always carry these three; keep them explicit in v6.
    copy.hasKeywords = copy.hasLevel = copy.hasVersion = true;
  }
  copy.fieldsFromV2Params = false;
  pendingMetadata_.push_back(std::move(copy));
  return Status::Ok();
}

Status V6Converter::OnStack(uint32_t id, std::span<const uint8_t> ips) {
  // v6 stack blocks number their stacks consecutively from a first id.
  if (!pendingStacks_.empty() && pendingStackFirst_ + pendingStacks_.size() != id) NETTRACE_RETURN_IF_ERROR(Flush());
  if (pendingStacks_.empty()) pendingStackFirst_ = id;
  pendingStacks_.emplace_back(ips.begin(), ips.end());
  return Status::Ok();
}

Status V6Converter::OnThread(const ThreadInfo& t) {
  pendingThreads_.push_back(t);
  return Status::Ok();
}

Status V6Converter::OnRemoveThread(const ThreadSequence& t) {
  NETTRACE_RETURN_IF_ERROR(Flush());  // events of the thread go before its removal
  ThreadSequence r = t;
  r.sequenceNumber = TrimmedSequence(t.thread, t.sequenceNumber);
  pendingRemoves_.push_back(r);
  return Flush();
}

Status V6Converter::OnLabelList(uint32_t id, const LabelList& list) {
  pendingLabels_.emplace_back(id, list);
  return Status::Ok();
}

uint64_t V6Converter::ThreadIndexFor(uint64_t threadId) {
  auto [it, inserted] = threadIndex_.try_emplace(threadId, threadIndex_.size() + 1);
  if (inserted) {
    ThreadInfo t;
    t.index = it->second;
    t.osThreadId = threadId;
    t.osProcessId = processId_;
    pendingThreads_.push_back(std::move(t));
  }
  return it->second;
}

uint32_t V6Converter::LabelFor(const EventRecord& e) {
  if (e.activityId.IsZero() && e.relatedActivityId.IsZero()) return 0;
  std::string key(reinterpret_cast<const char*>(e.activityId.bytes.data()), 16);
  key.append(reinterpret_cast<const char*>(e.relatedActivityId.bytes.data()), 16);
  auto [it, inserted] = regionActivities_.try_emplace(key, nextLabelId_);
  if (inserted) {
    LabelList list;
    if (!e.activityId.IsZero()) list.labels.push_back({LabelKind::kActivityId, e.activityId, 0, 0, {}, {}});
    if (!e.relatedActivityId.IsZero())
      list.labels.push_back({LabelKind::kRelatedActivityId, e.relatedActivityId, 0, 0, {}, {}});
    pendingLabels_.emplace_back(nextLabelId_++, std::move(list));
  }
  return it->second;
}

uint32_t V6Converter::TrimmedSequence(uint64_t captureThread, uint32_t seq) const {
  auto it = trimmedBefore_.find(captureThread);
  return it == trimmedBefore_.end() ? seq : seq - it->second;
}

Status V6Converter::OnEvent(const EventRecord& e) {
  if ((fromTicks_ && e.timestamp < *fromTicks_) || (toTicks_ && e.timestamp > *toTicks_)) {
    ++trimmedBefore_[e.captureThread];
    return Status::Ok();
  }
  PendingEvent p{e, payloads_.size()};
  if (auto id = metadataIds_.find(e.metadataId); id != metadataIds_.end()) p.header.metadataId = id->second;
  p.header.sequenceNumber =
      numberEvents_ ? ++eventsOfThread_[e.captureThread] : TrimmedSequence(e.captureThread, e.sequenceNumber);
  if (!v6Input_) {
    p.header.thread = ThreadIndexFor(e.thread);
    p.header.captureThread = ThreadIndexFor(e.captureThread);
    p.header.labelListId = LabelFor(e);
    p.header.activityId = {};
    p.header.relatedActivityId = {};
  }
  payloads_.insert(payloads_.end(), e.payload.begin(), e.payload.end());
  pendingEvents_.push_back(p);
  // By count too: events without payloads (a trace of empty events and no sequence point)
  // were all held until the end, ~270 bytes each.
  if (payloads_.size() >= kFlushPayloadBytes || pendingEvents_.size() >= kFlushEvents) return Flush();
  return Status::Ok();
}

// Writes everything pending in dependency order: what events refer to comes first.
Status V6Converter::Flush() {
  if (!pendingMetadata_.empty()) NETTRACE_RETURN_IF_ERROR(writer_.WriteMetadataBlock(pendingMetadata_));
  pendingMetadata_.clear();
  if (!pendingThreads_.empty()) NETTRACE_RETURN_IF_ERROR(writer_.WriteThreadBlock(pendingThreads_));
  pendingThreads_.clear();
  if (!pendingStacks_.empty()) NETTRACE_RETURN_IF_ERROR(writer_.WriteStackBlock(pendingStackFirst_, pendingStacks_));
  pendingStacks_.clear();
  // Label lists: consecutive ids per block.
  for (size_t i = 0; i < pendingLabels_.size();) {
    size_t j = i + 1;
    while (j < pendingLabels_.size() && pendingLabels_[j].first == pendingLabels_[j - 1].first + 1) ++j;
    std::vector<LabelList> lists;
    for (size_t k = i; k < j; ++k) lists.push_back(pendingLabels_[k].second);
    NETTRACE_RETURN_IF_ERROR(writer_.WriteLabelListBlock(pendingLabels_[i].first, lists));
    i = j;
  }
  pendingLabels_.clear();
  if (!pendingEvents_.empty()) {
    std::vector<EventRecord> events;
    events.reserve(pendingEvents_.size());
    for (size_t i = 0; i < pendingEvents_.size(); ++i) {
      EventRecord e = pendingEvents_[i].header;
      const size_t start = pendingEvents_[i].payloadStart;
      const size_t end = i + 1 < pendingEvents_.size() ? pendingEvents_[i + 1].payloadStart : payloads_.size();
      e.payload = std::span<const uint8_t>(payloads_.data() + start, end - start);
      events.push_back(e);
    }
    NETTRACE_RETURN_IF_ERROR(writer_.WriteEvents(events, true));
    eventsWritten_ += events.size();
  }
  pendingEvents_.clear();
  payloads_.clear();
  if (!pendingRemoves_.empty()) NETTRACE_RETURN_IF_ERROR(writer_.WriteRemoveThreadBlock(pendingRemoves_));
  pendingRemoves_.clear();
  return Drain();
}

Status V6Converter::OnSequencePoint(const SequencePoint& sp) {
  NETTRACE_RETURN_IF_ERROR(Flush());
  SequencePoint out = sp;
  for (ThreadSequence& t : out.threads) {
    t.sequenceNumber = TrimmedSequence(t.thread, t.sequenceNumber);
    if (!v6Input_) t.thread = ThreadIndexFor(t.thread);
  }
  NETTRACE_RETURN_IF_ERROR(Flush());  // thread rows the sequence point names
  NETTRACE_RETURN_IF_ERROR(writer_.WriteSequencePointBlock(out));
  if (sp.flags & kSequencePointFlushMetadata) {
    metadataIds_.clear();
    usedMetadataIds_.clear();
    nextSpareMetadataId_ = 1;
  }
  // Stack and label ids restart after a sequence point, in the input and in our output.
  regionActivities_.clear();
  nextLabelId_ = 1;
  return Drain();
}

Status V6Converter::OnEndOfStream() {
  NETTRACE_RETURN_IF_ERROR(Flush());
  NETTRACE_RETURN_IF_ERROR(writer_.WriteEndOfStream());
  return Drain();
}

}  // namespace nettrace
