#include "model/sorted_tap.h"

#include <algorithm>
#include <bit>

#include "resolve/type_resolver.h"

namespace nettrace {

SortedTap::SortedTap(std::vector<TimeOrderedSink*> sinks) : sinks_(std::move(sinks)) {
  for (TimeOrderedSink* s : sinks_) gates_.push_back(s->HeaderGate());
  for (size_t k = 0; k < wants_.size(); ++k) {
    const EventKind kind = static_cast<EventKind>(k);
    bool fromHeader = true;
    uint64_t rulesAsked = 0;  // bit r: a sink naming rule r is asked
    for (size_t i = 0; i < sinks_.size() && i < 64; ++i)
      if (sinks_[i]->Reads(kind)) {
        readers_[k] |= uint64_t{1} << i, wants_[k] = true;
        const TapFilterRule rule = sinks_[i]->FilterRule(kind);
        if (rule != TapFilterRule::kNone) {
          filters_[k] |= uint64_t{1} << i;
          const uint64_t ruleBit = uint64_t{1} << static_cast<unsigned>(rule);
          if (!(rulesAsked & ruleBit)) askers_[k] |= uint64_t{1} << i, rulesAsked |= ruleBit;
        }
        fromHeader = fromHeader && sinks_[i]->ReadsFromHeader(kind) && rule == TapFilterRule::kNone;
      }
    fromHeader_[k] = wants_[k] && fromHeader && kind != EventKind::kNone;
    for (uint64_t readers = readers_[k]; readers != 0; readers &= readers - 1)
      if (!gates_[static_cast<size_t>(std::countr_zero(readers))]) ungatedReaders_[k] |= readers & -readers;
  }
}

bool SortedTap::KeptByFilters(const EventRecord& e, const ResolvedEvent& r, uint64_t filtering) {
  const uint64_t readers = readers_[static_cast<size_t>(r.kind)];
  if (readers & ~filtering) return true;  // a reader takes every event of the kind
  for (uint64_t bits = askers_[static_cast<size_t>(r.kind)]; bits != 0; bits &= bits - 1)
    if (sinks_[static_cast<size_t>(std::countr_zero(bits))]->Keeps(e, r)) return true;
  return false;
}

void SortedTap::OnTraceInfo(const TraceInfo& info) {
  v6_ = info.formatMajor >= 6;
  processId_ = info.processId;
  for (TimeOrderedSink* s : sinks_) s->OnTraceInfo(info);
}

void SortedTap::OnMetadataKind(EventKind kind) {
  for (TimeOrderedSink* s : sinks_) s->OnMetadataKind(kind);
}

void SortedTap::Hold(const EventRecord& e, const TypeResolver& resolver) {
  const ResolvedEvent& r = resolver.current();
  Held& h = held_.emplace_back();
  TimeOrderedEvent& x = h.event;
  x.record = e;
  x.record.payload = {};
  x.kind = r.kind;
  x.ordinal = r.ordinal;
  // The event's thread as the resolver knows it now: a later thread block may redefine a v6
  // index before the event is released.
  SetThread(r.threadKnown ? &resolver.threads()[r.thread] : nullptr, e.thread, &x);
  x.metadata = r.definition->metadata ? r.definition->metadata : &resolver.MetadataOf(e.metadataId);
  x.clrLayout = r.definition->clrLayout;
  if (r.kind == EventKind::kGcAllocationTick) x.allocationTick = r.allocationTick;
  // v6 activity ids live in the region's label lists, forgotten at its sequence point.
  if (r.kind == EventKind::kActivityStart || r.kind == EventKind::kActivityStop)
    resolver.ActivityIdsOf(e, &x.activity, &x.related);
  // Chained after its thread's last held event while the thread has one not yet sent (the
  // last is then still in held_: it is not before that one), else first of a new chain.
  h.thread = r.thread.value;
  const uint64_t number = firstHeld_ + (held_.size() - 1);
  if (h.thread >= threadFirst_.size()) {
    threadFirst_.resize(h.thread + size_t{1}, kNoHeld);
    threadLast_.resize(h.thread + size_t{1}, kNoHeld);
  }
  if (NextOfThread(h.thread) != nullptr) HeldNumber(threadLast_[h.thread])->nextOfThread = number;
  else threadFirst_[h.thread] = number;
  threadLast_[h.thread] = number;
  h.payloadAt = arena_.size();
  arena_.insert(arena_.end(), e.payload.begin(), e.payload.end());
  typeMarks_[r.type.value].held = 1;
  peakPending_ = std::max(peakPending_, ++pendingCount_);
  ++heldCount_;
  peakArena_ = std::max(peakArena_, arena_.size());
}

bool SortedTap::Dispatch(const SortItem& item, bool late) {
  // The item's event, if held, is among those not yet released: most often its thread's first
  // (threadFirst_), else found by ordinal (held events are in ordinal order).
  auto at = held_.begin() + static_cast<std::ptrdiff_t>(head_);
  bool byThread = false;
  if (const Held* first = item.thread < threadFirst_.size() ? NextOfThread(item.thread) : nullptr;
      first && first->event.ordinal == item.ordinal) {
    at = held_.begin() + (first - held_.data());
    threadFirst_[item.thread] = first->nextOfThread;
    byThread = true;
  } else if (at->event.ordinal != item.ordinal) {
    at = std::lower_bound(at, held_.end(), item.ordinal,
                          [](const Held& h, uint32_t ordinal) { return h.event.ordinal < ordinal; });
  }
  if (at == held_.end() || at->event.ordinal != item.ordinal || at->released) return false;
  ++(byThread ? foundByThread_ : foundBySearch_);
  TimeOrderedEvent& x = at->event;
  const size_t next = static_cast<size_t>(at - held_.begin()) + 1;
  const size_t end = next < held_.size() ? held_[next].payloadAt : arena_.size();
  x.record.payload = std::span<const uint8_t>(arena_.data() + at->payloadAt, end - at->payloadAt);
  x.late = late;
  Send(x);
  at->released = true;
  --pendingCount_;
  if (static_cast<size_t>(at - held_.begin()) != head_) return true;  // the head is still held
  while (++head_ < held_.size() && held_[head_].released) {
  }
  // Drops the released prefix: at once when everything is released (the usual case: events
  // are released in about the order they were held), else when it is most of the vectors.
  if (head_ == held_.size()) {
    firstHeld_ += held_.size();
    held_.clear(), arena_.clear(), head_ = 0;  // capacities are kept for the next events
  } else if (head_ >= 4096 && head_ * 2 >= held_.size()) {
    Compact();
  }
  return true;
}

// The event as Hold would have kept it, from what the sorted item and the thread table keep:
// a known thread's entry is never redefined in place (a v6 index's new definition is a new
// entry), so it still says what it said when the event was read.
// `open`: the readers that want it now (OpenReaders).
void SortedTap::Rebuild(const SortItem& item, bool late, uint64_t open, const TypeResolver& resolver) {
  const EventKind kind = static_cast<EventKind>(typeMarks_[item.type].headerKind);
  ++rebuiltCount_;
  TimeOrderedEvent& x = rebuilt_;
  const ThreadEntry& t = resolver.threads()[ThreadIndex(item.thread)];
  x.record.timestamp = item.timestamp;
  x.record.thread = t.key;
  x.kind = kind;
  x.ordinal = item.ordinal;
  SetThread(&t, t.key, &x);
  x.late = late;
  x.headerOnly = true;
  for (; open != 0; open &= open - 1) sinks_[static_cast<size_t>(std::countr_zero(open))]->OnTimeOrdered(x);
}

// The OS process and thread of an event on thread t (null: unknown) written as `thread`:
// v4/v5, the trace's process and the id as written; v6, what t's definition says.
void SortedTap::SetThread(const ThreadEntry* t, uint64_t thread, TimeOrderedEvent* x) const {
  x->processId = v6_ ? (t ? t->processId.value_or(0) : 0) : processId_;
  x->osThreadId = v6_ && t ? t->osThreadId.value_or(thread) : thread;
}

void SortedTap::Send(const TimeOrderedEvent& x) {
  for (uint64_t readers = readers_[static_cast<size_t>(x.kind)]; readers != 0; readers &= readers - 1)
    sinks_[static_cast<size_t>(std::countr_zero(readers))]->OnTimeOrdered(x);
}

// The first held event of `thread` not yet released (null: none), skipping those released
// out of their thread's order (found by the search).
SortedTap::Held* SortedTap::NextOfThread(uint16_t thread) {
  uint64_t n = threadFirst_[thread];
  Held* h = HeldNumber(n);
  while (h && h->released) h = HeldNumber(n = h->nextOfThread);
  threadFirst_[thread] = h ? n : kNoHeld;
  return h;
}

// Drops the released prefix held_[0, head_) and its payload bytes.
void SortedTap::Compact() {
  // Each chain's first moves past the events about to go (all sent): the chain after it
  // holds only later numbers, which stay.
  for (size_t t = 0; t < threadFirst_.size(); ++t) NextOfThread(static_cast<uint16_t>(t));
  const uint64_t base = held_[head_].payloadAt;
  arena_.erase(arena_.begin(), arena_.begin() + static_cast<std::ptrdiff_t>(base));
  held_.erase(held_.begin(), held_.begin() + static_cast<std::ptrdiff_t>(head_));
  firstHeld_ += head_;
  head_ = 0;
  for (Held& h : held_) h.payloadAt -= base;
}

}  // namespace nettrace
