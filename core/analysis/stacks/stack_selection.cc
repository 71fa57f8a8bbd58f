#include "analysis/stacks/stack_selection.h"

#include <string>

#include "analysis/query/event_filter.h"
#include "analysis/query/event_query.h"

namespace nettrace {

const char* WeightUnitName(WeightUnit unit) {
  switch (unit) {
    case WeightUnit::kBytes: return "bytes";
    case WeightUnit::kNanoseconds: return "nanoseconds";
    case WeightUnit::kObjects: return "objects";
    case WeightUnit::kSamples: break;
  }
  return "samples";
}

uint32_t ThreadFrame(const TraceModel& model, StackResolver* resolver, uint16_t thread) {
  const ThreadEntry& t = model.threads()[ThreadIndex(thread)];
  return resolver->frames().Intern("Thread (" + std::to_string(t.osThreadId.value_or(t.key)) + ")",
                                   FrameKind::kSynthetic);
}

uint32_t ProcessFrame(const TraceModel& model, const SymbolCollector& symbols, StackResolver* resolver,
                      uint16_t thread) {
  const ThreadEntry& t = model.threads()[ThreadIndex(thread)];
  if (!t.processId) return resolver->frames().Intern("Process (?)", FrameKind::kSynthetic);
  std::string name;
  for (const UniversalProcess& p : symbols.universal().symbols().processes())
    if (p.pid == *t.processId) name = p.name;
  return resolver->frames().Intern(
      (name.empty() ? std::string("Process (") : "Process " + name + " (") + std::to_string(*t.processId) + ")",
      FrameKind::kSynthetic);
}

bool AutoMeansTraceEventThreadTime(const TraceModel& model, const StackQuery& q) {
  if (q.weight != WeightKind::kAuto || q.event != "Thread/Sample") return false;
  for (size_t t = 0; t < model.types().size(); ++t) {
    const EventType& type = model.types()[EventTypeIndex(static_cast<uint16_t>(t))];
    if (IsSampleProfilerSample(type) && TypeMatches(type, q.provider, "") && type.name == q.event) return true;
  }
  return false;
}

}  // namespace nettrace
