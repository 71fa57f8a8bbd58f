#include "export/chrome_spans.h"

#include <cstdio>

#include "analysis/event_query.h"
#include "analysis/view_format.h"
#include "events/trace_clock.h"

namespace nettrace {

namespace {
std::string Ms6(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}
}  // namespace

std::vector<ChromeSpan> ChromeSpans(const TraceInfo& info, const std::vector<ActivityView::Finished>& activities,
                                    const std::vector<GcRecord>& gcs) {
  std::vector<ChromeSpan> out;
  for (const ActivityView::Finished& a : activities) {
    // The duration in whole nanoseconds, as the activities view gives it.
    const double durMs = static_cast<double>(TraceClock(info).Ns(a.stop - a.start)) / 1e6;
    out.push_back({a.name, a.provider, TicksToMs(info, a.start), durMs, a.startThread,
                   {{"depth", std::to_string(a.depth)}}});
  }
  for (const GcRecord& gc : gcs) {
    const std::string n = std::to_string(gc.number);
    const std::vector<std::pair<std::string, std::string>> args = {
        {"number", n}, {"generation", std::to_string(gc.generation)}, {"type", GcTypeName(gc.type)},
        {"reason", GcReasonName(gc.reason)}, {"processId", std::to_string(gc.processId)}};
    out.push_back({"GC #" + n, "GC", gc.startMs, gc.durationMs, 0, args});
    // TraceGC's pause runs from the suspension's start to the restart's end; its
    // suspension part ends at SuspendEEStop.
    if (gc.pauseMs > 0) {
      out.push_back({"GC pause #" + n, "GC", gc.pauseStartMs, gc.pauseMs, 0, {{"pauseMs", Ms6(gc.pauseMs)}}});
      if (gc.suspendMs > 0)
        out.push_back({"GC suspension #" + n, "GC", gc.pauseStartMs, gc.suspendMs, 0, {{"suspendMs", Ms6(gc.suspendMs)}}});
    }
  }
  return out;
}

}  // namespace nettrace
