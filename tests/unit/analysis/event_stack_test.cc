// TraceSession::EventStack: one event's frames, leaf first, named as the flame graph names
// them. Checked against the folded export, which aggregates the same events through the
// call-tree path: per-event stacks reversed, joined and counted must give its lines exactly.
#include <map>

#include "unit/stacks/stacks_test_support.h"

namespace nettrace {

TEST_CASE("event stack: every sample's frames add up to the folded stacks", "[analysis][corpus]") {
  for (const std::string& name : test::CorpusTraces()) {
    INFO(name);
    auto session = test::LoadCorpus(name);
    const TraceModel& m = session->model();
    std::map<std::string, uint64_t> folded;
    size_t samples = 0;
    for (size_t row = 0; row < m.store().size(); ++row) {
      const EventType& t = m.types()[m.store().type(row)];
      if (t.knownProvider != KnownProvider::kSampleProfiler || t.metadata.eventId != 0) continue;
      ++samples;
      const std::vector<std::string> frames = session->EventStack(static_cast<uint32_t>(row));
      std::string line;
      for (auto it = frames.rbegin(); it != frames.rend(); ++it) line += (line.empty() ? "" : ";") + *it;
      if (!line.empty()) ++folded[line];
    }
    std::string expected;
    for (const auto& [line, count] : folded) expected += line + " " + std::to_string(count) + "\n";
    CHECK(session->FoldedStacks(StackQuery{}) == expected);
    if (name == "only_managed_samples.nettrace") CHECK(samples > 0);
  }
}

TEST_CASE("event stack: rows without a stack and rows out of range give no frames", "[analysis]") {
  auto session = test::LoadCorpus("only_managed_samples.nettrace");
  const TraceModel& m = session->model();
  CHECK(session->EventStack(static_cast<uint32_t>(m.store().size())).empty());
  size_t checked = 0;
  for (size_t row = 0; row < m.store().size() && checked < 50; ++row) {
    if (m.store().stack(row).value != 0) continue;
    const EventType& t = m.types()[m.store().type(row)];
    if (t.knownProvider == KnownProvider::kSampleProfiler) continue;
    CHECK(session->EventStack(static_cast<uint32_t>(row)).empty());
    ++checked;
  }
}

}  // namespace nettrace
