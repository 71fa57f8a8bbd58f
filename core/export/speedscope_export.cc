// The sampled speedscope export: per thread one "sampled" profile, its samples (each a list of
// frame indexes, root first) then their weights (speedscope_document.h writes the rest).
#include "base/saturating.h"
#include "export/exports.h"
#include "export/speedscope_document.h"

namespace nettrace {

namespace {

class SpeedscopeSampled : public SpeedscopeDocument {
 public:
  SpeedscopeSampled(const TraceModel& model, const StackSelection& sel, StackResolver* resolver,
                    const std::string& name)
      : SpeedscopeDocument(model, sel, resolver, name) {}

 protected:
  void BeginProfile(uint16_t thread, const std::vector<size_t>& entries) override {
    entries_ = &entries;
    uint64_t total = 0;
    for (size_t i : entries) total = SatAdd(total, sel_.weights[i]);
    w_.Key("type").String("sampled");
    w_.Key("name").String(resolver_->frames().name(ThreadFrame(model_, resolver_, thread)));
    // Counted samples carry no duration of their own: their unit is "none" (speedscope has
    // no unit for counts of objects either).
    const bool counted = sel_.unit == WeightUnit::kSamples || sel_.unit == WeightUnit::kObjects;
    w_.Key("unit").String(counted ? "none" : WeightUnitName(sel_.unit));
    w_.Key("startValue").UInt(0);
    w_.Key("endValue").UInt(total);
    w_.Key("samples").BeginArray();
    next_ = 0, weights_ = false;
  }

  bool ProfileStep() override {
    if (next_ < entries_->size()) {
      const size_t i = (*entries_)[next_++];
      if (weights_) {
        w_.UInt(sel_.weights[i]);
      } else {
        w_.BeginArray();
        for (uint32_t f : resolver_->stacks().Frames(sel_.callStacks[i])) w_.UInt(frames_.Index(f));
        w_.EndArray();
      }
      return true;
    }
    w_.EndArray();
    if (weights_) return false;
    w_.Key("weights").BeginArray();
    next_ = 0, weights_ = true;
    return true;
  }

 private:
  const std::vector<size_t>* entries_ = nullptr;
  size_t next_ = 0;
  bool weights_ = false;  // samples written: now their weights
};

}  // namespace

std::unique_ptr<ExportStream> SpeedscopeStream(const TraceModel& model, const StackSelection& selection,
                                               StackResolver* resolver, const std::string& name) {
  return std::make_unique<SpeedscopeSampled>(model, selection, resolver, name);
}

std::string ExportSpeedscope(const TraceModel& model, const StackSelection& sel, StackResolver* resolver,
                             const std::string& name) {
  return DrainExport(SpeedscopeStream(model, sel, resolver, name).get());
}

}  // namespace nettrace
