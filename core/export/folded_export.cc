// Folded stacks, a line at a time. The lines are sorted as text, but never all made at once:
// each holds its frames and weight, and two are compared byte by byte as their text would
// be (std::string's order), frames the two share at their start skipped whole.
#include <algorithm>
#include <map>
#include <vector>

#include "base/saturating.h"
#include "export/export_stream.h"
#include "export/exports.h"

namespace nettrace {

namespace {

// "a;b;c weight": its frames root first and its weight.
struct FoldedLine {
  std::vector<uint32_t> path;
  uint64_t weight;
};

// The bytes of a line from the start of its frame `frame` (the ';' before it included),
// then ' ' and the weight: -1 after the last.
class LineBytes {
 public:
  LineBytes(const FoldedLine& line, const FrameTable& frames, size_t frame)
      : line_(line), frames_(frames), frame_(frame), separator_(frame > 0) {}

  int Next() {
    for (;;) {
      if (frame_ < line_.path.size()) {
        if (separator_) {
          separator_ = false;
          return ';';
        }
        const std::string& name = frames_.name(line_.path[frame_]);
        if (at_ < name.size()) return static_cast<unsigned char>(name[at_++]);
        ++frame_, at_ = 0, separator_ = true;
        continue;
      }
      if (weight_.empty()) weight_ = ' ' + std::to_string(line_.weight);
      return at_ < weight_.size() ? static_cast<unsigned char>(weight_[at_++]) : -1;
    }
  }

 private:
  const FoldedLine& line_;
  const FrameTable& frames_;
  size_t frame_, at_ = 0;
  bool separator_;
  std::string weight_;
};

bool TextBefore(const FoldedLine& a, const FoldedLine& b, const FrameTable& frames) {
  size_t same = 0;  // equal frames have equal names: their bytes need no comparing
  while (same < a.path.size() && same < b.path.size() && a.path[same] == b.path[same]) ++same;
  LineBytes x(a, frames, same), y(b, frames, same);
  for (;;) {
    const int cx = x.Next(), cy = y.Next();
    if (cx != cy) return cx < cy;
    if (cx < 0) return false;
  }
}

class Folded : public ItemStream {
 public:
  Folded(const TraceModel& model, const StackSelection& sel, StackResolver* resolver, bool groupByThread)
      : resolver_(resolver) {
    std::map<uint64_t, uint64_t> weights;  // (thread << 32 | call stack) → weight
    for (size_t i = 0; i < sel.size(); ++i) {
      uint64_t& w = weights[(groupByThread ? uint64_t{sel.threads[i]} << 32 : 0) | sel.callStacks[i]];
      w = SatAdd(w, sel.weights[i]);
    }
    const FrameTable& frames = resolver->frames();
    for (const auto& [key, weight] : weights) {
      std::vector<uint32_t> path = resolver->stacks().Frames(static_cast<uint32_t>(key));
      if (groupByThread) path.insert(path.begin(), ThreadFrame(model, resolver, static_cast<uint16_t>(key >> 32)));
      // A line with no text (no frame, or one unnamed frame) or no weight is left out.
      if (path.empty() || (path.size() == 1 && frames.name(path[0]).empty()) || weight == 0) continue;
      lines_.push_back({std::move(path), weight});
    }
    std::sort(lines_.begin(), lines_.end(),
              [&frames](const FoldedLine& a, const FoldedLine& b) { return TextBefore(a, b, frames); });
  }

 protected:
  bool Step(std::string* out) override {
    if (next_ >= lines_.size()) return false;
    const FoldedLine& line = lines_[next_++];
    for (size_t i = 0; i < line.path.size(); ++i) {
      if (i > 0) *out += ';';
      *out += resolver_->frames().name(line.path[i]);
    }
    *out += ' ' + std::to_string(line.weight) + '\n';
    return true;
  }

 private:
  StackResolver* resolver_;
  std::vector<FoldedLine> lines_;
  size_t next_ = 0;
};

}  // namespace

std::unique_ptr<ExportStream> FoldedStream(const TraceModel& model, const StackSelection& selection,
                                           StackResolver* resolver, bool groupByThread) {
  return std::make_unique<Folded>(model, selection, resolver, groupByThread);
}

std::string ExportFolded(const TraceModel& model, const StackSelection& sel, StackResolver* resolver,
                         bool groupByThread) {
  return DrainExport(FoldedStream(model, sel, resolver, groupByThread).get());
}

}  // namespace nettrace
