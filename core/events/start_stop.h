// core/events — whether an event opens or closes an activity: EventSource's Start/Stop
// convention, decided here once for every stage (event names, event kinds, the activities
// view, the async stitcher, the start text of activity frames), after TraceEvent's reading of
// EventPipe metadata (EventPipeMetadata.ApplyTransforms: ExtractImpliedOpcode, then
// StripStartStopInEventName):
//   - a v6 label list's opcode override is the event's opcode;
//   - else the metadata's opcode, where it has one (v5 metadata's opcode tag, v6's OpCode);
//   - else the name says it: "…Start" is a Start (opcode 1), "…Stop" a Stop (opcode 2),
//     ignoring ASCII case as TraceEvent does (OrdinalIgnoreCase: "FooSTART" too).
// Two edges differ from TraceEvent's rule, on purpose and alike for every stage: an opcode the
// metadata states, 0 included, is the opcode (TraceEvent infers from the name whenever
// `Opcode == 0`, so it cannot tell a stated Info from none); and a name that is only the
// suffix ("Start") is no Start: stripped, it would leave the event no name.
// Which events are activities (the kinds kActivityStart/kActivityStop) is narrower:
// events/event_kind.h keeps the runtime's own providers (whose exceptions, contention and GCs
// are Start/Stop pairs of their own), TPL, EventCounters and Metrics out.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "format/records.h"

namespace nettrace {

inline constexpr uint8_t kOpcodeStart = 1;  // winmeta.xml win:Start
inline constexpr uint8_t kOpcodeStop = 2;   // winmeta.xml win:Stop

enum class StartStop : uint8_t { kNeither, kStart, kStop };

// The opcode implied by an event name alone: kOpcodeStart, kOpcodeStop or 0 (Info).
uint8_t ImpliedOpcode(std::string_view eventName);

// The opcode events of metadata `m` have, as TraceEvent gives it (the rules above).
uint8_t EffectiveOpcode(const EventMetadata& m, std::optional<uint8_t> opcodeOverride = std::nullopt);

inline StartStop StartStopOfOpcode(uint8_t opcode) {
  return opcode == kOpcodeStart ? StartStop::kStart : opcode == kOpcodeStop ? StartStop::kStop : StartStop::kNeither;
}
inline StartStop StartStopOf(const EventMetadata& m, std::optional<uint8_t> opcodeOverride = std::nullopt) {
  return StartStopOfOpcode(EffectiveOpcode(m, opcodeOverride));
}

// The name of what a Start/Stop pair measures: the name without its "/Start", "/Stop",
// "Start" or "Stop" suffix, in any case ("Scenario/Start", "ScenarioSTART" → "Scenario"); a
// name that is only the suffix, or has none, unchanged.
std::string_view StartStopStem(std::string_view name);

}  // namespace nettrace
