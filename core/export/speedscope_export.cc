// The sampled speedscope export, written a part at a time (export_stream.h): the head, then
// per thread its profile's head, samples and weights, then the frames the samples used.
#include <map>
#include <unordered_map>

#include "base/json_writer.h"
#include "base/saturating.h"
#include "export/export_stream.h"
#include "export/exports.h"

namespace nettrace {

namespace {

class SpeedscopeSampled : public ItemStream {
 public:
  SpeedscopeSampled(const StoreBuilder& model, const StackSelection& sel, StackResolver* resolver,
                    const std::string& name)
      : model_(model), sel_(sel), resolver_(resolver), name_(name) {
    for (size_t i = 0; i < sel.size(); ++i) byThread_[sel.threads[i]].push_back(i);  // time order
    thread_ = byThread_.begin();
  }

 protected:
  bool Step(std::string* out) override {
    switch (phase_) {
      case Phase::kHead:
        w_.BeginObject();
        w_.Key("$schema").String("https://www.speedscope.app/file-format-schema.json");
        w_.Key("exporter").String("nettrace-analyzer");
        w_.Key("name").String(name_);
        w_.Key("activeProfileIndex").UInt(0);
        w_.Key("profiles").BeginArray();
        phase_ = Phase::kProfile;
        break;
      case Phase::kProfile:
        if (thread_ == byThread_.end()) {
          w_.EndArray();
          w_.Key("shared").BeginObject().Key("frames").BeginArray();
          phase_ = Phase::kFrames, next_ = 0;
        } else {
          ProfileHead();
          phase_ = Phase::kSamples, next_ = 0;
        }
        break;
      case Phase::kSamples:
        if (next_ < thread_->second.size()) {
          Sample(thread_->second[next_++]);
        } else {
          w_.EndArray();
          w_.Key("weights").BeginArray();
          phase_ = Phase::kWeights, next_ = 0;
        }
        break;
      case Phase::kWeights:
        if (next_ < thread_->second.size()) {
          w_.UInt(sel_.weights[thread_->second[next_++]]);
        } else {
          w_.EndArray();
          w_.EndObject();
          ++thread_;
          phase_ = Phase::kProfile;
        }
        break;
      case Phase::kFrames:
        if (next_ < frames_.size()) {
          w_.BeginObject().Key("name").String(resolver_->frames().name(frames_[next_++])).EndObject();
        } else {
          w_.EndArray().EndObject();
          w_.EndObject();
          phase_ = Phase::kDone;
        }
        break;
      case Phase::kDone:
        return false;
    }
    w_.MoveTo(out);
    return true;
  }

 private:
  enum class Phase { kHead, kProfile, kSamples, kWeights, kFrames, kDone };

  void ProfileHead() {
    uint64_t total = 0;
    for (size_t i : thread_->second) total = SatAdd(total, sel_.weights[i]);
    w_.BeginObject();
    w_.Key("type").String("sampled");
    w_.Key("name").String(resolver_->frames().name(ThreadFrame(model_, resolver_, thread_->first)));
    // Counted samples carry no duration of their own: their unit is "none".
    w_.Key("unit").String(sel_.unit == WeightUnit::kSamples ? "none" : WeightUnitName(sel_.unit));
    w_.Key("startValue").UInt(0);
    w_.Key("endValue").UInt(total);
    w_.Key("samples").BeginArray();
  }

  // One sample's frames, numbered in first-use order.
  void Sample(size_t i) {
    w_.BeginArray();
    for (uint32_t f : resolver_->stacks().Frames(sel_.callStacks[i])) {
      auto [it, added] = frameIndex_.emplace(f, static_cast<uint32_t>(frames_.size()));
      if (added) frames_.push_back(f);
      w_.UInt(it->second);
    }
    w_.EndArray();
  }

  const StoreBuilder& model_;
  const StackSelection& sel_;
  StackResolver* resolver_;
  const std::string name_;
  std::map<uint16_t, std::vector<size_t>> byThread_;  // thread → selection entries, time order
  std::map<uint16_t, std::vector<size_t>>::const_iterator thread_;
  std::unordered_map<uint32_t, uint32_t> frameIndex_;
  std::vector<uint32_t> frames_;
  JsonWriter w_;
  Phase phase_ = Phase::kHead;
  size_t next_ = 0;
};

}  // namespace

std::unique_ptr<ExportStream> SpeedscopeStream(const StoreBuilder& model, const StackSelection& selection,
                                               StackResolver* resolver, const std::string& name) {
  return std::make_unique<SpeedscopeSampled>(model, selection, resolver, name);
}

std::string ExportSpeedscope(const StoreBuilder& model, const StackSelection& sel, StackResolver* resolver,
                             const std::string& name) {
  return DrainExport(SpeedscopeStream(model, sel, resolver, name).get());
}

}  // namespace nettrace
