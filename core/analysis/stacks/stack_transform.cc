#include "analysis/stacks/stack_transform.h"

#include <cctype>
#include <cstring>

#include "base/saturating.h"

namespace nettrace {

namespace {

std::string LowerAscii(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool StartsWith(const std::string& s, const char* prefix) { return s.compare(0, std::strlen(prefix), prefix) == 0; }

// The leaves dropTimeLeaves folds: TraceEvent's time leaves and unresolved frames.
bool IsTimeLeaf(const std::string& name) {
  return name == kExternalFrameName || name == "CPU_TIME" || name == "?!?" ||
         (name.size() > 2 && name.compare(name.size() - 2, 2, "!?") == 0);
}

}  // namespace

bool IsFrameworkFrame(const std::string& frameName) {
  if (frameName == "?!?") return true;
  const size_t bang = frameName.find('!');
  if (bang == std::string::npos || bang == 0) return false;
  std::string m = LowerAscii(frameName.substr(0, bang));
  if (m == "system" || StartsWith(m, "system.") || StartsWith(m, "microsoft.") || m == "mscorlib" ||
      m == "netstandard" || StartsWith(m, "[kernel"))
    return true;
  // Native modules: one spelling per platform ("libcoreclr.so", "coreclr.dll", "libcoreclr.dylib").
  if (StartsWith(m, "lib")) m = m.substr(3);
  static const char* const kNative[] = {"coreclr", "clrjit", "hostfxr", "hostpolicy", "system.", "mscordaccore",
                                        "ntdll", "kernel32", "kernelbase", "c.so", "c-", "pthread", "stdc++",
                                        "gcc_s", "ld-linux", "dl.so", "dl-", "m.so", "m-"};
  for (const char* n : kNative)
    if (StartsWith(m, n)) return true;
  return m == "c" || m == "ld";
}

int SetStackTransformOption(const char* flag, const char* value, StackTransformOptions* o) {
  if (!std::strcmp(flag, "--group-by-module")) return o->groupByModule = true, 1;
  if (!std::strcmp(flag, "--just-my-code")) return o->justMyCode = true, 1;
  if (!std::strcmp(flag, "--drop-time-leaves")) return o->dropTimeLeaves = true, 1;
  std::string* list = !std::strcmp(flag, "--group-pats")     ? &o->groupPats
                      : !std::strcmp(flag, "--fold-pats")    ? &o->foldPats
                      : !std::strcmp(flag, "--exclude-pats") ? &o->excludePats
                      : !std::strcmp(flag, "--include-pats") ? &o->includePats
                                                             : nullptr;
  if (!list) return 0;
  if (!value) return -1;
  // Repeated flags add patterns, as PerfView's ';' does.
  *list += list->empty() ? value : std::string(";") + value;
  return 2;
}

StackTransformer::StackTransformer(const StackTransformOptions& options, StackResolver* resolver)
    : options_(options), resolver_(resolver), states_(resolver->stacks().size()) {
  for (const std::string& g : SplitPatternList(options.groupPats)) {
    // "=>" (entry group) is looked for first, as PerfView does; then "->"; else the match names it.
    size_t arrow = g.find("=>");
    const bool entry = arrow != std::string::npos;
    if (!entry) arrow = g.find("->");
    if (arrow == std::string::npos) {
      groups_.push_back({FramePattern(g), "$&", false});
      continue;
    }
    std::string name = g.substr(arrow + 2);
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front()))) name.erase(0, 1);
    groups_.push_back({FramePattern(g.substr(0, arrow)), name, entry});
  }
  for (const std::string& p : SplitPatternList(options.foldPats)) folds_.emplace_back(p);
  for (const std::string& p : SplitPatternList(options.excludePats)) excludes_.emplace_back(p);
  for (const std::string& p : SplitPatternList(options.includePats))
    if (includes_.size() < 32) includes_.emplace_back(p);  // one bit each
  allIncludes_ = includes_.size() == 32 ? UINT32_MAX : (1u << includes_.size()) - 1;
  states_.resize(resolver->stacks().size());
  if (!states_.empty()) states_[0] = {true, false, 0, -1, 0};
}

