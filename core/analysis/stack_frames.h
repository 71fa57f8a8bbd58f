// core/analysis — named frames and prefix-linked call stacks over the whole trace.
// The store's stacks (model/trace_tables StackTable) are interned IP byte strings, leaf
// first as EventPipe writes them. Here each becomes a call stack in a Firefox-Profiler-style
// prefix table: stack = (parent stack, leaf frame), root first, so a call tree, an
// inverted tree and a flame graph are walks over small integer arrays. Frames are
// interned by display name, PerfView's way: "Module!Namespace.Type.Method" (no signature,
// so overloads share a frame); an unresolved address is "module!?" inside a known image (the
// runtime's or a Linux profiler's mapping), else "?!?", as TraceEvent names them.
// Invariants: call stack 0 is the empty stack; parent(s) < s (topological order).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/flat_u64_map.h"
#include "model/trace_model.h"
#include "symbols/symbol_collector.h"

namespace nettrace {

enum class FrameKind : uint8_t {
  kManaged,      // inside a method range the runtime announced
  kModule,       // inside a known image, outside every method: module+offset
  kUnresolved,   // hex address
  kSynthetic,    // Thread (id), UNMANAGED_CODE_TIME, ROOT
};

// PerfView's leaf frame for sample-profiler samples taken outside managed code.
inline constexpr const char* kExternalFrameName = "UNMANAGED_CODE_TIME";

// The sample profiler's CPU samples (Microsoft-DotNETCore-SampleProfiler event 0,
// Thread/Sample): the events whose samples taken outside managed code get that frame.
inline bool IsSampleProfilerSample(const EventType& type) {
  return type.kind == EventKind::kThreadSample;
}

class FrameTable {
 public:
  uint32_t Intern(const std::string& name, FrameKind kind);
  const std::string& name(uint32_t frame) const { return names_[frame]; }
  FrameKind kind(uint32_t frame) const { return kinds_[frame]; }
  size_t size() const { return names_.size(); }
  // A detail shown with the frame but not part of its identity (a JIT'd method's
  // optimization level): distinct details of one frame are kept, comma-separated.
  void AddDetail(uint32_t frame, const std::string& detail);
  const std::string& detail(uint32_t frame) const;

 private:
  std::vector<std::string> names_;
  std::vector<FrameKind> kinds_;
  std::unordered_map<uint32_t, std::string> details_;
  std::unordered_map<std::string, uint32_t> byName_;
};

class CallStackTable {
 public:
  CallStackTable() : parent_{0}, frame_{0} {}
  // The stack `parent` with `frame` called from its leaf.
  uint32_t Push(uint32_t parent, uint32_t frame);
  uint32_t parent(uint32_t s) const { return parent_[s]; }
  uint32_t frame(uint32_t s) const { return frame_[s]; }
  size_t size() const { return parent_.size(); }
  // Frames root first.
  std::vector<uint32_t> Frames(uint32_t s) const;

 private:
  std::vector<uint32_t> parent_;
  std::vector<uint32_t> frame_;
  FlatU64Map children_;  // (parent << 32 | frame) → stack
};

// "Module!Namespace.Method" for a method range, PerfView's form.
std::string MethodFrameName(const MethodRange& m, const MethodMap& methods, const ModuleMap& modules);

// Appends the instruction pointers of a store stack, leaf first (none for no stack).
void AppendStackAddresses(const TraceModel& model, StackIndex stack, std::vector<uint64_t>* out);

class StackResolver {
 public:
  StackResolver(const TraceModel& model, const SymbolCollector& symbols);

  // The call stack of a store stack for an event at `timestamp` (ticks).
  uint32_t Resolve(StackIndex stack, uint64_t timestamp);
  // The same for an event of process `pid` (its thread's OS process id): addresses
  // resolve within that process when the trace has Universal.System tables for it
  // (in-trace symbol, then managed method, then mapping+offset, then hex).
  uint32_t Resolve(StackIndex stack, uint64_t timestamp, std::optional<uint64_t> pid);
  // The frame of one address of a process at a time; *validFrom/*validUntil narrow to
  // the interval over which the answer holds.
  uint32_t FrameInProcess(uint64_t pid, uint64_t address, uint64_t timestamp, uint64_t* validFrom,
                          uint64_t* validUntil);
  // Instruction pointers of a store stack, leaf first.
  std::vector<uint64_t> Addresses(StackIndex stack) const;
  // The frame of one address at a time; *span (optional) narrows to the times over which the
  // answer holds.
  uint32_t FrameOf(uint64_t address, uint64_t timestamp, TimeSpan* span = nullptr);

  FrameTable& frames() { return frames_; }
  const FrameTable& frames() const { return frames_; }
  CallStackTable& stacks() { return stacks_; }
  const CallStackTable& stacks() const { return stacks_; }

 private:
  // byStoreStack_'s mark for a stack whose frames depend on the time (reused code
  // addresses): its answers are in byStackAtTime_.
  static constexpr uint32_t kTimeDependent = UINT32_MAX;
  // An address no symbol covers, named as TraceEvent names it: "module!?" inside a known
  // image (module = its name), else "?!?" (module empty).
  uint32_t UnresolvedFrame(const std::string& module);
  const TraceModel& model_;
  const SymbolCollector& symbols_;
  FrameTable frames_;
  CallStackTable stacks_;
  // Answers with the time interval they hold for.
  struct Cached {
    uint32_t value = 0;
    uint64_t validFrom = 0, validUntil = 0;
    bool Holds(uint64_t t) const { return validFrom <= t && t < validUntil; }
  };
  std::vector<uint32_t> byStoreStack_;  // StackIndex → call stack + 1 (0: not yet), or kTimeDependent
  std::unordered_map<uint32_t, Cached> byStackAtTime_;  // StackIndex → call stack, where time-dependent
  std::unordered_map<uint64_t, Cached> byAddress_;      // address → frame
  // Per-process caches (Universal traces).
  struct PairHash {
    size_t operator()(const std::pair<uint64_t, uint64_t>& k) const {
      return std::hash<uint64_t>()(k.first * 0x9E3779B97F4A7C15ull ^ k.second);
    }
  };
  std::unordered_map<std::pair<uint64_t, uint64_t>, Cached, PairHash> byProcessAddress_;
  std::unordered_map<std::pair<uint64_t, uint64_t>, Cached, PairHash> byProcessStack_;
};

}  // namespace nettrace
