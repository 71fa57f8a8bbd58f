#include "export/speedscope_document.h"

namespace nettrace {

SpeedscopeDocument::SpeedscopeDocument(const TraceModel& model, const StackSelection& sel, StackResolver* resolver,
                                       const std::string& name)
    : model_(model), sel_(sel), resolver_(resolver), name_(name) {
  for (size_t i = 0; i < sel.size(); ++i) byThread_[sel.threads[i]].push_back(i);
  thread_ = byThread_.begin();
}

uint32_t SpeedscopeFrames::Index(uint32_t frame) {
  auto [it, added] = index_.emplace(frame, static_cast<uint32_t>(used_.size()));
  if (added) used_.push_back(frame);
  return it->second;
}

bool SpeedscopeDocument::Step(std::string* out) {
  switch (phase_) {
    case Phase::kHead:
      w_.BeginObject();
      w_.Key("$schema").String("https://www.speedscope.app/file-format-schema.json");
      w_.Key("exporter").String("nettrace-analyzer");
      w_.Key("name").String(name_);
      w_.Key("activeProfileIndex").UInt(ActiveProfile());
      w_.Key("profiles").BeginArray();
      phase_ = Phase::kProfile;
      break;
    case Phase::kProfile:
      if (thread_ == byThread_.end()) {
        w_.EndArray();
        w_.Key("shared").BeginObject().Key("frames").BeginArray();
        phase_ = Phase::kFrames, next_ = 0;
      } else {
        w_.BeginObject();
        BeginProfile(thread_->first, thread_->second);
        phase_ = Phase::kItems;
      }
      break;
    case Phase::kItems:
      if (!ProfileStep()) {
        w_.EndObject();
        ++thread_;
        phase_ = Phase::kProfile;
      }
      break;
    case Phase::kFrames:
      if (next_ < frames_.used().size()) {
        w_.BeginObject().Key("name").String(resolver_->frames().name(frames_.used()[next_++])).EndObject();
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

}  // namespace nettrace
