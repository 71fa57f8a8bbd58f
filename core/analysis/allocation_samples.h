// core/analysis — allocations by type and by stack, from the runtime's AllocationSampled
// events (.NET 10, id 303: randomized, unbiased; analysis/allocation_estimate.h holds the
// statistics) or, in a trace without them, from GC/AllocationTick (one event per ~100 KB
// allocated, a fixed stride that is biased for periodic allocation patterns; weighed by
// TraceEvent's GetAllocAmount, format/payload/allocation_tick.h). Follows the sorted tap and
// keeps one record per event (24 bytes: ordinal, type, ObjectSize, SampledByteOffset), capped;
// the views are computed from them on demand:
//   - the weights alloc-bytes / alloc-objects: the selection of the allocation events, each
//     weighed by its upscaled bytes or objects, with a "Type <name>" frame (PerfView's name
//     for it) as the leaf of its stack, or as the root (StackQuery::typeAsRoot);
//   - `nettrace allocations` (analysis/allocation_view.h): types and functions with intervals.
// Weights are whole numbers: each event's upscaled amount is rounded with the fractions carried
// over per type (in time order), so a type's total is its exact estimate to ±0.5 whatever
// the object sizes (per-event rounding would make a 100 KB object's 1.6 objects 2).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/payload/clr_field_read.h"
#include "model/sorted_tap.h"

namespace nettrace {

class TraceModel;
class StackResolver;
class SymbolCollector;
struct StackQuery;
struct StackSelection;

class AllocationSamples final : public TimeOrderedSink {
 public:
  static constexpr size_t kMaxSamples = size_t{1} << 22;  // records kept (≈ 400 GB sampled); later ones are counted
  static constexpr size_t kMaxTypes = 100000;             // distinct type names; later ones are "(other types)"

  // Where the allocations come from: AllocationSampled whenever the trace has any.
  enum class Source : uint8_t { kNone, kSampled, kTicks };
  struct Sample {
    uint32_t ordinal = 0;  // file order: the store keeps it per row
    uint32_t type = 0;     // index into typeNames()
    uint64_t size = 0;     // ObjectSize; ticks: 0 (their amount is SymbolCollector::AllocationBytes)
    uint64_t offset = 0;   // SampledByteOffset
  };

  void OnTraceInfo(const TraceInfo& info) override;
  bool Reads(EventKind kind) const override;
  void OnTimeOrdered(const TimeOrderedEvent& e) override;

  Source source() const;
  // The kept records of the source, in time order, and the records beyond kMaxSamples.
  const std::vector<Sample>& samples() const;
  uint64_t notKept() const;
  const std::vector<std::string>& typeNames() const { return typeNames_; }
  // The kept record of the source's event with this file-order ordinal, or nullptr.
  const Sample* Find(uint32_t ordinal) const;

  // A query with the alloc-bytes / alloc-objects weight selects the source's events, whatever
  // its --event (AllocationSampled's in a trace that has both); other queries are kept.
  StackQuery Retarget(const StackQuery& query) const;
  // Re-weighs a selection of Retarget's query and adds the type frames (nothing for other
  // weights); events without a kept record leave it.
  void Refine(const TraceModel& model, const SymbolCollector& symbols, const StackQuery& query,
              StackResolver* resolver, StackSelection* sel) const;

 private:
  struct Kept {
    std::vector<Sample> samples;
    uint64_t notKept = 0;
    mutable std::vector<std::pair<uint32_t, uint32_t>> byOrdinal;  // (ordinal, index), built on first Find
  };
  uint32_t TypeIndex(const std::string& name);
  uint32_t TypeIndexUtf16(std::span<const uint8_t> units);
  const Kept& kept() const { return sampled_.samples.empty() && sampled_.notKept == 0 ? ticks_ : sampled_; }

  TraceInfo info_;
  Kept sampled_, ticks_;
  std::vector<std::string> typeNames_;
  std::unordered_map<std::string, uint32_t> typeIndex_;
  // The fields read per event, each placed once per layout (format/payload/clr_field_read.h).
  struct Fields {
    ClrIntegerField objectSize{"ObjectSize"}, sampledByteOffset{"SampledByteOffset"};
    ClrStringField typeName{"TypeName"};
  } fields_;
  std::string typeName_, utf16Key_;  // reused from event to event
  std::unordered_map<std::string, uint32_t> typeByUtf16_;  // UTF-16 bytes as read → type index
  std::optional<uint32_t> lastType_;  // the type of utf16Key_
};

}  // namespace nettrace
