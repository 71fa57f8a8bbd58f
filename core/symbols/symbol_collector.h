// core/symbols — a RecordSink that follows the stream (next to the summary and the store
// builder) and keeps what stacks and weights need from payloads, which the event store
// does not keep: managed method ranges and module names from the runtime's own events,
// the allocated bytes of GC/AllocationTick events and the kind of each sample-profiler
// sample (managed or external). Per-event facts are keyed by the event's file-order
// ordinal, the same number the store keeps per row (EventStore::ordinal), because records
// arrive here in file order and rows there in time order.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/chunked_vector.h"
#include "format/payload/allocation_tick.h"
#include "format/payload/clr_payload_fields.h"
#include "format/record_sink.h"
#include "resolve/type_resolver.h"
#include "symbols/method_fields.h"
#include "symbols/method_map.h"
#include "symbols/module_map.h"
#include "symbols/tpl_task_ids.h"
#include "symbols/universal_collector.h"

namespace nettrace {

class SymbolCollector final : public RecordSink {
 public:
  explicit SymbolCollector(const TypeResolver* types) : types_(types) {}
  Status OnTraceInfo(const TraceInfo& info) override;
  Status OnMetadata(const EventMetadata& m) override;
  // Inline: most events are of no kind read here and no TPL, Universal or start-info reader
  // is active, so they cost a test, not a call.
  Status OnEvent(const EventRecord& e) override {
    if (universal_.idle() && tpl_.idle() && startTypes_.empty() && !IsProcessInfo(e.metadataId)) {
      // Nothing but the kind's own role to read (no Linux tables, TPL or Start events): a
      // rundown's method records go straight to DecodeMethod, not through Collect's frame
      // (20 instructions a record, HeartRateMonitor, callgrind).
      const Role role = RoleByTable(types_->current().kind);
      if (role == Role::kNone) return Status::Ok();
      if (role == Role::kMethod) return OnMethod(e);
    }
    return Collect(e);
  }
  Status OnEndOfStream() override;
  // Ends the input (the end of the stream or a fault): the Linux-profiler tables are final.
  void Finish() { universal_.Finish(); }
  // Sorts the method ranges. Only stacks need them (a summary does not), so the session
  // calls this when stacks are first asked for, not at the end of reading (a summary never needs them).
  void FinishMethods() { methods_.Finish(); }

  // Method names kept in source, not copied while reading (symbols/method_names.h): for a
  // file that can be read again. Before the first event.
  void KeepNamesInSource(bool inSource) { methods_.names().KeepInSource(inSource); }
  MethodMap& methods() { return methods_; }
  const MethodMap& methods() const { return methods_; }
  const ModuleMap& modules() const { return modules_; }
  uint32_t pointerSize() const { return pointerSize_; }
  // Universal.System tables and Universal.Events values (Linux profilers).
  const UniversalCollector& universal() const { return universal_; }
  // Whether MethodLoad-style ranges describe this process's addresses: they come from
  // the runtime of the processes whose threads wrote method events; when no such
  // process is known (no thread rows with process ids), from every process.
  bool MethodsApplyTo(uint64_t pid) const {
    return runtimePids_.empty() || std::find(runtimePids_.begin(), runtimePids_.end(), pid) != runtimePids_.end();
  }

