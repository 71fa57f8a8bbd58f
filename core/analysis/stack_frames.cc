#include "analysis/stack_frames.h"

#include <cstdio>
#include <algorithm>
#include <cstring>

namespace nettrace {

uint32_t FrameTable::Intern(const std::string& name, FrameKind kind) {
  auto [it, added] = byName_.emplace(name, static_cast<uint32_t>(names_.size()));
  if (added) {
    names_.push_back(name);
    kinds_.push_back(kind);
  }
  return it->second;
}

void FrameTable::AddDetail(uint32_t frame, const std::string& detail) {
  if (detail.empty() || frame >= names_.size()) return;
  std::string& d = details_[frame];
  // Exact membership in the comma-separated list.
  const std::string padded = "," + d + ",";
  if (padded.find("," + detail + ",") != std::string::npos) return;
  d += d.empty() ? detail : "," + detail;
}

const std::string& FrameTable::detail(uint32_t frame) const {
  static const std::string kNone;
  auto it = details_.find(frame);
  return it == details_.end() ? kNone : it->second;
}

uint32_t CallStackTable::Push(uint32_t parent, uint32_t frame) {
  const uint64_t key = (uint64_t{parent} << 32) | frame;
  const auto [stack, added] = children_.Emplace(key, static_cast<uint32_t>(parent_.size()));
  if (added) {
    parent_.push_back(parent);
    frame_.push_back(frame);
  }
  return stack;
}

std::vector<uint32_t> CallStackTable::Frames(uint32_t s) const {
  std::vector<uint32_t> out;
  for (; s != 0; s = parent_[s]) out.push_back(frame_[s]);
  return {out.rbegin(), out.rend()};
}

std::string MethodFrameName(const MethodRange& m, const MethodMap& methods, const ModuleMap& modules) {
  // TraceLog's names: a method whose module was never described is in "ManagedModule".
  const std::string* module = modules.Name(m.moduleId);
  std::string out = module ? *module : "ManagedModule";
  out += '!';
  if (!m.named()) {
    // A non-verbose load with no verbose twin: the range is known, the name is not. So for
    // names left in the file and never read back (the JS API's read of them was cancelled,
    // or the native tool's re-read of the file failed).
    char buf[32];
    std::snprintf(buf, sizeof buf, "MethodID(0x%llx)", static_cast<unsigned long long>(m.methodId));
    return out + buf;
  }
  if (std::string nameSpace = methods.names().NameSpace(m.names); !nameSpace.empty()) out += nameSpace + '.';
  return out + methods.names().Name(m.names);
}

StackResolver::StackResolver(const TraceModel& model, const SymbolCollector& symbols)
    : model_(model), symbols_(symbols), byStoreStack_(model.stacks().size(), 0) {}

void AppendStackAddresses(const TraceModel& model, StackIndex stack, std::vector<uint64_t>* out) {
  if (stack.value == 0 || stack.value >= model.stacks().size()) return;
  std::span<const uint8_t> bytes = model.stacks().Bytes(stack);
  const size_t ps = model.info().pointerSize == 4 ? 4 : 8;
  out->reserve(out->size() + bytes.size() / ps);
  for (size_t i = 0; i + ps <= bytes.size(); i += ps) {
    uint64_t v = 0;
    std::memcpy(&v, bytes.data() + i, ps);  // little-endian hosts only (as ByteCursor)
    out->push_back(v);
  }
}

std::vector<uint64_t> StackResolver::Addresses(StackIndex stack) const {
  std::vector<uint64_t> out;
  AppendStackAddresses(model_, stack, &out);
  return out;
}

uint32_t StackResolver::FrameOf(uint64_t address, uint64_t timestamp, TimeSpan* span) {
  auto cached = byAddress_.find(address);
  if (cached != byAddress_.end() && cached->second.Holds(timestamp)) {
    if (span) span->Narrow({cached->second.validFrom, cached->second.validUntil});
    return cached->second.value;
  }
  TimeSpan held;
  const MethodRange* m = symbols_.methods().Find(address, timestamp, &held);
  uint32_t frame;
  if (m) {
    frame = frames_.Intern(MethodFrameName(*m, symbols_.methods(), symbols_.modules()), FrameKind::kManaged);
  } else {
    const ModuleImage* image = symbols_.modules().ImageAt(address);
    frame = UnresolvedFrame(image ? image->name : std::string());
  }
  byAddress_[address] = {frame, held.from, held.until};
  if (span) span->Narrow(held);
  return frame;
}

// Unresolved addresses are named as TraceEvent and PerfView name them — one frame per module
// (or one "?!?"), so the flame graph sums unresolved time instead of scattering it over
// addresses.
uint32_t StackResolver::UnresolvedFrame(const std::string& module) {
  if (module.empty()) return frames_.Intern("?!?", FrameKind::kUnresolved);
  return frames_.Intern(module + "!?", FrameKind::kModule);
}

uint32_t StackResolver::Resolve(StackIndex stack, uint64_t timestamp) {
  if (stack.value == 0 || stack.value >= byStoreStack_.size()) return 0;
  uint32_t& slot = byStoreStack_[stack.value];
  if (slot != 0 && slot != kTimeDependent) return slot - 1;
  if (slot == kTimeDependent) {
    // A stack through reused code: resolved again only once the time leaves the span its
    // last answer held for, so samples in time order cost one resolution per change.
    const Cached& c = byStackAtTime_[stack.value];
    if (c.Holds(timestamp)) return c.value;
  }
  std::vector<uint64_t> ips = Addresses(stack);
  uint32_t s = 0;
  TimeSpan held;
  // EventPipe writes the leaf first: push from the far end to get root-first order.
  for (size_t i = ips.size(); i-- > 0;) s = stacks_.Push(s, FrameOf(ips[i], timestamp, &held));
  if (held.from == 0 && held.until == UINT64_MAX) {
    slot = s + 1;
  } else {
    slot = kTimeDependent;
    byStackAtTime_[stack.value] = {s, held.from, held.until};
  }
  return s;
}

}  // namespace nettrace

