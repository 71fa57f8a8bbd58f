// core/model — the sorted tap: hands the CLR analyses (GC and JIT statistics, the runtime
// signals of the summary, the runtime views) their events in the sorter's (timestamp,
// ordinal) order, so that none of them keeps marks in file order and sorts them again.
//
//   StoreBuilder::OnEvent  — an event of a kind some analysis reads, and that one of them
//                            keeps (TimeOrderedSink::Keeps), is held here: its
//                            header, a copy of its payload, and what the resolver decided
//                            for it at that moment (kind, ordinal, process and OS thread,
//                            metadata, activity ids), since the resolver moves on.
//   StoreBuilder::OnSorted — after the store's Append, the held event of that ordinal (if
//                            any) goes to every sink that reads its kind, then is released.
//
// A kind that every sink reading it reads from the header alone (TimeOrderedSink::
// ReadsFromHeader: a suspension's stop, a restart) is not held when the resolver knows the
// event's thread: the sorted item has its time, ordinal, type and thread, and the thread table
// interns each definition of a thread once, so the event is rebuilt from the item when it
// passes. A sample-heavy trace's sampler stops and restarts the runtime for every sample: 2
// of its 5 events; not copying them saves 6 % of reading it. Nor is one rebuilt while no
// sink reading it has its gate open (TimeOrderedSink::HeaderGate: the GC statistics and the
// runtime signals open theirs while a thread's GC suspension is): the sampler's stops and
// restarts then reach no sink at all, another 5 %.
//
// Memory: only the held events still pending in the sorter (at most the sorter's own
// pending count, usually the writer's current batch) and their payload bytes, in two
// vectors whose storage is reused as events are released: no allocation per event. Each
// held event takes 224 bytes plus its payload (and each row thread that had one, 16 bytes
// for its chain); on the committed traces the session's tap
// peaks at 3,982 events and 302,902 payload bytes (objver4, sorter peak 6,089), 17 events
// on HeartRateMonitor (sorter peak 14,246): sorted_tap_test.cc prints and bounds them.
//
// `late` events (a writer whose IsSorted marks lie: sort/event_sorter.h) arrive after a
// later one was released. Each is passed with `late` set; a sink that depends on order notes
// it and, only then, sorts what it kept by (timestamp, ordinal) at the end, which gives
// exactly the time order the stream would have had.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "events/event_kind.h"
#include "format/records.h"
#include "resolve/type_resolver.h"
#include "sort/event_sorter.h"

namespace nettrace {

// One event, as a time-ordered analysis reads it.
struct TimeOrderedEvent {
  EventRecord record;         // as read; payload: the tap's copy, valid during the call only
  EventKind kind = EventKind::kNone;
  uint32_t ordinal = 0;       // file order (the resolver's)
  uint64_t processId = 0;     // OS process of the event's thread (v4/v5: the trace's; v6 unknown: 0)
  uint64_t osThreadId = 0;    // OS thread (v6: the thread index's definition when known, else the index)
  const EventMetadata* metadata = nullptr;  // its definition when read (kept alive by the resolver)
  const ClrFieldLayout* clrLayout = nullptr;  // the resolver's for that definition (ResolvedType)
  Guid activity, related;     // activity Start/Stop kinds only (v6: the region's label list)
  AllocationTickValue allocationTick;  // GC/AllocationTick only: the resolver's (ResolvedEvent)
  bool late = false;          // released after a later event (see above)
  // Rebuilt from the sorted item (a kind read from the header): record has only its timestamp
  // and thread; no payload, metadata or layout.
  bool headerOnly = false;
};

// A rule by which a sink reads only some events of a kind (TimeOrderedSink::FilterRule).
// Sinks that name the same rule keep the same events, so the tap asks one of them: the GC
// statistics and the runtime signals each read a suspension's Reason in place before.
enum class TapFilterRule : uint8_t {
  kNone,               // every event of the kind is read
  kGcSuspensionsOnly,  // analysis/gc_suspension.h: a SuspendEEStart for a GC
};

class TimeOrderedSink {
 public:
  virtual ~TimeOrderedSink() = default;
  virtual void OnTraceInfo(const TraceInfo& info) = 0;
  // A metadata definition, in file order, with the resolver's kind for it.
  virtual void OnMetadataKind(EventKind) {}
  // The kinds this sink reads: the tap holds only events some sink reads.
  virtual bool Reads(EventKind kind) const = 0;
  // Kinds of which the sink reads only some events, told apart by the event alone (Keeps,
  // asked before the tap holds one). A sample-heavy trace's suspensions are mostly the
  // sampler's: a GC statistic ignores them, and holding them cost ~5 % of its reading.
  virtual TapFilterRule FilterRule(EventKind) const { return TapFilterRule::kNone; }
  // For a kind with a FilterRule: whether this event (the resolver's current one, r) can change
  // what the sink computes. An event no reader keeps is not held; a sink must then compute
  // exactly what it would have with the event. Of the sinks naming one rule, only the first
  // is asked: they must answer alike.
  virtual bool Keeps(const EventRecord&, const ResolvedEvent&) { return true; }
  // Kinds this sink reads from the header alone: kind, ordinal, late, processId, osThreadId,
  // record.timestamp and record.thread. Their events may come rebuilt (headerOnly).
  virtual bool ReadsFromHeader(EventKind) const { return false; }
  // For the kinds read from the header: a flag the sink keeps true while such an event, on
  // any thread, can change what it computes (a GC statistic: while some thread's GC
  // suspension is open). While it is false the tap neither rebuilds nor sends it one, so the
  // sink must then compute exactly what it would have with the event. nullptr (the default):
  // always. A sample-heavy trace's stops and restarts are the sampler's: building and
  // dispatching each cost ~140 instructions for nothing.
  virtual const bool* HeaderGate() const { return nullptr; }
  virtual void OnTimeOrdered(const TimeOrderedEvent& e) = 0;
};

class SortedTap {
 public:
  explicit SortedTap(std::vector<TimeOrderedSink*> sinks);

