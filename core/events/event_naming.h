// core/events — what an event type is called. We name events as PerfView/TraceEvent do,
// because that is the vocabulary of every .NET performance guide and of TraceEvent's
// baselines (docs: traceevent-baselines.md §2 "EventName rules"):
//   - CLR runtime providers: "Task/Opcode" from the generated CLR table by id/version
//     (their v4/v5 metadata carries no name), "Task" alone where TraceEvent has no
//     template; an opcode override (v6 label list) re-derives the opcode part.
//   - SampleProfiler: Thread/Sample, Thread/StackWalk. TPL: its parser's Task/Opcode.
//   - EventSource / TraceLogging: the metadata name; a Start/Stop opcode (explicit, or
//     implied by a "...Start"/"...Stop" suffix: events/start_stop.h) becomes "/Start" "/Stop";
//     another explicit opcode is appended by name, or by number when it has no standard name.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "format/provider_family.h"
#include "format/records.h"

namespace nettrace {

// The display name of events described by `m`; opcodeOverride comes from a v6 label list.
std::string EventDisplayName(const EventMetadata& m, std::optional<uint8_t> opcodeOverride = std::nullopt);

// v6 label lists may override an event's opcode, keywords, level and version
// (NetTraceFormat.md §LabelListBlock: they "override any value found in the metadata").
struct LabelOverrides {
  std::optional<uint8_t> opcode, level, version;
  std::optional<uint64_t> keywords;
  bool any() const { return opcode || level || version || keywords; }
};
LabelOverrides OverridesOf(const LabelList& list);
// The metadata as the event sees it, overrides applied.
EventMetadata ApplyOverrides(const EventMetadata& m, const LabelOverrides& o);
// The display name of an event of metadata `m` with overrides `o`.
std::string EventDisplayName(const EventMetadata& m, const LabelOverrides& o);

// Standard ETW opcode names (winmeta.xml): 1 Start, 2 Stop, ... 240 Receive; "" otherwise.
const char* StandardOpcodeName(uint8_t opcode);

// A GC dynamic event (runtime GCDynamicEvent, id 39, described by the CLR table) whose Name
// — the payload's leading UTF-16 string — TraceEvent has a template for: TraceEvent's name
// for it ("GC/CommittedUsage"), which depends on each event's payload, not on its metadata.
// nullopt for every other event.
bool IsGcDynamicEvent(const EventMetadata& m);
std::optional<std::string> GcDynamicEventName(const EventMetadata& m, std::span<const uint8_t> payload);

}  // namespace nettrace
