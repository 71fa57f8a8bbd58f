// core/export/profile — builds a ProfileData (profile_data.h) from a trace: each candidate
// sample type (sample_types.h) is one stack selection, made as the flame graph of that
// `--event` and `--weight` makes it (the caller's `select`: the view's refined selection,
// with grouping, folding and the time range applied), all naming frames through one
// resolver so that the types share functions and stacks. Samples are the distinct
// (thread, call stack) pairs of all selections; a selection is dropped once aggregated, so
// the peak is one selection's columns plus the profile.
#pragma once

#include <functional>

#include "analysis/call_tree.h"
#include "base/status.h"
#include "export/profile/profile_data.h"
#include "export/profile/sample_types.h"

namespace nettrace {

// The stack selection of one query (event and weight set), naming frames with `resolver`.
using ProfileSelect = std::function<StackSelection(const StackQuery& query, StackResolver* resolver)>;

// Fails (kInvalidArgument) when no candidate type has events: nothing to profile. Without
// `--event` the types whose selection is empty are left out; with it they stay, empty.
Status BuildProfile(const TraceModel& model, const SymbolCollector& symbols, const ProfileRequest& request,
                    const ProfileSelect& select, ProfileData* out);

// How a frame name splits into pprof's function fields: "Module!Namespace.Type.Method" →
// name "Namespace.Type.Method", file "Module"; a frame without a module ("Thread (12)",
// "UNMANAGED_CODE_TIME") or without a method ("coreclr!?", "?!?") keeps its whole name.
void SplitFrameName(const std::string& frame, std::string* name, std::string* file);

}  // namespace nettrace
