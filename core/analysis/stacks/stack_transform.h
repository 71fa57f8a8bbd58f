// core/analysis — grouping, folding and filtering of a stack selection, PerfView's way
// (its FilterStackSource, facts only): each call stack of the selection is rewritten frame by
// frame from the root, with one answer per frame name and one per call stack, so the cost is
// proportional to distinct frames and stacks, not to events. Weights never change: a folded
// frame's weight goes to its caller, a dropped stack's weight leaves the selection's total.
// Rules in order, per frame: dropTimeLeaves (leaves only), justMyCode, groupByModule,
// groupPats, then excludePats and foldPats on the grouped name; includePats on the stack.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/stacks/call_tree.h"
#include "analysis/stacks/frame_pattern.h"

namespace nettrace {

// Whether a frame name is in the framework for justMyCode (see StackTransformOptions).
bool IsFrameworkFrame(const std::string& frameName);

class StackTransformer {
 public:
  static constexpr uint32_t kDiscard = UINT32_MAX;
  StackTransformer(const StackTransformOptions& options, StackResolver* resolver);
  // The rewritten call stack (in the resolver's tables), or kDiscard.
  uint32_t Map(uint32_t callStack);

 private:
  struct Group {
    FramePattern pattern;
    std::string name;
    bool entry;
  };
  struct FrameRule {
    bool known = false, discard = false, fold = false, entry = false;
    int32_t group = -1;  // group id (index into groupNames_), -1: none
    uint32_t frame = 0;  // the frame after grouping
    uint32_t incMask = 0;
  };
  struct StackState {
    bool known = false, discard = false;
    uint32_t stack = 0;
    int32_t group = -1;
    uint32_t incMask = 0;
  };
  const FrameRule& RuleOf(uint32_t frame);
  std::string GroupName(const std::string& name, bool* entry, int32_t* group);
  StackState Step(const StackState& parent, uint32_t frame);
  StackState StateOf(uint32_t callStack);

  const StackTransformOptions& options_;
  StackResolver* resolver_;
  std::vector<Group> groups_;
  std::vector<FramePattern> folds_, excludes_, includes_;
  std::vector<std::string> groupNames_;
  std::vector<FrameRule> rules_;     // by frame
  std::vector<StackState> states_;   // by original call stack
  uint32_t allIncludes_ = 0;
};

// Rewrites the selection in place (callStacks; entries of dropped stacks removed from every
// column, totalWeight lowered by their weight). No-op when !options.active().
void ApplyStackTransform(const StackTransformOptions& options, StackResolver* resolver, StackSelection* selection);

}  // namespace nettrace
