#include "analysis/summary/record_facts.h"

#include <algorithm>
#include <cmath>

#include "analysis/query/utc_time.h"

namespace nettrace {

Status RecordFacts::OnTraceInfo(const TraceInfo& info) {
  info_ = info;
  haveInfo_ = true;
  if (std::isnan(SyncUnixMs(info.syncTimeUtc))) ++stats_->syncTimeInvalid;
  return Status::Ok();
}

Status RecordFacts::OnBlock(const BlockInfo& block) {
  std::string name = block.kind == BlockKind::kUnknown ? "Unknown(" + std::to_string(block.rawKind) + ")"
                                                       : BlockKindName(block.kind);
  ++blocks_[name];
  return Status::Ok();
}

Status RecordFacts::OnRemoveThread(const ThreadSequence& r) {
  threadKeys_.insert(r.thread);
  // RemoveThread carries no time: the loss, if any, is known as of the latest event.
  drops_.OnLowerBound(r.thread, r.sequenceNumber, maxTimestamp_);
  drops_.Forget(r.thread);
  NoteDrops();
  return Status::Ok();
}

Status RecordFacts::OnSequencePoint(const SequencePoint& sp) {
  ++sequencePoints_;
  for (const ThreadSequence& ts : sp.threads) {
    threadKeys_.insert(ts.thread);
    drops_.OnLowerBound(ts.thread, ts.sequenceNumber, sp.timestamp);
  }
  // The thread flush happens after the checks (NetTraceFormat.md §SequencePointBlock).
  if (info_.formatMajor >= 6 && (sp.flags & kSequencePointFlushThreads)) drops_.ForgetAll();
  NoteDrops();
  return Status::Ok();
}

uint64_t RecordFacts::processors() const {
  return static_cast<uint64_t>(std::count(processorSeen_.begin(), processorSeen_.end(), uint8_t{1})) +
         otherProcessors_.size();
}

}  // namespace nettrace
