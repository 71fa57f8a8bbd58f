#include "diag/collect_request.h"

namespace nettrace::diag {
namespace {

int VersionNumber(EventPipeCommand c) {
  return static_cast<int>(c) - static_cast<int>(EventPipeCommand::kCollectTracing) + 1;
}

bool HasEventFilter(const CollectRequest& r) {
  for (const ProviderConfig& p : r.providers) {
    if (p.eventFilter.present) return true;
  }
  return false;
}

bool CustomRundown(const CollectRequest& r) {
  return r.rundownKeyword != 0 && r.rundownKeyword != kDefaultRundownKeyword;
}

void WriteProviders(const CollectRequest& r, bool withEventFilter, MessageWriter* w) {
  w->U32(static_cast<uint32_t>(r.providers.size()));
  for (const ProviderConfig& p : r.providers) {
    w->U64(p.keywords);
    w->U32(p.level);
    w->String(p.name);
    w->String(p.filterData);
    if (!withEventFilter) continue;
    w->Bool(p.eventFilter.present && p.eventFilter.enable);
    const uint32_t n = p.eventFilter.present ? static_cast<uint32_t>(p.eventFilter.ids.size()) : 0;
    w->U32(n);
    for (uint32_t i = 0; i < n; ++i) w->U32(p.eventFilter.ids[i]);
  }
}

}  // namespace

const char* EventPipeCommandName(EventPipeCommand command) {
  switch (command) {
    case EventPipeCommand::kStopTracing: return "StopTracing";
    case EventPipeCommand::kCollectTracing: return "CollectTracing";
    case EventPipeCommand::kCollectTracing2: return "CollectTracing2";
    case EventPipeCommand::kCollectTracing3: return "CollectTracing3";
    case EventPipeCommand::kCollectTracing4: return "CollectTracing4";
    case EventPipeCommand::kCollectTracing5: return "CollectTracing5";
    case EventPipeCommand::kCollectTracing6: return "CollectTracing6";
  }
  return "unknown EventPipe command";
}

EventPipeCommand MinimumCollectVersion(const CollectRequest& r) {
  if (r.bufferMode != 0) return EventPipeCommand::kCollectTracing6;
  if (HasEventFilter(r)) return EventPipeCommand::kCollectTracing5;
  if (CustomRundown(r)) return EventPipeCommand::kCollectTracing4;
  if (!r.requestStackwalk) return EventPipeCommand::kCollectTracing3;
  return EventPipeCommand::kCollectTracing2;
}

Status EncodeCollect(const CollectRequest& r, EventPipeCommand version, std::vector<uint8_t>* message) {
  const int v = VersionNumber(version);
  auto cannot = [&](const char* what) {
    return Status::Error(ErrorCode::kInvalidArgument, kNoOffset,
                         std::string(EventPipeCommandName(version)) + " cannot express " + what);
  };
  if (v < 1 || v > 6) return cannot("anything: not a CollectTracing command");
  if (r.providers.empty()) return Status::Error(ErrorCode::kInvalidArgument, kNoOffset, "a session needs at least one provider");
  if (v < 6 && r.bufferMode != 0) return cannot("block buffering");
  if (v < 5 && HasEventFilter(r)) return cannot("event-id filters");
  if (v < 4 && CustomRundown(r)) return cannot("a custom rundown keyword");
  if (v < 3 && !r.requestStackwalk) return cannot("a session without stackwalk");
  if (v < 2 && r.rundownKeyword == 0) return cannot("a session without rundown");

  MessageWriter w;
  if (v >= 5) w.U32(0);  // session type: streaming over this connection
  w.U32(r.circularBufferMB);
  w.U32(r.format);
  if (v >= 4) {
    w.U64(r.rundownKeyword);
  } else if (v >= 2) {
    w.Bool(r.rundownKeyword != 0);
  }
  if (v >= 3) w.Bool(r.requestStackwalk);
  WriteProviders(r, v >= 5, &w);
  if (v >= 6) w.U32(r.bufferMode);
  return BuildMessage(static_cast<uint8_t>(CommandSet::kEventPipe), static_cast<uint8_t>(version), w.bytes(), message);
}

bool FallbackCollect(EventPipeCommand failed, CollectRequest* r, EventPipeCommand* older, std::string* lost) {
  lost->clear();
  const int v = VersionNumber(failed) - 1;
  if (v < 1) return false;
  auto note = [&](const std::string& s) { *lost += (lost->empty() ? "" : "; ") + s; };
  if (v < 6 && r->bufferMode != 0) {
    r->bufferMode = 0;
    note("block buffering dropped (events may be dropped when the buffer fills)");
  }
  if (v < 5 && HasEventFilter(*r)) {
    for (ProviderConfig& p : r->providers) p.eventFilter = EventIdFilter{};
    note("event-id filters dropped (all of each provider's events are collected)");
  }
  if (v < 4 && CustomRundown(*r)) {
    r->rundownKeyword = r->dropRundownOnFallback ? 0 : kDefaultRundownKeyword;
    note(r->dropRundownOnFallback ? "custom rundown dropped (no rundown)" : "custom rundown replaced by the default rundown");
  }
  if (v < 3 && !r->requestStackwalk) {
    r->requestStackwalk = true;
    note("stacks cannot be turned off (events carry stacks)");
  }
  if (v < 2 && r->rundownKeyword == 0) {
    r->rundownKeyword = kDefaultRundownKeyword;
    note("rundown cannot be turned off");
  }
  *older = static_cast<EventPipeCommand>(static_cast<int>(EventPipeCommand::kCollectTracing) + v - 1);
  return true;
}

std::vector<uint8_t> EncodeStopTracing(uint64_t sessionId) {
  MessageWriter w;
  w.U64(sessionId);
  std::vector<uint8_t> m;
  (void)BuildMessage(static_cast<uint8_t>(CommandSet::kEventPipe), static_cast<uint8_t>(EventPipeCommand::kStopTracing),
                     w.bytes(), &m);  // 28 bytes: cannot exceed the limit
  return m;
}

std::vector<uint8_t> EncodeProcessCommand(ProcessCommand command) {
  std::vector<uint8_t> m;
  (void)BuildMessage(static_cast<uint8_t>(CommandSet::kProcess), static_cast<uint8_t>(command), {}, &m);
  return m;
}

}  // namespace nettrace::diag
