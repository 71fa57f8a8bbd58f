// Stack models for the many-run comparison's tests: a set of root-first call paths with
// weights, from which runs are drawn with run-to-run noise (each path's weight multiplied by
// a log-normal factor, then sampled: a Poisson count per path at a given number of samples),
// turned into flame graphs in process or written as NetTrace v6 traces by the project's
// writer (core/write/universal_trace_writer.h: one cpu sample of 1 ms per count).
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "analysis/stacks/call_tree.h"
#include "analysis/stacks/flame_graph.h"
#include "analysis/stacks/stack_frames.h"
#include "base/status.h"
#include "write/universal_trace_writer.h"

namespace nettrace::test {

struct StackModel {
  std::vector<std::vector<std::string>> paths;  // root first, without the root itself
  std::vector<double> weights;                  // per path
};

// A service-shaped tree: Main → 6 subsystems → 5 operations each → 3 leaves each, with
// uneven weights (a few heavy operations, a long tail): 127 functions, 90 paths.
inline StackModel SyntheticModel() {
  StackModel m;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.2, 1.0);
  for (int s = 0; s < 6; ++s)
    for (int o = 0; o < 5; ++o)
      for (int l = 0; l < 3; ++l) {
        m.paths.push_back({"App!Main", "App!Subsystem" + std::to_string(s),
                           "App!Subsystem" + std::to_string(s) + ".Op" + std::to_string(o),
                           "App!Leaf" + std::to_string(s) + "_" + std::to_string(o) + "_" + std::to_string(l)});
        m.weights.push_back(u(rng) / (1 + s) / (1 + o));  // heavier subsystems and operations first
      }
  return m;
}

// A committed trace's flame graph as a model: each node with exclusive weight is a path.
inline StackModel ModelOfGraph(const FlameGraph& g) {
  StackModel m;
  std::vector<std::vector<std::string>> pathTo(g.size());
  for (size_t n = 1; n < g.size(); ++n) {
    pathTo[n] = pathTo[g.parent[n]];
    pathTo[n].push_back(g.frameNames[g.frame[n]]);
    if (g.self[n] > 0) m.paths.push_back(pathTo[n]), m.weights.push_back(static_cast<double>(g.self[n]));
  }
  return m;
}

// The model with `function`'s paths scaled so that its inclusive share grows by `points`
// (a fraction of the total: 0.05 = 5 points).
inline StackModel Planted(StackModel m, const std::string& function, double points) {
  double through = 0, total = 0;
  std::vector<bool> hit(m.paths.size());
  for (size_t p = 0; p < m.paths.size(); ++p) {
    for (const std::string& f : m.paths[p]) hit[p] = hit[p] || f == function;
    total += m.weights[p];
    if (hit[p]) through += m.weights[p];
  }
  const double share = through / total, target = share + points;
  const double k = target * (total - through) / (through * (1 - target));
  for (size_t p = 0; p < m.paths.size(); ++p)
    if (hit[p]) m.weights[p] *= k;
  return m;
}

// One run: a sample count per path.
inline std::vector<uint64_t> DrawRun(const StackModel& m, std::mt19937_64& rng, double sigma, double samples) {
  std::normal_distribution<double> z(0, 1);
  std::vector<double> w(m.weights.size());
  double total = 0;
  for (size_t p = 0; p < w.size(); ++p) total += w[p] = m.weights[p] * std::exp(sigma * z(rng) - sigma * sigma / 2);
  std::vector<uint64_t> counts(w.size());
  for (size_t p = 0; p < w.size(); ++p) {
    const double mean = samples * w[p] / total;
    counts[p] = mean > 0 ? std::poisson_distribution<uint64_t>(mean)(rng) : 0;
  }
  return counts;
}

// The run's flame graph as the engine lays one out (weights in samples).
inline FlameGraph GraphOfRun(const StackModel& m, const std::vector<uint64_t>& counts) {
  FrameTable frames;
  CallTree tree(frames.Intern("ROOT", FrameKind::kSynthetic));
  std::vector<uint32_t> ids;
  for (size_t p = 0; p < m.paths.size(); ++p) {
    if (counts[p] == 0) continue;
    ids.clear();
    for (const std::string& f : m.paths[p]) ids.push_back(frames.Intern(f, FrameKind::kManaged));
    tree.Add(ids.data(), ids.size(), counts[p], counts[p]);
  }
  return LayoutFlameGraph(tree, frames, WeightUnit::kSamples);
}

// The run as a collect-linux-like v6 trace: one process and thread, a mapping whose symbols
// are the model's frames ("model.so!<frame>" once read), a 1 ms cpu sample per count.
inline Status WriteRun(const StackModel& m, const std::vector<uint64_t>& counts, std::vector<uint8_t>* out) {
  UniversalTraceWriter w;
  w.AddThread(1, 100, 100, "main");
  std::map<std::string, uint64_t> address;  // frame → an address inside its symbol
  for (const auto& path : m.paths)
    for (const std::string& f : path) address.emplace(f, 0);
  constexpr uint64_t kBase = 0x400000, kSymbol = 0x100;
  w.ExistingProcess(0, 1, "model");
  w.ProcessMapping(0, 1, 1, kBase, kBase + kSymbol * (address.size() + 1), 0, "/opt/model.so");
  uint64_t next = 0;
  for (auto& [name, ip] : address) {
    const uint64_t start = kBase + kSymbol * next;
    w.ProcessSymbol(0, 1, next + 1, 1, start, start + kSymbol, name);
    ip = start + 0x10, ++next;
  }
  uint64_t ts = 1000;
  for (size_t p = 0; p < m.paths.size(); ++p) {
    if (counts[p] == 0) continue;
    std::vector<uint64_t> leafFirst;
    for (auto f = m.paths[p].rbegin(); f != m.paths[p].rend(); ++f) leafFirst.push_back(address[*f]);
    const uint32_t stack = w.AddStack(leafFirst);
    for (uint64_t i = 0; i < counts[p]; ++i) w.Cpu(ts += 1000000, 1, 1000000, stack);
  }
  return w.Finish(out);
}

}  // namespace nettrace::test