// The group a frame name belongs to after the presets and groupPats, "" for none.
std::string StackTransformer::GroupName(const std::string& frameName, bool* entry, int32_t* group) {
  *entry = false;
  std::string name = frameName, result;
  if (options_.justMyCode && IsFrameworkFrame(name)) {
    *entry = true;
    result = "OTHER";
  } else {
    if (options_.groupByModule) {
      const size_t bang = name.find('!');
      if (bang != std::string::npos && bang > 0) result = name = name.substr(0, bang + 1);
    }
    std::vector<std::string> caps;
    for (const Group& g : groups_) {
      if (!g.pattern.Match(name, &caps)) continue;
      std::string n;
      for (size_t i = 0; i < g.name.size(); ++i) {
        const char c = g.name[i], next = i + 1 < g.name.size() ? g.name[i + 1] : 0;
        if (c == '$' && next == '&') n += caps[0], ++i;
        else if (c == '$' && next >= '1' && next <= '9') n += size_t(next - '0') < caps.size() ? caps[next - '0'] : "", ++i;
        else n += c;
      }
      if (n.empty()) return std::string();  // "pat->" with no name: the frame is in no group
      result = name = n;
      if (g.entry) {
        *entry = true;
        break;
      }
    }
  }
  if (result.empty()) return result;
  int32_t id = 0;
  while (id < static_cast<int32_t>(groupNames_.size()) && groupNames_[id] != result) ++id;
  if (id == static_cast<int32_t>(groupNames_.size())) groupNames_.push_back(result);
  *group = id;
  return result;
}

const StackTransformer::FrameRule& StackTransformer::RuleOf(uint32_t frame) {
  if (frame >= rules_.size()) rules_.resize(frame + 1);
  if (rules_[frame].known) return rules_[frame];
  const std::string original = resolver_->frames().name(frame);  // a copy: Intern may grow the table
  FrameRule r;
  r.known = true;
  r.frame = frame;
  bool entry = false;
  std::string name = original;
  const std::string group = GroupName(original, &entry, &r.group);
  if (!group.empty()) {
    r.entry = entry;
    name = entry ? group + " <<" + original + ">>" : group;
    r.frame = resolver_->frames().Intern(name, FrameKind::kSynthetic);
  }
  for (const FramePattern& p : excludes_) r.discard = r.discard || p.Match(name);
  for (const FramePattern& p : folds_) r.fold = r.fold || p.Match(name);
  for (size_t i = 0; i < includes_.size(); ++i)
    if (includes_[i].Match(name)) r.incMask |= 1u << i;
  if (frame >= rules_.size()) rules_.resize(frame + 1);
  rules_[frame] = r;
  return rules_[frame];
}

StackTransformer::StackState StackTransformer::Step(const StackState& parent, uint32_t frame) {
  if (parent.discard) return parent;
  const FrameRule r = RuleOf(frame);
  if (r.discard) return {true, true, 0, -1, 0};
  if (r.fold) return parent;  // the frame disappears: its weight stays with the caller
  // Consecutive frames of one group are one frame (an entry group keeps its entry's name).
  if (r.group >= 0 && parent.stack != 0 && parent.group == r.group) return parent;
  return {true, false, resolver_->stacks().Push(parent.stack, r.frame), r.group, parent.incMask | r.incMask};
}

StackTransformer::StackState StackTransformer::StateOf(uint32_t callStack) {
  if (callStack >= states_.size()) states_.resize(callStack + 1);
  std::vector<uint32_t> chain;  // unknown stacks, leaf first (iterative: stacks can be deep)
  for (uint32_t s = callStack; s != 0 && !states_[s].known; s = resolver_->stacks().parent(s)) chain.push_back(s);
  for (size_t i = chain.size(); i-- > 0;) {
    const uint32_t s = chain[i];
    states_[s] = Step(states_[resolver_->stacks().parent(s)], resolver_->stacks().frame(s));
  }
  return states_[callStack];
}

uint32_t StackTransformer::Map(uint32_t callStack) {
  if (options_.dropTimeLeaves)
    while (callStack != 0 && IsTimeLeaf(resolver_->frames().name(resolver_->stacks().frame(callStack))))
      callStack = resolver_->stacks().parent(callStack);
  const StackState st = StateOf(callStack);
  if (st.discard || (st.incMask & allIncludes_) != allIncludes_) return kDiscard;
  return st.stack;
}

void ApplyStackTransform(const StackTransformOptions& options, StackResolver* resolver, StackSelection* sel) {
  if (!options.active()) return;
  StackTransformer t(options, resolver);
  size_t out = 0;
  uint64_t total = 0;  // saturating, as the selection's own total
  for (size_t i = 0; i < sel->size(); ++i) {
    const uint32_t s = t.Map(sel->callStacks[i]);
    if (s == StackTransformer::kDiscard) continue;
    total = SatAdd(total, sel->weights[i]);
    sel->rows[out] = sel->rows[i];
    sel->threads[out] = sel->threads[i];
    sel->weights[out] = sel->weights[i];
    sel->callStacks[out++] = s;
  }
  sel->totalWeight = total;
  sel->rows.resize(out), sel->threads.resize(out), sel->weights.resize(out), sel->callStacks.resize(out);
}

}  // namespace nettrace
