#include "analysis/runtime_signals.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "format/payload/clr_payload_fields.h"
#include "format/payload_decoder.h"
#include "events/event_naming.h"
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
  const EventRecord& e = x.record;
  if (kind == Kind::kContention) {  // no payload needed
    ++contentions_;
    return;
  }
  if (kind == Kind::kJittingStarted) {
    ++jittingStarted_;
    return;
  }
  // Integers and the type name are read where the template puts them (clr_payload_fields):
  // a GC's SuspendEEStart and Start need one to three integers, and decoding every field of
  // each was a tenth of reading a sample-heavy trace.
  ClrPayloadFields p(*x.metadata, x.clrLayout, e.payload, info_.pointerSize ? info_.pointerSize : 8,
                     static_cast<int>(info_.formatMajor));
  switch (kind) {
    case Kind::kGcStart: {
      const uint64_t depth = std::min<uint64_t>(p.UInt(fields_.depth, 3), 3), reason = p.UInt(fields_.gcReason);
      ++gcs_, ++genCounts_[depth];
      if (reason == kReasonInduced || reason == kReasonInducedNotForced) ++induced_;
      if (p.UInt(fields_.type) == kBackgroundGC) ++background_;
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

void RuntimeSignals::WriteJson(JsonWriter& w, const GcStats* gc) const {
  // Pauses as TraceEvent's GCStats per generation: the complete GCs' TraceGC.PauseDurationMSec
  // (every process's; generations beyond 2 as "other").
  struct Gen {
    uint64_t paused = 0;
    double totalMs = 0, maxMs = 0;
  };
  Gen gens[4];
  if (gc) {
    for (const GcRecord& r : gc->Gcs()) {
      if (!r.isComplete) continue;
      Gen& g = gens[r.generation >= 0 && r.generation <= 2 ? r.generation : 3];
      ++g.paused, g.totalMs += r.pauseMs, g.maxMs = std::max(g.maxMs, r.pauseMs);
    }
  }
  w.Key("runtime").BeginObject();
  w.Key("gc").BeginObject();
  w.Key("count").UInt(gcs_);
  w.Key("induced").UInt(induced_);
  w.Key("background").UInt(background_);
  // More GC events than the statistics keep (a hostile or enormous file): pauses are partial.
  if (gc && gc->marksDropped() > 0) w.Key("pauseEventsNotMeasured").UInt(gc->marksDropped());
  w.Key("generations").BeginArray();
  for (int g = 0; g < 4; ++g) {
    if (g == 3 && genCounts_[3] == 0 && gens[3].paused == 0) break;  // Depth beyond 2: only when seen
    const Gen& s = gens[g];
    w.BeginObject();
    if (g < 3) w.Key("generation").UInt(g);
    else w.Key("generation").Null();
    w.Key("count").UInt(genCounts_[g]);
    w.Key("pauses").UInt(s.paused);
    w.Key("totalPauseMs").Fixed(s.totalMs, 6);
    w.Key("maxPauseMs").Fixed(s.maxMs, 6);
    w.Key("meanPauseMs").Fixed(s.paused ? s.totalMs / static_cast<double>(s.paused) : 0.0, 6);
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