  void OnTraceInfo(const TraceInfo& info);
  void OnMetadataKind(EventKind kind);
  bool Wants(EventKind kind) const { return wants_[static_cast<size_t>(kind)]; }
  // Whether e (of a wanted kind; r: the resolver's current event) needs no copy: every reader
  // of its kind reads it from the header, and its thread is in the resolver's table. The
  // type is noted, so that its sorted items are rebuilt.
  bool RebuildsFromItem(const ResolvedEvent& r) {
    if (!fromHeader_[static_cast<size_t>(r.kind)] || !r.threadKnown) return false;
    typeMarks_[r.type.value].headerKind = static_cast<uint8_t>(r.kind);
    return true;
  }
  // Whether some reader keeps e (of a wanted kind; r: the resolver's current event).
  bool Keeps(const EventRecord& e, const ResolvedEvent& r) {
    const uint64_t filtering = filters_[static_cast<size_t>(r.kind)];
    return filtering == 0 || KeptByFilters(e, r, filtering);
  }
  // Holds e (the resolver's current event; its kind is wanted).
  void Hold(const EventRecord& e, const TypeResolver& resolver);
  // The sorted item has passed the store: its held event (if any), or the event rebuilt
  // from it (RebuildsFromItem), goes to the sinks.
  void OnSorted(const SortItem& item, bool late, const TypeResolver& resolver) {
    const TypeMarks marks = typeMarks_[item.type];
    if (pendingCount_ != 0 && marks.held && Dispatch(item, late)) return;  // none pending: none to send
    const uint8_t header = marks.headerKind;
    if (header == 0) return;  // the common case: neither
    if (const uint64_t open = OpenReaders(header)) Rebuild(item, late, open, resolver);
    else ++gatedCount_;
  }

  size_t pending() const { return pendingCount_; }
  uint64_t heldCount() const { return heldCount_; }  // events held so far
  uint64_t rebuiltCount() const { return rebuiltCount_; }  // events rebuilt and sent so far
  uint64_t gatedCount() const { return gatedCount_; }      // read from the header by no open gate
  size_t peakPending() const { return peakPending_; }
  // Held events sent so far, found as their thread's first held one, and by the search.
  uint64_t foundByThread() const { return foundByThread_; }
  uint64_t foundBySearch() const { return foundBySearch_; }
  size_t peakArenaBytes() const { return peakArena_; }

