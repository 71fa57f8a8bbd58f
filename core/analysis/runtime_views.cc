#include "analysis/runtime_views.h"

#include <algorithm>

#include "analysis/call_tree.h"
#include "format/payload_decoder.h"
#include "io/byte_cursor.h"
#include "model/event_naming.h"
#include "model/store_builder.h"

namespace nettrace {

namespace {
constexpr const char* kMetricsProvider = "System.Diagnostics.Metrics";

std::string TextField(const DecodedPayload& p, const char* name) {
  const PayloadValue* v = p.Find(name);
  return v && v->kind() == PayloadValue::Kind::kString ? v->text() : std::string();
}
uint64_t UIntField(const DecodedPayload& p, const char* name, uint64_t fallback) {
  const PayloadValue* v = p.Find(name);
  return v && v->isInteger() ? v->asUInt() : fallback;
}
bool EndsWith(const std::string& s, const char* suffix) {
  const size_t n = std::char_traits<char>::length(suffix);
  return s.size() > n && s.compare(s.size() - n, n, suffix) == 0;
}
}  // namespace

Status RuntimeViews::OnTraceInfo(const TraceInfo& info) {
  info_ = info;
  v6_ = info.formatMajor >= 6;
  contention_.OnTraceInfo(info.tickFrequency, info.syncTimeTicks);
  activities_.OnTraceInfo(info.tickFrequency, info.syncTimeTicks);
  counters_.OnTraceInfo(info.tickFrequency, info.syncTimeTicks);
  threadPool_.OnTraceInfo(info.tickFrequency, info.syncTimeTicks);
  return Status::Ok();
}

Status RuntimeViews::OnMetadata(const EventMetadata& m) {
  Kind kind = Kind::kNone;
  const EventKind resolved = types_->KindOf(m.id);
  const KnownProvider provider = ClassifyProvider(m.providerName);
  if (provider == KnownProvider::kClrRuntime) {
    switch (resolved) {
      case EventKind::kExceptionThrown: kind = Kind::kExceptionThrown; break;
      case EventKind::kExceptionCatchStart: kind = Kind::kExceptionCatch, exceptions_.SawCatchEvents(); break;
      case EventKind::kExceptionStop: kind = Kind::kExceptionStop; break;
      case EventKind::kContentionStart: kind = Kind::kContentionStart; break;
      case EventKind::kContentionStop: kind = Kind::kContentionStop; break;
      case EventKind::kWaitHandleWaitStart: kind = Kind::kWaitStart; break;
      case EventKind::kWaitHandleWaitStop: kind = Kind::kWaitStop; break;
      default:
        if (IsThreadPoolKind(resolved)) kind = Kind::kThreadPool;
        break;
    }
  } else if (m.eventName == "EventCounters") {
    kind = Kind::kEventCounters;
  } else if (m.providerName == kMetricsProvider) {
    if (EndsWith(m.eventName, "ValuePublished")) kind = Kind::kMetric;
  } else if (provider == KnownProvider::kOther) {
    // v4 metadata has no opcode: EventSource's "XxxStart"/"XxxStop" names say it.
    const uint8_t opcode = m.opcode.value_or(EndsWith(m.eventName, "Start") ? 1 : EndsWith(m.eventName, "Stop") ? 2 : 0);
    if (opcode == 1) kind = Kind::kActivityStart;
    if (opcode == 2) kind = Kind::kActivityStop;
  }
  if (kind == Kind::kNone) {
    kinds_.erase(m.id);
    return Status::Ok();
  }
  kinds_[m.id] = kind;
  return Status::Ok();
}

Status RuntimeViews::OnLabelList(uint32_t id, const LabelList& list) {
  std::pair<Guid, Guid> ids;
  bool any = false;
  for (const Label& l : list.labels) {
    if (l.kind == LabelKind::kActivityId) ids.first = l.guid, any = true;
    if (l.kind == LabelKind::kRelatedActivityId) ids.second = l.guid, any = true;
  }
  if (any) regionActivities_[id] = ids;
  return Status::Ok();
}

Status RuntimeViews::OnSequencePoint(const SequencePoint&) {
  regionActivities_.clear();  // label list ids restart after a sequence point
  return Status::Ok();
}

// v6 events name a thread index: the OS thread id is its current definition's (the resolver's).
uint64_t RuntimeViews::OsThread(const EventRecord& e) const {
  if (!v6_) return e.thread;
  const ResolvedEvent& r = types_->current();
  if (!r.threadKnown) return e.thread;
  return types_->threads()[r.thread].osThreadId.value_or(e.thread);
}

void RuntimeViews::ActivityIds(const EventRecord& e, Guid* activity, Guid* related) const {
  if (!v6_) {
    *activity = e.activityId, *related = e.relatedActivityId;
    return;
  }
  auto it = regionActivities_.find(e.labelListId);
  if (e.labelListId != 0 && it != regionActivities_.end()) *activity = it->second.first, *related = it->second.second;
}

Status RuntimeViews::OnEvent(const EventRecord& e) {
  const uint32_t ordinal = types_->current().ordinal;
  auto it = kinds_.find(e.metadataId);
  if (it == kinds_.end()) return Status::Ok();
  const Kind kind = it->second;
  const EventMetadata& m = types_->MetadataOf(e.metadataId);
  const uint64_t thread = OsThread(e);
  const uint32_t pointerSize = info_.pointerSize ? info_.pointerSize : 8;
  auto decode = [&] { return DecodePayload(m, e.payload, pointerSize, static_cast<int>(info_.formatMajor)); };
  switch (kind) {
    case Kind::kExceptionThrown: {
      const DecodedPayload p = decode();
      exceptions_.OnThrow(ordinal, thread, TextField(p, "ExceptionType"), TextField(p, "ExceptionMessage"));
      break;
    }
    case Kind::kExceptionCatch: exceptions_.OnCatch(thread, TextField(decode(), "MethodName")); break;
    case Kind::kExceptionStop: exceptions_.OnStop(thread); break;
    case Kind::kContentionStart: {
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
    case Kind::kContentionStop: {
      const DecodedPayload p = decode();
      const PayloadValue* d = p.Find("DurationNs");
      contention_.OnStop(ContentionView::Source::kLock, thread, e.timestamp,
                         d && d->isNumber() ? std::optional<double>(d->asDouble()) : std::nullopt);
      break;
    }
    case Kind::kWaitStart: {
      // WaitHandleWaitStart (ClrEtwAll.man, .NET 9): UInt8 WaitSource, Pointer
      // AssociatedObjectID, UInt16 ClrInstanceID.
      ContentionView::Start s;
      s.ordinal = ordinal, s.timestamp = e.timestamp;
      ByteCursor c(e.payload, e.payloadOffset);
      uint8_t source = 0;
      if (c.ReadU8(&source)) s.detail = source;
      if (pointerSize == 8) {
        uint64_t v;
        if (c.ReadU64(&v)) s.objectId = v;
      } else {
        uint32_t v;
        if (c.ReadU32(&v)) s.objectId = v;
      }
      contention_.OnStart(ContentionView::Source::kWaitHandle, thread, s);
      break;
    }
    case Kind::kWaitStop: contention_.OnStop(ContentionView::Source::kWaitHandle, thread, e.timestamp, std::nullopt); break;
    case Kind::kActivityStart:
    case Kind::kActivityStop: {
      Guid activity, related;
      ActivityIds(e, &activity, &related);
      std::string name = m.eventName.empty() ? EventDisplayName(m) : m.eventName;
      for (const char* suffix : {"/Start", "/Stop", "Start", "Stop"})
        if (EndsWith(name, suffix)) {
          name.resize(name.size() - std::char_traits<char>::length(suffix));
          break;
        }
      activities_.OnMark(kind == Kind::kActivityStart, ordinal, e.timestamp, thread, activity, related, m.providerName, name);
      break;
    }
    case Kind::kEventCounters: counters_.OnEventCounters(e.timestamp, m.providerName, decode()); break;
    case Kind::kMetric: counters_.OnMetric(e.timestamp, m.eventName, decode()); break;
    case Kind::kThreadPool: threadPool_.OnEvent(m.eventId, e.timestamp, thread, decode()); break;
    case Kind::kNone: break;
  }
  return Status::Ok();
}

std::string RuntimeViews::Exceptions(const StoreBuilder& model, const SymbolCollector& symbols, ViewFormat f) const {
  return exceptions_.Write(model, symbols, f);
}
std::string RuntimeViews::Contention(const StoreBuilder& model, ViewFormat f) const { return contention_.Write(model, f); }
std::string RuntimeViews::Activities(ViewFormat f) const { return activities_.Write(f); }
std::string RuntimeViews::Counters(ViewFormat f) const { return counters_.Write(f); }
std::string RuntimeViews::ThreadPool(ViewFormat f) const { return threadPool_.Write(f); }

void RuntimeViews::Refine(const StoreBuilder& model, const StackQuery& query, StackSelection* sel) const {
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
