// core/export — what the sampled and the evented speedscope exports share, written a part at
// a time (export_stream.h): the document's head, one profile per thread (threads in index
// order, each with its selection entries in time order), then `shared.frames`: the frames the
// profiles used, numbered in first-use order. A subclass writes a profile's head and its items.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/call_tree.h"
#include "base/json_writer.h"
#include "export/export_stream.h"

namespace nettrace {

// The frames a document's profiles use, numbered in first-use order: shared.frames.
class SpeedscopeFrames {
 public:
  // `frame`'s index in shared.frames, numbered at its first use.
  uint32_t Index(uint32_t frame);
  const std::vector<uint32_t>& used() const { return used_; }

 private:
  std::unordered_map<uint32_t, uint32_t> index_;
  std::vector<uint32_t> used_;
};

class SpeedscopeDocument : public ItemStream {
 protected:
  SpeedscopeDocument(const TraceModel& model, const StackSelection& sel, StackResolver* resolver,
                     const std::string& name);

  // The profile speedscope opens on (activeProfileIndex).
  virtual size_t ActiveProfile() const { return 0; }
  // Writes the head of the profile of `thread` (its selection entries: `entries`), up to and
  // including the opening of its first array.
  virtual void BeginProfile(uint16_t thread, const std::vector<size_t>& entries) = 0;
  // Writes the profile's next item; at its end closes its arrays and returns false.
  virtual bool ProfileStep() = 0;

  const TraceModel& model_;
  const StackSelection& sel_;
  StackResolver* resolver_;
  std::map<uint16_t, std::vector<size_t>> byThread_;  // thread → selection entries, time order
  SpeedscopeFrames frames_;
  JsonWriter w_;

 private:
  bool Step(std::string* out) final;

  enum class Phase { kHead, kProfile, kItems, kFrames, kDone };
  const std::string name_;
  std::map<uint16_t, std::vector<size_t>>::const_iterator thread_;
  Phase phase_ = Phase::kHead;
  size_t next_ = 0;
};

}  // namespace nettrace