 private:
  struct Held {
    TimeOrderedEvent event;  // record.payload set at dispatch
    uint64_t payloadAt = 0;  // offset into arena_ (minus arenaBase_)
    uint64_t nextOfThread = kNoHeld;  // the next held event of its row thread (a number, below)
    uint16_t thread = 0;              // its row thread (SortItem::thread)
    bool released = false;
  };
  static constexpr uint64_t kNoHeld = UINT64_MAX;
  // Held events are numbered in the order held: held_[i] is number firstHeld_ + i.
  Held* HeldNumber(uint64_t n) {
    return n - firstHeld_ < held_.size() ? &held_[static_cast<size_t>(n - firstHeld_)] : nullptr;
  }
  Held* NextOfThread(uint16_t thread);
  bool Dispatch(const SortItem& item, bool late);  // false: the item's event is not held
  // The readers of a kind read from the header that want its events now: those without a
  // gate, and those whose gate is open (0: none does). Inline: the sampler's stops and
  // restarts stop here.
  uint64_t OpenReaders(uint8_t kind) const {
    uint64_t open = ungatedReaders_[kind];
    for (uint64_t gated = readers_[kind] & ~open; gated != 0; gated &= gated - 1) {
      const size_t i = static_cast<size_t>(std::countr_zero(gated));
      if (*gates_[i]) open |= uint64_t{1} << i;
    }
    return open;
  }
  void Rebuild(const SortItem& item, bool late, uint64_t open, const TypeResolver& resolver);
  void Send(const TimeOrderedEvent& x);
  void SetThread(const ThreadEntry* t, uint64_t thread, TimeOrderedEvent* x) const;
  bool KeptByFilters(const EventRecord& e, const ResolvedEvent& r, uint64_t filtering);
  void Compact();

  std::vector<TimeOrderedSink*> sinks_;
  std::array<bool, static_cast<size_t>(EventKind::kCount)> wants_{};
  std::array<uint64_t, static_cast<size_t>(EventKind::kCount)> readers_{};  // bit i: sinks_[i] reads it
  std::array<uint64_t, static_cast<size_t>(EventKind::kCount)> filters_{};  // bit i: sinks_[i] filters it
  // The filtering readers asked: the first of those naming each rule.
  std::array<uint64_t, static_cast<size_t>(EventKind::kCount)> askers_{};
  std::array<bool, static_cast<size_t>(EventKind::kCount)> fromHeader_{};  // every reader reads it from the header
  bool v6_ = false;
  uint64_t processId_ = 0;
  // Held events in ordinal (file) order; those before head_ are released.
  std::vector<Held> held_;
  size_t head_ = 0;
  uint64_t firstHeld_ = 0;  // held_[0]'s number
  // Per row thread, the chain of its held events (numbers, linked by Held::nextOfThread):
  // threadFirst_ is its first (kNoHeld or a number no longer in held_: none), which may have
  // been sent by the search (NextOfThread skips those), threadLast_ its last, sent or not.
  // The sorter releases one thread's events in the order it holds them (a thread writes its
  // own GC and allocation events), so the item's event is most often its thread's first: a
  // binary search over every held event cost ~100 instructions an event of an
  // allocation-heavy trace (objver4).
  std::vector<uint64_t> threadFirst_, threadLast_;
  std::vector<uint8_t> arena_;  // payload bytes of held_[head_..], in the same order
  // By type id (every uint16_t), from calloc: the pages the types of a trace touch are all
  // that is written. Two std::vector tables of 64 Ki types were zeroed and paged in whole, an
  // eighth of reading a trace of 2,000 events; a table grown to the types marked cost a
  // bounds check on every sorted event instead (9 instructions an event of a sample-heavy
  // trace).
  struct TypeMarks {
    uint8_t held;        // some held event had it: a sorted item of any other type needs no search
    uint8_t headerKind;  // its events are rebuilt from the sorted item: their kind (0: not)
  };
  struct Free {
    void operator()(TypeMarks* p) const { std::free(p); }
  };
  std::unique_ptr<TypeMarks[], Free> typeMarks_{
      static_cast<TypeMarks*>(std::calloc(size_t{1} << 16, sizeof(TypeMarks)))};
  TimeOrderedEvent rebuilt_;
  size_t pendingCount_ = 0, peakPending_ = 0, peakArena_ = 0;
  uint64_t heldCount_ = 0;
  uint64_t rebuiltCount_ = 0, gatedCount_ = 0;
  uint64_t foundByThread_ = 0, foundBySearch_ = 0;
  std::vector<const bool*> gates_;  // per sink: HeaderGate()
  std::array<uint64_t, static_cast<size_t>(EventKind::kCount)> ungatedReaders_{};  // bit i: sinks_[i] reads it, no gate
};

}  // namespace nettrace
