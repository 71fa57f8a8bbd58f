#include <algorithm>
#include <map>
#include <vector>

#include "base/saturating.h"
#include "export/exports.h"

namespace nettrace {

std::string ExportFolded(const TraceModel& model, const StackSelection& sel, StackResolver* resolver,
                         bool groupByThread) {
  std::map<uint64_t, uint64_t> weights;  // (thread << 32 | call stack) → weight
  for (size_t i = 0; i < sel.size(); ++i) {
    uint64_t& w = weights[(groupByThread ? uint64_t{sel.threads[i]} << 32 : 0) | sel.callStacks[i]];
    w = SatAdd(w, sel.weights[i]);
  }
  std::vector<std::string> lines;
  for (const auto& [key, weight] : weights) {
    std::vector<uint32_t> path = resolver->stacks().Frames(static_cast<uint32_t>(key));
    if (groupByThread) path.insert(path.begin(), ThreadFrame(model, resolver, static_cast<uint16_t>(key >> 32)));
    std::string line;
    for (uint32_t f : path) {
      if (!line.empty()) line += ';';
      line += resolver->frames().name(f);
    }
    if (line.empty() || weight == 0) continue;
    line += ' ';
    line += std::to_string(weight);
    lines.push_back(std::move(line));
  }
  std::sort(lines.begin(), lines.end());
  // No temporary copies of a line: one stack 500,000 frames deep is a 20 MB line.
  size_t size = 0;
  for (const std::string& l : lines) size += l.size() + 1;
  std::string out;
  out.reserve(size);
  for (std::string& l : lines) {
    out += l;
    out += '\n';
    std::string().swap(l);
  }
  return out;
}

}  // namespace nettrace
