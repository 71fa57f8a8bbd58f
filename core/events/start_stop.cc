#include "events/start_stop.h"

#include "format/provider_family.h"

namespace nettrace {

uint8_t ImpliedOpcode(std::string_view name) {
  if (EndsWithIgnoreAsciiCase(name, "Start")) return kOpcodeStart;
  if (EndsWithIgnoreAsciiCase(name, "Stop")) return kOpcodeStop;
  return 0;
}

uint8_t EffectiveOpcode(const EventMetadata& m, std::optional<uint8_t> opcodeOverride) {
  if (opcodeOverride) return *opcodeOverride;
  if (m.opcode) return *m.opcode;
  return ImpliedOpcode(m.eventName);
}

std::string_view StartStopStem(std::string_view name) {
  for (std::string_view suffix : {"/Start", "/Stop", "Start", "Stop"})
    if (EndsWithIgnoreAsciiCase(name, suffix)) return name.substr(0, name.size() - suffix.size());
  return name;
}

}  // namespace nettrace
