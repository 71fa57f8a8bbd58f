// core/analysis — how a stack view regroups, folds and filters its stacks,
// PerfView's stack-view text boxes plus presets. A part of StackQuery (call_tree.h); the
// transform itself is analysis/stacks/stack_transform.h. The lists are ';'-separated patterns in
// PerfView's language (analysis/stacks/frame_pattern.h).
#pragma once

#include <string>

namespace nettrace {

struct StackTransformOptions {
  // GroupPats: "pattern->name" (every matching frame becomes the frame "name"; consecutive
  // frames of one group become one), "pattern=>name" (an entry group: the frame is
  // "name <<frame>>" for the frame that entered the group, later members of the group merge
  // into it), or a bare pattern (the group is named by the matched text). $1..$9 in a name
  // are the pattern's {} captures, $& the whole match. A frame renamed by a "->" group goes on
  // through the later patterns under its new name; an entry group ends the matching.
  std::string groupPats;
  // FoldPats: a matching frame (after grouping) is removed and its weight charged to its caller.
  std::string foldPats;
  // ExcPats: a stack with any frame matching (after grouping) is left out.
  std::string excludePats;
  // IncPats: only stacks on which every pattern matches some frame (after grouping and folding).
  std::string includePats;
  // Each frame becomes its module: the text before its first '!' and the '!' ("System.Private.
  // CoreLib!"); frames without '!' (ROOT, thread, CPU_TIME, UNMANAGED_CODE_TIME) stay. Applied
  // before groupPats.
  bool groupByModule = false;
  // "Just my code": framework frames become the entry group "OTHER <<frame>>" (PerfView's
  // Just My App form), so each call from the application into the framework is one frame.
  // Framework = module System / System.* / Microsoft.* / mscorlib / netstandard, the runtime's
  // native modules (coreclr, clrjit, hostfxr, hostpolicy, System.*.Native shims, in any
  // lib*/.so/.dll/.dylib spelling), OS modules (ntdll, kernel32, kernelbase, libc, libpthread,
  // ld-linux, libstdc++, libgcc_s, [kernel...]) and "?!?" (an address in no known module).
  // Frames without '!' stay. Applied first.
  bool justMyCode = false;
  // Leaves named CPU_TIME, UNMANAGED_CODE_TIME, "?!?" or "module!?" are folded into their
  // caller (repeatedly), before any other rule.
  bool dropTimeLeaves = false;

  bool active() const {
    return !groupPats.empty() || !foldPats.empty() || !excludePats.empty() || !includePats.empty() || groupByModule ||
           justMyCode || dropTimeLeaves;
  }
};

// Sets one option from its CLI spelling (--group-pats P, --fold-pats P, --exclude-pats P,
// --include-pats P, --group-by-module, --just-my-code, --drop-time-leaves); `value` is used by
// the options that take one. Returns 0 when `flag` is not one of them, 1 for a flag without a
// value, 2 for a flag that consumed `value` (nullptr: missing, then -1).
int SetStackTransformOption(const char* flag, const char* value, StackTransformOptions* options);

}  // namespace nettrace
