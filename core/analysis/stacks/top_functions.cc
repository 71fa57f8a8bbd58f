#include "analysis/stacks/top_functions.h"

#include <algorithm>
#include <map>

#include "base/json_writer.h"
#include "base/saturating.h"

namespace nettrace {

namespace {
// Distinct call stacks of the selection with their weight and event count.
std::map<uint32_t, std::pair<uint64_t, uint64_t>> Distinct(const StackSelection& sel) {
  std::map<uint32_t, std::pair<uint64_t, uint64_t>> out;
  for (size_t i = 0; i < sel.size(); ++i) {
    auto& [w, c] = out[sel.callStacks[i]];
    w = SatAdd(w, sel.weights[i]), ++c;
  }
  return out;
}
}  // namespace

std::vector<FunctionStat> TopFunctions(const StackSelection& sel, const StackResolver& resolver) {
  std::vector<FunctionStat> byFrame(resolver.frames().size());
  std::vector<uint32_t> seenIn(resolver.frames().size(), UINT32_MAX);  // last stack that counted it
  for (const auto& [cs, wc] : Distinct(sel)) {
    if (cs == 0) continue;
    const auto [w, c] = wc;
    FunctionStat& leaf = byFrame[resolver.stacks().frame(cs)];
    leaf.exclusive = SatAdd(leaf.exclusive, w), leaf.exclusiveCount += c;
    for (uint32_t s = cs; s != 0; s = resolver.stacks().parent(s)) {
      const uint32_t f = resolver.stacks().frame(s);
      if (seenIn[f] == cs) continue;
      seenIn[f] = cs;
      byFrame[f].inclusive = SatAdd(byFrame[f].inclusive, w), byFrame[f].inclusiveCount += c;
    }
  }
  std::vector<FunctionStat> out;
  for (uint32_t f = 0; f < byFrame.size(); ++f) {
    if (byFrame[f].inclusiveCount == 0) continue;
    byFrame[f].frame = f;
    out.push_back(byFrame[f]);
  }
  const FrameTable& frames = resolver.frames();
  std::sort(out.begin(), out.end(), [&](const FunctionStat& a, const FunctionStat& b) {
    if (a.exclusive != b.exclusive) return a.exclusive > b.exclusive;
    if (a.inclusive != b.inclusive) return a.inclusive > b.inclusive;
    return frames.name(a.frame) < frames.name(b.frame);
  });
  return out;
}

std::string TopFunctionsToJson(const std::vector<FunctionStat>& stats, const FrameTable& frames, size_t n,
                               uint64_t total, WeightUnit unit) {
  JsonWriter w;
  w.BeginObject();
  w.Key("unit").String(WeightUnitName(unit));
  w.Key("total").UInt(total);
  w.Key("functions").BeginArray();
  for (size_t i = 0; i < stats.size() && i < n; ++i) {
    const FunctionStat& s = stats[i];
    w.BeginObject();
    w.Key("name").String(frames.name(s.frame));
    w.Key("inclusive").UInt(s.inclusive);
    w.Key("exclusive").UInt(s.exclusive);
    w.Key("inclusiveCount").UInt(s.inclusiveCount);
    w.Key("exclusiveCount").UInt(s.exclusiveCount);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.Take();
}

Sandwich BuildSandwich(const StackSelection& sel, const StackResolver& resolver, uint32_t fn) {
  Sandwich s{CallTree(fn), CallTree(fn)};
  for (const auto& [cs, wc] : Distinct(sel)) {
    std::vector<uint32_t> path = resolver.stacks().Frames(cs);
    auto at = std::find(path.begin(), path.end(), fn);
    if (at == path.end()) continue;
    s.callees.Add(&*at + 1, static_cast<size_t>(path.end() - at - 1), wc.first, wc.second);
    std::vector<uint32_t> outward(std::make_reverse_iterator(at), path.rend());
    s.callers.Add(outward.data(), outward.size(), wc.first, wc.second);
  }
  return s;
}

}  // namespace nettrace