  // GC/AllocationTick: its bytes by format/payload/allocation_tick.h's rule (clamped after a
  // bad tick, in file order); nullopt for other events.
  std::optional<uint64_t> AllocationBytes(uint32_t ordinal) const;
  // The command line of a process (Microsoft-DotNETCore-EventPipe ProcessInfo, which the
  // runtime writes once per session: TraceEvent's TraceProcess.CommandLine); "" when the trace
  // has none. pid: the process's id; the trace's one process when the event named none.
  const std::string& CommandLine(std::optional<uint64_t> pid) const;
  // SampleProfiler Thread/Sample with type 1 ("external": not in managed code).
  bool IsExternalSample(uint32_t ordinal) const;
  // Runtime ThreadPool/Enqueue, /Dequeue (WorkID) and ThreadPool/IOEnqueue, /IODequeue,
  // /IOPack (NativeOverlapped): the work item's id; nullopt for other events.
  std::optional<uint64_t> ThreadPoolWorkId(uint32_t ordinal) const;
  // TPL task events (TaskScheduled … AwaitTaskContinuationScheduled): their task id.
  std::optional<TplTaskEvent> TplTask(uint32_t ordinal) const { return tpl_.Find(ordinal); }
  // Runtime events whose payload was too short for their template (not decoded).
  uint64_t malformedPayloads() const { return malformed_; }
  // What TraceEvent's StartStopActivityComputer adds to the name of the activity a Start event
  // begins (events/start_stop_rule.h): "/<field>=<value>" for an EventSource Start whose first
  // field is a string, the catching method for the runtime's ExceptionCatch/Start; nullptr for
  // others. Kept per Start event, as few as the activities (analysis/stacks/start_stop_activities.h),
  // for at most kMaxStartInfo events.
  static constexpr size_t kMaxStartInfo = size_t{1} << 21;
  const std::string* StartInfo(uint32_t ordinal) const;

 private:
  // What Collect reads of each kind: the one list behind both the inline filter and
  // Collect's switch, so that a kind added here is read and not filtered out.
  enum class Role : uint8_t { kNone, kMethod, kModule, kAllocation, kSample, kThreadPoolWork };
  static constexpr Role RoleOf(EventKind k) {
    switch (k) {
      case EventKind::kMethodLoad: case EventKind::kMethodLoadVerbose: case EventKind::kMethodUnload:
      case EventKind::kMethodUnloadVerbose: case EventKind::kRundownMethodDCStart: case EventKind::kRundownMethodDCEnd:
      case EventKind::kRundownMethodDCStartVerbose: case EventKind::kRundownMethodDCEndVerbose:
        return Role::kMethod;
      case EventKind::kModuleLoad: case EventKind::kDomainModuleLoad: case EventKind::kRundownModuleDCStart:
      case EventKind::kRundownModuleDCEnd: case EventKind::kRundownDomainModuleDCStart:
      case EventKind::kRundownDomainModuleDCEnd:
        return Role::kModule;
      case EventKind::kGcAllocationTick: return Role::kAllocation;
      case EventKind::kThreadSample: return Role::kSample;
      case EventKind::kThreadPoolEnqueue: case EventKind::kThreadPoolDequeue: case EventKind::kThreadPoolIoEnqueue:
      case EventKind::kThreadPoolIoDequeue: case EventKind::kThreadPoolIoPack:
        return Role::kThreadPoolWork;
      default:
        return Role::kNone;
    }
  }
  // RoleOf by table: asked for every event (OnEvent's filter, then Collect's switch for what
  // the filter passes on), the switch cost 10 instructions an event (HeartRateMonitor, callgrind).
  static Role RoleByTable(EventKind k) {
    static constexpr std::array<Role, static_cast<size_t>(EventKind::kCount)> kRoles = [] {
      std::array<Role, static_cast<size_t>(EventKind::kCount)> roles{};
      for (size_t i = 0; i < roles.size(); ++i) roles[i] = RoleOf(static_cast<EventKind>(i));
      return roles;
    }();
    return kRoles[static_cast<size_t>(k)];
  }
  Status Collect(const EventRecord& e);
  bool DecodeMethod(const EventRecord& e, const ResolvedType& t);
  bool DecodeModule(const EventRecord& e, const ResolvedType& t);
  bool AddAllocation(uint32_t ordinal);
  // The event's fields by the manifest's template, as TraceEvent's typed parsers read them
  // (layout: t.clrTemplate).
  ClrPayloadFields TemplateFields(const EventRecord& e, const ResolvedType& t) const {
    return Fields(e, t, t.clrTemplate);
  }
  ClrPayloadFields Fields(const EventRecord& e, const ResolvedType& t, const ClrFieldLayout* layout) const;
  void DecodeStartInfo(const EventRecord& e, uint32_t ordinal);

