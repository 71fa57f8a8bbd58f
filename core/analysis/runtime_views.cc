#include "analysis/runtime_views.h"

#include <algorithm>

#include "analysis/call_tree.h"
#include "events/event_naming.h"
#include "events/start_stop.h"
#include "format/payload_decoder.h"
#include "model/trace_model.h"

namespace nettrace {

namespace {
std::string TextField(const DecodedPayload& p, const char* name) {
  const PayloadValue* v = p.Find(name);
  return v && v->kind() == PayloadValue::Kind::kString ? v->text() : std::string();
}
uint64_t UIntField(const DecodedPayload& p, const char* name, uint64_t fallback) {
  const PayloadValue* v = p.Find(name);
  return v && v->isInteger() ? v->asUInt() : fallback;
}
}  // namespace

// The kinds these views follow (the resolver decided each metadata's kind once).
bool RuntimeViews::Reads(EventKind k) const {
  switch (k) {
    case EventKind::kExceptionThrown: case EventKind::kExceptionCatchStart: case EventKind::kExceptionStop:
    case EventKind::kContentionStart: case EventKind::kContentionStop:
    case EventKind::kWaitHandleWaitStart: case EventKind::kWaitHandleWaitStop:
    case EventKind::kEventCounters: case EventKind::kMetricValuePublished:
      return true;
    default:
      return IsThreadPoolKind(k);
  }
}

void RuntimeViews::OnTraceInfo(const TraceInfo& info) {
  info_ = info;
  const TraceClock clock(info);
  contention_.OnTraceInfo(clock);
  counters_.OnTraceInfo(clock);
  threadPool_.OnTraceInfo(clock);
}

void RuntimeViews::OnMetadataKind(EventKind kind) {
  // ExceptionCatch/Start is defined: the trace can tell caught throws from uncaught ones.
  if (kind == EventKind::kExceptionCatchStart) exceptions_.SawCatchEvents();
}

void RuntimeViews::OnTimeOrdered(const TimeOrderedEvent& x) {
  const EventRecord& e = x.record;
  const uint32_t ordinal = x.ordinal;
  const EventKind kind = x.kind;
  if (!Reads(kind)) return;
  const EventMetadata& m = *x.metadata;
  const uint64_t thread = x.osThreadId;  // v6: the thread index's definition when the event was read
  if (x.late) counters_.OnLate(), threadPool_.OnLate();
  const uint32_t pointerSize = info_.pointerSize ? info_.pointerSize : 8;
  auto decode = [&] { return DecodePayload(m, e.payload, pointerSize, static_cast<int>(info_.formatMajor)); };
  switch (kind) {
    case EventKind::kExceptionThrown: {
      const DecodedPayload p = decode();
      exceptions_.OnThrow(ordinal, thread, TextField(p, "ExceptionType"), TextField(p, "ExceptionMessage"));
      break;
    }
    case EventKind::kExceptionCatchStart: exceptions_.OnCatch(thread, TextField(decode(), "MethodName")); break;
    case EventKind::kExceptionStop: exceptions_.OnStop(thread); break;
    case EventKind::kContentionStart: {
      const DecodedPayload p = decode();
      ContentionView::Start s;
      s.ordinal = ordinal, s.timestamp = e.timestamp;
      s.detail = static_cast<uint8_t>(UIntField(p, "ContentionFlags", 0));
      s.lockId = UIntField(p, "LockID", ContentionView::kUnknown);
      s.objectId = UIntField(p, "AssociatedObjectID", ContentionView::kUnknown);
      s.owner = UIntField(p, "LockOwnerThreadID", ContentionView::kUnknown);
      contention_.OnStart(ContentionView::Source::kLock, thread, s);
      break;
    }
    case EventKind::kContentionStop: {
      const DecodedPayload p = decode();
      const PayloadValue* d = p.Find("DurationNs");
      contention_.OnStop(ContentionView::Source::kLock, thread, e.timestamp,
                         d && d->isNumber() ? std::optional<double>(d->asDouble()) : std::nullopt);
      break;
    }
    case EventKind::kWaitHandleWaitStart: {
      const DecodedPayload p = decode();
      ContentionView::Start s;
      s.ordinal = ordinal, s.timestamp = e.timestamp;
      s.detail = static_cast<uint8_t>(UIntField(p, "WaitSource", 0));
      s.objectId = UIntField(p, "AssociatedObjectID", ContentionView::kUnknown);
      contention_.OnStart(ContentionView::Source::kWaitHandle, thread, s);
      break;
    }
    case EventKind::kWaitHandleWaitStop: contention_.OnStop(ContentionView::Source::kWaitHandle, thread, e.timestamp, std::nullopt); break;
    case EventKind::kEventCounters: counters_.OnEventCounters(e.timestamp, ordinal, m.providerName, decode()); break;
    case EventKind::kMetricValuePublished: counters_.OnMetric(e.timestamp, ordinal, m.eventName, decode()); break;
    default:
      if (IsThreadPoolKind(kind)) threadPool_.OnEvent(m.eventId, e.timestamp, ordinal, thread, decode());
      break;
  }
}

std::string RuntimeViews::Exceptions(const TraceModel& model, const SymbolCollector& symbols, ViewFormat f) const {
  return exceptions_.Write(model, symbols, f);
}
std::string RuntimeViews::Contention(const TraceModel& model, ViewFormat f) const { return contention_.Write(model, f); }
std::string RuntimeViews::Counters(ViewFormat f) const { return counters_.Write(f); }
std::string RuntimeViews::ThreadPool(ViewFormat f) const { return threadPool_.Write(f); }

void RuntimeViews::Refine(const TraceModel& model, const StackQuery& query, StackSelection* sel) const {
  const bool byType = !query.exceptionType.empty(), byWait = query.weight == WeightKind::kWaitTime;
  if (!byType && !byWait) return;
  const std::optional<uint32_t> type = byType ? exceptions_.TypeIndex(query.exceptionType) : std::nullopt;
  StackSelection out;
  out.unit = byWait ? WeightUnit::kNanoseconds : sel->unit;
  for (size_t i = 0; i < sel->size(); ++i) {
    const uint32_t ordinal = model.store().ordinal(sel->rows[i]);
    if (byType && (!type || exceptions_.TypeOfThrow(ordinal) != type)) continue;
    uint64_t weight = sel->weights[i];
    if (byWait) {
      const std::optional<uint64_t> ns = contention_.WaitNs(ordinal);
      if (!ns) continue;  // not the start of a paired wait
      weight = *ns;
    }
    out.rows.push_back(sel->rows[i]);
    out.threads.push_back(sel->threads[i]);
    out.callStacks.push_back(sel->callStacks[i]);
    out.weights.push_back(weight);
    out.totalWeight += weight;
  }
  *sel = std::move(out);
}

}  // namespace nettrace
