#include "analysis/runtime_signals.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "analysis/process_time_order.h"
#include "events/event_naming.h"
#include "events/trace_clock.h"
#include "format/payload/clr_payload_fields.h"
#include "format/payload_decoder.h"
#include "io/byte_cursor.h"

namespace nettrace {

namespace {
// GC/Start Reason (GCReasonMap): Induced and InducedNotForced count as induced, as in PerfView.
constexpr uint64_t kReasonInduced = 1, kReasonInducedNotForced = 7;
// GC/Start Type (GCTypeMap): BackgroundGC.
constexpr uint8_t kBackgroundGC = 1;
// MethodLoad(Verbose) MethodFlags (MethodFlagsMap): Jitted.
constexpr uint64_t kMethodFlagJitted = 0x8;


}  // namespace

// The resolver's kinds this summary reads (kNone: every other event).
RuntimeSignals::Kind RuntimeSignals::KindOf(EventKind resolved) {
  switch (resolved) {
    case EventKind::kGcStart: return Kind::kGcStart;
    case EventKind::kGcRestartEEStop: return Kind::kRestartEEStop;
    case EventKind::kGcSuspendEEStart: return Kind::kSuspendEEStart;
    case EventKind::kGcAllocationTick: return Kind::kAllocationTick;
    case EventKind::kExceptionThrown: return Kind::kException;
    case EventKind::kContentionStart: return Kind::kContention;
    case EventKind::kMethodLoad:
    case EventKind::kMethodLoadVerbose: return Kind::kMethodLoad;
    case EventKind::kMethodJittingStarted: return Kind::kJittingStarted;
    default: return Kind::kNone;
  }
}

RuntimeSignals::Named* RuntimeSignals::Add(std::unordered_map<std::string, Named>* map, uint64_t* otherCount,
                                           uint64_t* otherBytes, const std::string& name, uint64_t bytes) {
  auto it = map->find(name);
  if (it == map->end()) {
    if (map->size() >= kMaxTrackedNames) {
      ++*otherCount, *otherBytes += bytes;
      return nullptr;
    }
    it = map->emplace(name, Named{}).first;
  }
  ++it->second.count;
  it->second.bytes += bytes;
  return &it->second;
}

// An AllocationTick whose TypeName was read in place: counted under the name's UTF-8 form as
// Add counts it, through the memo of the spellings seen (allocationsByUtf16_).
void RuntimeSignals::AddAllocation(std::span<const uint8_t> typeNameUtf16, uint64_t bytes) {
  // Ticks come in runs of one type (a loop allocating char[]): the last name is compared
  // before the map is asked (hashing the name was most of a tick's cost).
  if (lastAllocation_.has_value() && typeNameUtf16.size() == utf16Key_.size() &&
      std::memcmp(typeNameUtf16.data(), utf16Key_.data(), utf16Key_.size()) == 0) {
    return CountAllocation(*lastAllocation_, bytes);
  }
  utf16Key_.assign(reinterpret_cast<const char*>(typeNameUtf16.data()), typeNameUtf16.size());
  if (const auto it = allocationsByUtf16_.find(utf16Key_); it != allocationsByUtf16_.end()) {
    lastAllocation_ = it->second;
    return CountAllocation(it->second, bytes);
  }
  lastAllocation_.reset();
  typeName_.clear();
  AppendUtf16AsUtf8(typeNameUtf16.data(), typeNameUtf16.size() / 2, &typeName_);
  Named* counted = Add(&allocations_, &otherAllocations_, &otherAllocationBytes_, typeName_, bytes);
  if (allocationsByUtf16_.size() < 2 * kMaxTrackedNames) {
    allocationsByUtf16_.emplace(utf16Key_, counted);
    lastAllocation_ = counted;
  }
}

void RuntimeSignals::CountAllocation(Named* counted, uint64_t bytes) {
  if (counted) {
    ++counted->count, counted->bytes += bytes;
  } else {
    ++otherAllocations_, otherAllocationBytes_ += bytes;
  }
}

void RuntimeSignals::OnTimeOrdered(const TimeOrderedEvent& x) {
  const Kind kind = KindOf(x.kind);
  if (kind == Kind::kNone) return;
  late_ |= x.late;
  const EventRecord& e = x.record;
  const uint64_t processId = x.processId;
  if (kind == Kind::kContention) {  // no payload needed
    ++contentions_;
    return;
  }
  if (kind == Kind::kJittingStarted) {
    ++jittingStarted_;
    return;
  }
  if (kind == Kind::kRestartEEStop) {  // no payload needed either; every GC has one
    // Only the restart of a thread that suspended for a GC ends a pause; the many other
    // suspensions (the sample profiler's, debugger's) are not kept.
    const auto it = gcSuspended_.find({processId, e.thread});
    if (it == gcSuspended_.end()) return;
    gcSuspended_.erase(it);
    gcSuspensionOpen_ = !gcSuspended_.empty();
    AddGcMark({e.timestamp, processId, e.thread, kind, 0, 0, 0, x.ordinal});
    return;
  }
  // Integers and the type name are read where the template puts them (clr_payload_fields):
  // a GC's SuspendEEStart and Start need one to three integers, and decoding every field of
  // each was a tenth of reading a sample-heavy trace.
  ClrPayloadFields p(*x.metadata, x.clrLayout, e.payload, info_.pointerSize ? info_.pointerSize : 8,
                     static_cast<int>(info_.formatMajor));
  switch (kind) {
    case Kind::kGcStart: {
      GcMark m{e.timestamp, processId, e.thread, kind, 0, 0, 0, x.ordinal};
      m.depth = static_cast<uint8_t>(std::min<uint64_t>(p.UInt(fields_.depth, 3), 3));
      m.type = static_cast<uint8_t>(std::min<uint64_t>(p.UInt(fields_.type), 255));
      m.reason = static_cast<uint8_t>(std::min<uint64_t>(p.UInt(fields_.gcReason), 255));
      ++gcs_, ++genCounts_[m.depth];
      if (m.reason == kReasonInduced || m.reason == kReasonInducedNotForced) ++induced_;
      if (m.type == kBackgroundGC) ++background_;
      AddGcMark(m);
      break;
    }
    case Kind::kSuspendEEStart: {
      const uint64_t reason = p.UInt(fields_.suspendReason);
      if (IsGcSuspendReason(reason)) {
        gcSuspended_[{processId, e.thread}] = true;
        gcSuspensionOpen_ = true;
        AddGcMark({e.timestamp, processId, e.thread, kind, 0, 0, 0, x.ordinal});
      }
      break;
    }
    case Kind::kAllocationTick: {
      ++allocationTicks_;
      const uint64_t bytes = static_cast<uint64_t>(ClampAllocationAmount(x.allocationTick, &seenBadTick_));
      std::span<const uint8_t> utf16;
      if (p.Utf16InPlace(fields_.typeName, &utf16)) {
        AddAllocation(utf16, bytes);
        break;
      }
      if (!p.Text("TypeName", &typeName_)) typeName_.clear();
      Add(&allocations_, &otherAllocations_, &otherAllocationBytes_, typeName_, bytes);
      break;
    }
    case Kind::kException: {
      ++exceptionCount_;
      const PayloadValue* type = p.Decoded().Find("ExceptionType");
      Add(&exceptions_, &otherExceptions_, &otherExceptionBytes_,
          type && type->kind() == PayloadValue::Kind::kString ? type->text() : std::string(), 0);
      break;
    }
    case Kind::kMethodLoad:
      if (p.UInt(fields_.methodFlags) & kMethodFlagJitted) ++jittedMethodLoads_;
      break;
    default: break;
  }
}

void RuntimeSignals::AddGcMark(const GcMark& m) {
  if (gcMarks_.size() < kMaxGcMarks) gcMarks_.push_back(m);
  else ++gcMarksDropped_;
}

void RuntimeSignals::WriteNamed(JsonWriter& w, const char* key, const std::unordered_map<std::string, Named>& map,
                                uint64_t otherCount, uint64_t otherBytes, bool withBytes) {
  std::vector<std::pair<const std::string*, Named>> sorted;
  sorted.reserve(map.size());
  for (const auto& [name, n] : map) sorted.emplace_back(&name, n);
  // Heaviest first (bytes for allocations, count for exceptions), ties by name: stable output.
  std::sort(sorted.begin(), sorted.end(), [&](const auto& a, const auto& b) {
    const uint64_t wa = withBytes ? a.second.bytes : a.second.count, wb = withBytes ? b.second.bytes : b.second.count;
    if (wa != wb) return wa > wb;
    if (a.second.count != b.second.count) return a.second.count > b.second.count;
    return *a.first < *b.first;
  });
  w.Key(key).BeginArray();
  for (size_t i = 0; i < sorted.size() && i < kTopNames; ++i) {
    w.BeginObject().Key("type").String(*sorted[i].first).Key("count").UInt(sorted[i].second.count);
    if (withBytes) w.Key("bytes").UInt(sorted[i].second.bytes);
    w.EndObject();
  }
  w.EndArray();
  for (size_t i = kTopNames; i < sorted.size(); ++i) otherCount += sorted[i].second.count, otherBytes += sorted[i].second.bytes;
  w.Key("otherCount").UInt(otherCount);
  if (withBytes) w.Key("otherBytes").UInt(otherBytes);
}

void RuntimeSignals::WriteJson(JsonWriter& w) const {
  const TraceClock clock(info_);
  auto ms = [&](uint64_t ticks) { return clock.Ms(ticks); };

  // GCs and pauses: marks in time order per process (file order breaks ties).
  const std::vector<uint32_t> marks = ProcessTimeOrder(gcMarks_, late_);
  struct Gen {
    uint64_t count = 0, paused = 0, totalTicks = 0, maxTicks = 0;
  };
  Gen gens[4];
  for (int g = 0; g < 4; ++g) gens[g].count = genCounts_[g];
  // A pause runs from a GC suspension to the RestartEEStop of the thread that suspended
  // (PerfView matches the thread too: the sample profiler's own suspensions interleave).
  bool open = false;
  uint64_t openAt = 0, openProcess = 0, openThread = 0;
  int attributed = -1;  // generation of the GC/Start inside the open pause
  for (uint32_t i : marks) {
    const GcMark& m = gcMarks_[i];
    if (open && m.processId != openProcess) open = false;  // a pause never spans processes
    switch (m.kind) {
      case Kind::kSuspendEEStart:
        open = true, openAt = m.timestamp, openProcess = m.processId, openThread = m.thread, attributed = -1;
        break;
      case Kind::kGcStart:
        if (open && attributed < 0) attributed = m.depth;  // the first GC inside the pause owns it
        break;
      case Kind::kRestartEEStop:
        if (!open || m.thread != openThread) break;
        if (attributed >= 0) {
          Gen& g = gens[attributed];
          const uint64_t d = m.timestamp - openAt;
          ++g.paused, g.totalTicks += d, g.maxTicks = std::max(g.maxTicks, d);
        }
        open = false;
        break;
      default: break;
    }
  }

  w.Key("runtime").BeginObject();
  w.Key("gc").BeginObject();
  w.Key("count").UInt(gcs_);
  w.Key("induced").UInt(induced_);
  w.Key("background").UInt(background_);
  // More GC events than kMaxGcMarks (a hostile or enormous file): the pauses are partial.
  if (gcMarksDropped_ > 0) w.Key("pauseEventsNotMeasured").UInt(gcMarksDropped_);
  w.Key("generations").BeginArray();
  for (int g = 0; g < 4; ++g) {
    if (g == 3 && gens[3].count == 0) break;  // Depth beyond 2 (or missing): only when seen
    const Gen& s = gens[g];
    w.BeginObject();
    if (g < 3) w.Key("generation").UInt(g);
    else w.Key("generation").Null();
    w.Key("count").UInt(s.count);
    w.Key("pauses").UInt(s.paused);
    w.Key("totalPauseMs").Fixed(ms(s.totalTicks), 6);
    w.Key("maxPauseMs").Fixed(ms(s.maxTicks), 6);
    w.Key("meanPauseMs").Fixed(s.paused ? ms(s.totalTicks) / static_cast<double>(s.paused) : 0.0, 6);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();

  w.Key("exceptions").BeginObject();
  w.Key("count").UInt(exceptionCount_);
  WriteNamed(w, "types", exceptions_, otherExceptions_, otherExceptionBytes_, false);
  w.EndObject();

  w.Key("allocations").BeginObject();
  w.Key("ticks").UInt(allocationTicks_);
  uint64_t bytes = otherAllocationBytes_;
  for (const auto& [name, n] : allocations_) bytes += n.bytes;
  w.Key("bytes").UInt(bytes);
  WriteNamed(w, "types", allocations_, otherAllocations_, otherAllocationBytes_, true);
  w.EndObject();

  // PerfView's JITStats counts a method per MethodJittingStarted when the trace has them
  // (verbose JIT keyword); without them, MethodLoad events flagged Jitted.
  w.Key("jit").BeginObject();
  w.Key("methods").UInt(jittingStarted_ ? jittingStarted_ : jittedMethodLoads_);
  w.Key("source");
  if (jittingStarted_) w.String("Method/JittingStarted");
  else if (jittedMethodLoads_) w.String("Method/Load");
  else w.Null();
  w.EndObject();
  w.Key("contentions").UInt(contentions_);
  w.EndObject();
}

}  // namespace nettrace
