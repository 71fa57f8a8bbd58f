// core/analysis — a call tree laid out for drawing (the engine lays out, the canvas only
// draws): one entry per node in depth-first order, children left to right by frame name,
// x in weight units from 0 to the root's inclusive weight. Struct of arrays, so the wasm
// bridge can hand each column over as one typed array.
// Invariants: entry 0 is the root at depth 0 spanning [0, total); every child lies inside
// its parent's span, one row deeper; siblings do not overlap.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/call_tree.h"

namespace nettrace {

struct FlameGraph {
  std::vector<std::string> frameNames;  // frame index → name (only frames used here)
  // frame index → detail (a JIT'd method's optimization level), "" for most frames.
  std::vector<std::string> frameDetails;
  std::vector<uint32_t> frame;          // per node: index into frameNames
  std::vector<uint32_t> parent;         // per node: node index (root: itself, 0)
  std::vector<uint32_t> depth;
  std::vector<uint64_t> start;  // x start, weight units
  std::vector<uint64_t> end;    // x end = start + inclusive
  std::vector<uint64_t> self;   // exclusive weight
  std::vector<uint64_t> count;  // events through the node
  uint64_t total = 0;
  WeightUnit unit = WeightUnit::kSamples;
  const char* stitching = nullptr;  // StackSelection::stitching
  const char* stitchingReason = nullptr;
  size_t size() const { return frame.size(); }
};

FlameGraph LayoutFlameGraph(const CallTree& tree, const FrameTable& frames, WeightUnit unit);

// Whether some frame has a detail: only then do the JSON and the wasm columns carry them.
inline bool HasFrameDetails(const FlameGraph& g) {
  for (const std::string& d : g.frameDetails)
    if (!d.empty()) return true;
  return false;
}

// {"unit":"samples"|"bytes"|"nanoseconds"|"objects","total":N,"frames":[names],
//  ["frameDetails":[details] only when some frame has one],"frame":[...],"parent":[...],
//  "depth":[...],"start":[...],"end":[...],"self":[...],"count":[...]
//  [,"asyncStitching":{"state":"on"|"off"|"unavailable"[,"reason":why]} traceevent-thread-time only]}
std::string FlameGraphToJson(const FlameGraph& graph);

}  // namespace nettrace
