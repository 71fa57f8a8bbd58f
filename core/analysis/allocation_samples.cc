#include "analysis/allocation_samples.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "analysis/allocation_estimate.h"
#include "analysis/call_tree.h"
#include "analysis/stack_frames.h"
#include "base/saturating.h"
#include "format/payload/clr_payload_fields.h"
#include "io/byte_cursor.h"
#include "symbols/symbol_collector.h"

namespace nettrace {

namespace {
// TraceEvent's names of the two events (the generated table's), and their provider.
constexpr const char* kSampledEvent = "AllocationSampling";
constexpr const char* kTickEvent = "GC/AllocationTick";
constexpr const char* kRuntimeProvider = "Microsoft-Windows-DotNETRuntime";

}  // namespace

void AllocationSamples::OnTraceInfo(const TraceInfo& info) { info_ = info; }

bool AllocationSamples::Reads(EventKind kind) const {
  return kind == EventKind::kAllocationSampled || kind == EventKind::kGcAllocationTick;
}

uint32_t AllocationSamples::TypeIndex(const std::string& name) {
  if (auto it = typeIndex_.find(name); it != typeIndex_.end()) return it->second;
  if (typeNames_.size() >= kMaxTypes) return TypeIndex("(other types)");
  typeNames_.push_back(name);
  return typeIndex_[name] = static_cast<uint32_t>(typeNames_.size() - 1);
}

// A type name read in place: its index through the memo of the UTF-16 spellings seen, the
// last one first (samples come in runs of one type). Converting and hashing every event's
// name, or decoding its payload, allocated once per event.
uint32_t AllocationSamples::TypeIndexUtf16(std::span<const uint8_t> units) {
  if (lastType_ && units.size() == utf16Key_.size() && std::memcmp(units.data(), utf16Key_.data(), units.size()) == 0)
    return *lastType_;
  utf16Key_.assign(reinterpret_cast<const char*>(units.data()), units.size());
  if (auto it = typeByUtf16_.find(utf16Key_); it != typeByUtf16_.end()) return *(lastType_ = it->second);
  typeName_.clear();
  AppendUtf16AsUtf8(units.data(), units.size() / 2, &typeName_);
  const uint32_t type = TypeIndex(typeName_.empty() ? "?" : typeName_);
  if (typeByUtf16_.size() < kMaxTypes) typeByUtf16_.emplace(utf16Key_, type);
  return *(lastType_ = type);
}

void AllocationSamples::OnTimeOrdered(const TimeOrderedEvent& x) {
  if (!Reads(x.kind) || x.headerOnly) return;
  const bool sampled = x.kind == EventKind::kAllocationSampled;
  Kept& kept = sampled ? sampled_ : ticks_;
  if (kept.samples.size() >= kMaxSamples) {
    ++kept.notKept;
    return;
  }
  ClrPayloadFields p(*x.metadata, x.clrLayout, x.record.payload, info_.pointerSize ? info_.pointerSize : 8,
                     static_cast<int>(info_.formatMajor));
  Sample s;
  s.ordinal = x.ordinal;
  std::span<const uint8_t> utf16;
  if (p.Utf16InPlace(fields_.typeName, &utf16)) {
    s.type = TypeIndexUtf16(utf16);
  } else {
    if (!p.Text("TypeName", &typeName_)) typeName_.clear();
    s.type = TypeIndex(typeName_.empty() ? "?" : typeName_);
  }
  if (sampled) {
    s.size = p.UInt(fields_.objectSize);
    // An offset at or past the object's end cannot come from the runtime's sampler: the
    // sample then stands for its whole object (u = size), never for negative bytes.
    s.offset = std::min(p.UInt(fields_.sampledByteOffset), s.size);
  }
  kept.samples.push_back(s);
}

AllocationSamples::Source AllocationSamples::source() const {
  if (!sampled_.samples.empty() || sampled_.notKept) return Source::kSampled;
  return ticks_.samples.empty() && !ticks_.notKept ? Source::kNone : Source::kTicks;
}

const std::vector<AllocationSamples::Sample>& AllocationSamples::samples() const { return kept().samples; }
uint64_t AllocationSamples::notKept() const { return kept().notKept; }

const AllocationSamples::Sample* AllocationSamples::Find(uint32_t ordinal) const {
  const Kept& k = kept();
  if (k.byOrdinal.size() != k.samples.size()) {
    k.byOrdinal.clear();
    for (uint32_t i = 0; i < k.samples.size(); ++i) k.byOrdinal.emplace_back(k.samples[i].ordinal, i);
    std::sort(k.byOrdinal.begin(), k.byOrdinal.end());
  }
  auto it = std::lower_bound(k.byOrdinal.begin(), k.byOrdinal.end(), std::make_pair(ordinal, uint32_t{0}));
  return it != k.byOrdinal.end() && it->first == ordinal ? &k.samples[it->second] : nullptr;
}

StackQuery AllocationSamples::Retarget(const StackQuery& query) const {
  StackQuery q = query;
  if (q.weight != WeightKind::kAllocBytes && q.weight != WeightKind::kAllocObjects) return q;
  q.event = source() == Source::kTicks ? kTickEvent : kSampledEvent;
  q.provider = kRuntimeProvider;
  return q;
}

void AllocationSamples::Refine(const TraceModel& model, const SymbolCollector& symbols, const StackQuery& q,
                               StackResolver* resolver, StackSelection* sel) const {
  const bool bytes = q.weight == WeightKind::kAllocBytes;
  if (!bytes && q.weight != WeightKind::kAllocObjects) return;
  const bool ticks = source() == Source::kTicks;
  sel->unit = bytes ? WeightUnit::kBytes : ticks ? WeightUnit::kSamples : WeightUnit::kObjects;
  std::vector<double> carried(typeNames_.size());       // per type: the exact amount so far
  std::vector<uint32_t> typeFrames(typeNames_.size());  // frame + 1; 0: not yet interned
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> typed;  // (call stack, type) → with the type frame
  size_t out = 0;
  sel->totalWeight = 0;
  for (size_t i = 0; i < sel->size(); ++i) {
    const uint32_t ordinal = model.store().ordinal(sel->rows[i]);
    const Sample* s = Find(ordinal);
    if (!s) continue;  // beyond kMaxSamples
    double amount = 1;  // a tick, counted
    if (!ticks) amount = bytes ? UpscaledBytes(s->size) : UpscaledObjects(s->size);
    else if (bytes) amount = static_cast<double>(symbols.AllocationBytes(ordinal).value_or(0));
    double& sum = carried[s->type];
    const uint64_t weight = static_cast<uint64_t>(std::llround(sum + amount) - std::llround(sum));
    sum += amount;
    uint32_t& frame = typeFrames[s->type];
    if (!frame) frame = resolver->frames().Intern("Type " + typeNames_[s->type], FrameKind::kSynthetic) + 1;
    auto [it, added] = typed.emplace(std::make_pair(sel->callStacks[i], s->type), 0);
    if (added) {
      if (!q.typeAsRoot) {
        it->second = resolver->stacks().Push(sel->callStacks[i], frame - 1);
      } else {
        uint32_t cs = resolver->stacks().Push(0, frame - 1);
        for (uint32_t f : resolver->stacks().Frames(sel->callStacks[i])) cs = resolver->stacks().Push(cs, f);
        it->second = cs;
      }
    }
    sel->rows[out] = sel->rows[i];
    sel->threads[out] = sel->threads[i];
    sel->callStacks[out] = it->second;
    sel->weights[out] = weight;
    sel->totalWeight = SatAdd(sel->totalWeight, weight);
    ++out;
  }
  sel->rows.resize(out), sel->threads.resize(out), sel->callStacks.resize(out), sel->weights.resize(out);
}

}  // namespace nettrace