  // The OS process of the current event's thread, where its v6 thread row named one.
  std::optional<uint64_t> ProcessOfCurrent() const {
    const ResolvedEvent& r = types_->current();
    if (formatMajor_ < 6 || !r.threadKnown) return std::nullopt;
    return types_->threads()[r.thread].processId;
  }
  // A method's load, unload or rundown: its range, and (v6) its thread's process as one
  // whose runtime the method ranges describe. Inline: a rundown has one per method.
  Status OnMethod(const EventRecord& e) {
    if (!DecodeMethod(e, *types_->current().definition)) ++malformed_;
    if (formatMajor_ >= 6) NoteRuntimeProcess();
    return Status::Ok();
  }
  void NoteRuntimeProcess();
  uint32_t pointerSize_ = 8;
  // The integer fields read per event, each placed once per layout (clr_field_read.h).
  struct Fields {
    ClrIntegerField sampleType{"Type"}, workId{"WorkID"}, nativeOverlapped{"NativeOverlapped"}, moduleId{"ModuleID"};
  } fields_;
  bool seenBadTick_ = false;  // allocation_tick.h: this reader's flag (ticks in file order)
  std::string ilPath_, nativePath_;  // a module's paths (capacity reused)
  int formatMajor_ = 0;
  const TypeResolver* types_;  // what each metadata id is (the resolver stage before this one)
  MethodMap methods_;
  // DecodeMethod's plan and the resolver's layout it is for.
  MethodFieldPlan plan_;
  const ClrFieldLayout* planOf_ = nullptr;
  ModuleMap modules_;
  // Per event of a kind, in chunks (base/chunked_vector.h): an allocation-heavy trace has a
  // tick every ~100 KB allocated, and doubling a vector copied them into fresh pages at each
  // step. Ascending by ordinal (file order), as they come.
  struct OrdinalValue {
    uint32_t ordinal;
    uint64_t value;
  };
  ChunkedVector<OrdinalValue> allocations_;  // (ordinal, bytes)
  ChunkedVector<uint32_t> externalSamples_;  // ordinals
  ChunkedVector<OrdinalValue> workIds_;      // (ordinal, work item id)
  static std::optional<uint64_t> Find(const ChunkedVector<OrdinalValue>& column, uint32_t ordinal);
  uint64_t malformed_ = 0;
  UniversalCollector universal_;
  TplTaskIds tpl_;
  std::vector<uint64_t> runtimePids_;  // processes whose threads wrote method events
  // Start events with extra information: their metadata ids (the definitions are the
  // resolver's) → whether it is an ExceptionCatch/Start, then (ordinal, text) per event.
  std::unordered_map<uint32_t, bool> startTypes_;
  // Metadata ids of ProcessInfo: one a session, so a list, and the test inline: every event
  // asks it (a set's look-up made each event leave the fast path above, 60 instructions an
  // event on HeartRateMonitor, callgrind).
  // A trace that defines more (none written by a runtime does) has the first ones read.
  static constexpr size_t kMaxProcessInfoTypes = 16;
  std::vector<uint32_t> processInfoTypes_;
  bool IsProcessInfo(uint32_t metadataId) const {
    for (uint32_t id : processInfoTypes_)
      if (id == metadataId) return true;
    return false;
  }
  std::map<std::optional<uint64_t>, std::string> commandLines_;  // by process (none: unknown)
  std::vector<std::pair<uint32_t, uint32_t>> startInfo_;  // (ordinal, index in startTexts_), ascending
  std::vector<std::string> startTexts_;                   // distinct texts
  std::unordered_map<std::string, uint32_t> startTextIndex_;
};

}  // namespace nettrace
