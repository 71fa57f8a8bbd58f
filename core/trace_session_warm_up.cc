// WarmUpEngine: one read of a written profile-shaped trace through the whole facade, so that
// a browser has compiled (and begun to optimize) the code a user's first trace runs before
// that trace arrives: without it, a 0.5 MB trace's first read spent most of its time in the
// browser's wasm compilers (a baseline compile of each function on its first call, the
// optimized one only after it has run a while).
#include <algorithm>
#include <vector>

#include "analysis/stacks/call_tree.h"
#include "trace_session.h"
#include "write/warm_up_trace.h"

namespace nettrace {

Status WarmUpEngine(std::string* summaryJson) {
  std::vector<uint8_t> bytes;
  Status s = WriteWarmUpTrace(&bytes);
  if (!s.ok()) return s;
  TraceSession session;
  // In 64 KiB chunks, as a File's chunks arrive (blocks then straddle chunks).
  constexpr size_t kChunk = size_t{64} << 10;
  for (size_t at = 0; at < bytes.size() && s.ok(); at += kChunk)
    s = session.PushChunk(bytes.data() + at, std::min(kChunk, bytes.size() - at));
  if (s.ok()) s = session.Finish();
  if (!s.ok()) return s;
  // What a first look at a trace asks for; the results themselves are not needed.
  std::string summary = session.SummaryJson();
  (void)session.FlameGraphJson(StackQuery{});
  (void)session.GcJson();
  (void)session.JitJson();
  if (summaryJson) *summaryJson = std::move(summary);
  return Status::Ok();
}

}  // namespace nettrace
