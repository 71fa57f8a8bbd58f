#include "events/event_naming.h"

#include <algorithm>
#include <cstring>

#include "events/start_stop.h"
#include "format/clr_events.generated.h"
#include "format/provider_family.h"

namespace nettrace {

namespace {

// System.Threading.Tasks.TplEventSource declares Task and Opcode on its events; its
// EventPipe metadata (v4) carries neither, so TraceEvent's TPL parser supplies them.
// Ids and attributes are the EventSource's own declarations.
struct TplName {
  uint32_t id;
  const char* name;
};
constexpr TplName kTplNames[] = {
    {7, "TaskScheduled/Send"},
    {8, "TaskExecute/Start"},
    {9, "TaskExecute/Stop"},
    {10, "TaskWait/Send"},
    {11, "TaskWait/Stop"},
    {12, "AwaitTaskContinuationScheduled/Send"},
};

std::string WithOpcode(const std::string& base, uint8_t opcode) {
  std::string out = base;
  if (opcode == 0) return out;
  const char* name = StandardOpcodeName(opcode);
  out += '/';
  // Built by appending: GCC 12 warns (-Wrestrict, a known false positive) on a + chain.
  if (*name) out += name;
  else out += std::to_string(opcode);
  return out;
}

}  // namespace

const char* StandardOpcodeName(uint8_t opcode) {
  switch (opcode) {
    case 1: return "Start";
    case 2: return "Stop";
    case 3: return "DCStart";
    case 4: return "DCStop";
    case 5: return "Extension";
    case 6: return "Reply";
    case 7: return "Resume";
    case 8: return "Suspend";
    case 9: return "Send";
    case 240: return "Receive";
    default: return "";
  }
}

std::string EventDisplayName(const EventMetadata& m, std::optional<uint8_t> opcodeOverride) {
  const KnownProvider provider = ClassifyProvider(m.providerName);
  // The SampleProfiler's two events are named by TraceEvent's own parser, whatever a label
  // list says of their opcode.
  if (provider == KnownProvider::kSampleProfiler) {
    if (m.eventId == 0) return "Thread/Sample";
    if (m.eventId == 1) return "Thread/StackWalk";
  }
  if (clr::Provider cp = ClrProviderOf(provider); cp != clr::Provider::kNone) {
    if (const clr::EventInfo* info = clr::FindEvent(cp, m.eventId, m.version)) {
      if (!opcodeOverride) return info->name;
      // An override re-derives the opcode part on the event's task (v6 label lists,
      // v6-test-scenarios.md #41): opcode 0 leaves the task name alone.
      return WithOpcode(info->task, *opcodeOverride);
    }
  }
  if (provider == KnownProvider::kTpl && !opcodeOverride) {
    for (const TplName& t : kTplNames)
      if (t.id == m.eventId) return t.name;
  }
  if (m.eventName.empty()) return "EventID(" + std::to_string(m.eventId) + ")";

  // EventSource naming (EventPipeMetadata's rules in TraceEvent): the opcode as
  // events/start_stop.h decides it, and a Start/Stop suffix the opcode repeats taken off the
  // name (StripStartStopInEventName).
  const uint8_t opcode = EffectiveOpcode(m, opcodeOverride);
  const std::string& name = m.eventName;
  size_t keep = name.size();
  if (opcode == kOpcodeStart && EndsWithIgnoreAsciiCase(name, "Start")) keep -= 5;
  if (opcode == kOpcodeStop && EndsWithIgnoreAsciiCase(name, "Stop")) keep -= 4;
  return WithOpcode(name.substr(0, keep), opcode);
}

bool IsGcDynamicEvent(const EventMetadata& m) {
  return m.eventId == clr::kGcDynamicEventId && m.fields.empty() && ClassifyProvider(m.providerName) == KnownProvider::kClrRuntime;
}

std::optional<std::string> GcDynamicEventName(const EventMetadata& m, std::span<const uint8_t> payload) {
  if (!IsGcDynamicEvent(m)) return std::nullopt;
  // The names TraceEvent knows are short ASCII: anything else is not one of them.
  constexpr size_t kMaxName = 64;
  std::string name;
  for (size_t i = 0; i + 1 < payload.size() && name.size() <= kMaxName; i += 2) {
    const uint16_t c = static_cast<uint16_t>(payload[i] | (payload[i + 1] << 8));
    if (c == 0) {
      const clr::EventInfo* info = clr::FindGcDynamicEvent(name);
      // TraceEvent takes a template only when DataSize (after the name) covers its fields.
      uint32_t dataSize = 0;
      if (i + 6 <= payload.size()) std::memcpy(&dataSize, payload.data() + i + 2, 4);
      if (!info || i + 6 > payload.size() || dataSize < clr::GcDynamicDataSize(*info)) return std::nullopt;
      return std::string(info->name);
    }
    if (c >= 0x80) return std::nullopt;
    name.push_back(static_cast<char>(c));
  }
  return std::nullopt;
}

}  // namespace nettrace

namespace nettrace {

LabelOverrides OverridesOf(const LabelList& list) {
  LabelOverrides o;
  for (const Label& l : list.labels) {
    switch (l.kind) {
      case LabelKind::kOpCode: o.opcode = static_cast<uint8_t>(l.number); break;
      case LabelKind::kLevel: o.level = static_cast<uint8_t>(l.number); break;
      case LabelKind::kVersion: o.version = static_cast<uint8_t>(l.number); break;
      case LabelKind::kKeywords: o.keywords = l.number; break;
      default: break;
    }
  }
  return o;
}

EventMetadata ApplyOverrides(const EventMetadata& m, const LabelOverrides& o) {
  EventMetadata r = m;
  if (o.opcode) r.opcode = o.opcode;
  if (o.level) r.level = *o.level, r.hasLevel = true;
  if (o.version) r.version = *o.version, r.hasVersion = true;
  if (o.keywords) r.keywords = *o.keywords, r.hasKeywords = true;
  return r;
}

std::string EventDisplayName(const EventMetadata& m, const LabelOverrides& o) {
  // The template is chosen by the metadata's version; the opcode override renames.
  return EventDisplayName(m, o.opcode);
}

}  // namespace nettrace
