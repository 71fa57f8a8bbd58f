// Issue 4: managed frames of real traces get their names from the runtime's own method
// events. The set of frames that CAN be named is computed here independently: a second
// read of the file collects the announced method ranges straight from the payloads
// (MethodStartAddress and MethodSize at their manifest offsets), with no lifetimes, no
// merging and no name lookups. A sample is "allowed" to have an unresolved frame only
// when one of its instruction pointers lies outside every announced range.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "analysis/top_functions.h"
#include "format/clr_events.generated.h"
#include "format/provider_family.h"
#include "format/trace_reader.h"
#include "unit/stacks/stacks_test_support.h"

namespace nettrace {
namespace {

class AnnouncedRanges final : public RecordSink {
 public:
  Status OnMetadata(const EventMetadata& m) override {
    const clr::Provider p = ClrProviderOf(m.providerName);
    const bool load = (p == clr::Provider::kRuntime && (m.eventId == 141 || m.eventId == 143)) ||
                      (p == clr::Provider::kRundown && m.eventId >= 141 && m.eventId <= 144);
    if (load) {
      // The manifest's layout: MethodID, ModuleID, MethodStartAddress, MethodSize, ...
      const clr::EventInfo* info = clr::FindEvent(p, m.eventId, m.version);
      REQUIRE(info != nullptr);
      REQUIRE(std::strcmp(info->fields[2].name, "MethodStartAddress") == 0);
      REQUIRE(std::strcmp(info->fields[3].name, "MethodSize") == 0);
      methodMetadata_.push_back(m.id);
    } else {
      methodMetadata_.erase(std::remove(methodMetadata_.begin(), methodMetadata_.end(), m.id), methodMetadata_.end());
    }
    return Status::Ok();
  }
  Status OnEvent(const EventRecord& e) override {
    if (std::find(methodMetadata_.begin(), methodMetadata_.end(), e.metadataId) == methodMetadata_.end())
      return Status::Ok();
    if (e.payload.size() < 28) return Status::Ok();
    uint64_t start = 0;
    uint32_t size = 0;
    std::memcpy(&start, e.payload.data() + 16, 8);
    std::memcpy(&size, e.payload.data() + 24, 4);
    ranges.emplace_back(start, start + size);
    return Status::Ok();
  }
  bool Contains(uint64_t ip) const {
    for (const auto& [b, e] : ranges)
      if (ip >= b && ip < e) return true;
    return false;
  }
  std::vector<std::pair<uint64_t, uint64_t>> ranges;

 private:
  std::vector<uint32_t> methodMetadata_;
};

void CheckSymbolization(const std::string& name) {
  const std::vector<uint8_t> bytes = test::ReadFile(test::DataPath(name));
  AnnouncedRanges announced;
  TraceReader reader(&announced);
  REQUIRE(reader.Push(bytes.data(), bytes.size()).ok());
  REQUIRE(reader.Finish().ok());
  REQUIRE(!announced.ranges.empty());

  auto session = test::LoadCorpus(name);
  const TraceModel& model = session->model();
  StackResolver resolver(model, session->symbols());
  StackSelection sel = SelectStacks(model, session->symbols(), &resolver, StackQuery{});
  REQUIRE(sel.size() > 0);

  size_t allowed = 0, measured = 0, namedFrames = 0, misnamed = 0;
  for (size_t i = 0; i < sel.size(); ++i) {
    // Instruction pointers straight from the store's stack bytes, leaf first.
    std::vector<uint64_t> ips = resolver.Addresses(model.store().stack(sel.rows[i]));
    std::vector<uint32_t> frames = resolver.stacks().Frames(sel.callStacks[i]);
    if (!frames.empty() && resolver.frames().name(frames.back()) == kExternalFrameName) frames.pop_back();
    REQUIRE(frames.size() == ips.size());
    bool outside = false, unresolved = false;
    for (size_t k = 0; k < ips.size(); ++k) {
      const uint32_t f = frames[frames.size() - 1 - k];  // frames are root first
      const bool inRange = announced.Contains(ips[k]);
      outside |= !inRange;
      unresolved |= resolver.frames().kind(f) != FrameKind::kManaged;
      if (inRange) {
        ++namedFrames;
        const std::string& n = resolver.frames().name(f);
        // Every frame inside an announced range is named "Module!Type.Method".
        if (resolver.frames().kind(f) != FrameKind::kManaged || n.find('!') == std::string::npos ||
            n.rfind("0x", 0) == 0 || n.find("MethodID(") != std::string::npos)
          ++misnamed;
      }
    }
    allowed += outside;
    measured += unresolved;
  }
  std::printf("[stacks] %s: %zu samples; with an unresolved frame: %zu (%.2f%%); allowed by the trace's "
              "method events: %zu (%.2f%%); frames inside announced ranges: %zu\n",
              name.c_str(), sel.size(), measured, 100.0 * measured / sel.size(), allowed,
              100.0 * allowed / sel.size(), namedFrames);
  CHECK(misnamed == 0);
  CHECK(measured <= allowed);
  CHECK(namedFrames > 0);
}

TEST_CASE("stacks: every frame inside an announced method range is named (only_managed_samples)", "[stacks]") {
  CheckSymbolization("only_managed_samples.nettrace");
}

TEST_CASE("stacks: every frame inside an announced method range is named (HeartRateMonitor, 32-bit)", "[stacks]") {
  CheckSymbolization("HeartRateMonitor.10068.nettrace");
}

TEST_CASE("stacks: names follow PerfView's Module!Namespace.Type.Method form", "[stacks]") {
  auto session = test::LoadCorpus("only_managed_samples.nettrace");
  StackResolver resolver(session->model(), session->symbols());
  StackSelection sel = SelectStacks(session->model(), session->symbols(), &resolver, StackQuery{});
  std::vector<FunctionStat> top = TopFunctions(sel, resolver);
  REQUIRE(!top.empty());
  CHECK(resolver.frames().name(top[0].frame) == "NoNativeStacks!NoNativeStacks.Program.FindByte");
  for (const FunctionStat& f : top) CHECK(resolver.frames().name(f.frame).find('(') == std::string::npos);
}

}  // namespace
}  // namespace nettrace