namespace nettrace {

uint32_t StackResolver::FrameInProcess(uint64_t pid, uint64_t address, uint64_t timestamp, uint64_t* validFrom,
                                       uint64_t* validUntil) {
  const std::pair<uint64_t, uint64_t> key{pid, address};
  auto cached = byProcessAddress_.find(key);
  if (cached != byProcessAddress_.end() && cached->second.validFrom <= timestamp &&
      timestamp < cached->second.validUntil) {
    *validFrom = std::max(*validFrom, cached->second.validFrom);
    *validUntil = std::min(*validUntil, cached->second.validUntil);
    return cached->second.value;
  }
  const UniversalSymbols::Answer a = symbols_.universal().symbols().Find(pid, address, timestamp);
  uint64_t from = a.validFrom, until = a.validUntil;
  uint32_t frame;
  const MethodRange* m = nullptr;
  if (!a.symbol && symbols_.MethodsApplyTo(pid)) {
    TimeSpan held;
    m = symbols_.methods().Find(address, timestamp, &held);
    from = std::max(from, held.from), until = std::min(until, held.until);
  }
  if (a.symbol) {
    if (std::optional<JittedName> j = ParseJittedSymbolName(a.symbol->name)) {
      frame = frames_.Intern(j->module + '!' + j->method, FrameKind::kManaged);
      frames_.AddDetail(frame, j->optimizationLevel);
    } else {
      const std::string module = a.mapping ? MappingBaseName(a.mapping->fileName) : std::string();
      frame = frames_.Intern(module.empty() ? a.symbol->name : module + '!' + a.symbol->name, FrameKind::kModule);
    }
  } else if (m) {
    frame = frames_.Intern(MethodFrameName(*m, symbols_.methods(), symbols_.modules()), FrameKind::kManaged);
  } else {
    // One naming for every unresolved address, in every trace format, as for the runtime's
    // images above.
    frame = UnresolvedFrame(a.mapping ? MappingBaseName(a.mapping->fileName) : std::string());
  }
  byProcessAddress_[key] = {frame, from, until};
  *validFrom = std::max(*validFrom, from);
  *validUntil = std::min(*validUntil, until);
  return frame;
}

uint32_t StackResolver::Resolve(StackIndex stack, uint64_t timestamp, std::optional<uint64_t> pid) {
  if (!pid || !symbols_.universal().symbols().HasProcess(*pid)) return Resolve(stack, timestamp);
  if (stack.value == 0 || stack.value >= byStoreStack_.size()) return 0;
  const std::pair<uint64_t, uint64_t> key{*pid, stack.value};
  auto cached = byProcessStack_.find(key);
  if (cached != byProcessStack_.end() && cached->second.validFrom <= timestamp &&
      timestamp < cached->second.validUntil)
    return cached->second.value;
  std::vector<uint64_t> ips = Addresses(stack);
  uint32_t s = 0;
  uint64_t from = 0, until = UINT64_MAX;
  for (size_t i = ips.size(); i-- > 0;) s = stacks_.Push(s, FrameInProcess(*pid, ips[i], timestamp, &from, &until));
  byProcessStack_[key] = {s, from, until};
  return s;
}

}  // namespace nettrace
