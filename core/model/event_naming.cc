#include "model/event_naming.h"

#include <algorithm>
#include <cstring>

#include "format/clr_events.generated.h"

namespace nettrace {

namespace {

// ASCII case folding, as std::tolower in the "C" locale the tools run in, without a
// library call per character: provider names are classified for every decoded payload.
constexpr unsigned char AsciiLower(unsigned char c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

// b's length is known where it is a literal: a provider name of another length (most of
// them) is told apart without a loop or a strlen.
bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < b.size(); ++i)
    if (AsciiLower(static_cast<unsigned char>(a[i])) != AsciiLower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

bool EndsWithIgnoreCase(std::string_view s, std::string_view suffix) {
  return s.size() > suffix.size() && EqualsIgnoreCase(s.substr(s.size() - suffix.size()), suffix);
}

clr::Provider ToClr(KnownProvider p) {
  switch (p) {
    case KnownProvider::kClrRuntime: return clr::Provider::kRuntime;
    case KnownProvider::kClrRundown: return clr::Provider::kRundown;
    case KnownProvider::kClrPrivate: return clr::Provider::kPrivate;
    case KnownProvider::kClrStress: return clr::Provider::kStress;
    default: return clr::Provider::kNone;
  }
}

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

bool EndsWithAfterStem(const std::string& name, std::string_view suffix) {
  return name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

KnownProvider ClassifyProvider(const std::string& p) {
  struct Known {
    std::string_view name;
    KnownProvider provider;
  };
  static constexpr Known kKnown[] = {
      {"Microsoft-Windows-DotNETRuntime", KnownProvider::kClrRuntime},
      {"Microsoft-Windows-DotNETRuntimeRundown", KnownProvider::kClrRundown},
      {"Microsoft-Windows-DotNETRuntimePrivate", KnownProvider::kClrPrivate},
      {"Microsoft-Windows-DotNETRuntimeStress", KnownProvider::kClrStress},
      {"Microsoft-DotNETCore-SampleProfiler", KnownProvider::kSampleProfiler},
      {"System.Threading.Tasks.TplEventSource", KnownProvider::kTpl},
      {"Microsoft-DotNETCore-EventPipe", KnownProvider::kEventPipe},
  };
  // Names are asked for once per metadata by several stages: the exact spelling (what the
  // runtime writes) is one memcmp; case is folded only when it differs.
  for (const Known& k : kKnown)
    if (p.size() == k.name.size() && (p == k.name || EqualsIgnoreCase(p, k.name))) return k.provider;
  return KnownProvider::kOther;
}

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
  if (clr::Provider cp = ToClr(provider); cp != clr::Provider::kNone) {
    if (const clr::EventInfo* info = clr::FindEvent(cp, m.eventId, m.version)) {
      if (!opcodeOverride) return info->name;
      // An override re-derives the opcode part on the event's task (v6 label lists,
      // v6-test-scenarios.md #41): opcode 0 leaves the task name alone.
      return WithOpcode(info->task, *opcodeOverride);
    }
  }
  if (provider == KnownProvider::kSampleProfiler) {
    if (m.eventId == 0) return "Thread/Sample";
    if (m.eventId == 1) return "Thread/StackWalk";
  }
  if (provider == KnownProvider::kTpl && !opcodeOverride) {
    for (const TplName& t : kTplNames)
      if (t.id == m.eventId) return t.name;
  }
  if (m.eventName.empty()) return "EventID(" + std::to_string(m.eventId) + ")";

  // EventSource naming (EventPipeMetadata's rules in TraceEvent).
  std::optional<uint8_t> opcode = opcodeOverride ? opcodeOverride : m.opcode;
  std::string name = m.eventName;
  if (!opcode) {
    if (EndsWithIgnoreCase(name, "Start")) opcode = 1;
    else if (EndsWithIgnoreCase(name, "Stop")) opcode = 2;
    else opcode = 0;
  }
  size_t keep = name.size();
  if (*opcode == 1 && EndsWithIgnoreCase(name, "Start")) keep -= 5;
  if (*opcode == 2 && EndsWithIgnoreCase(name, "Stop")) keep -= 4;
  return WithOpcode(name.substr(0, keep), *opcode);
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
