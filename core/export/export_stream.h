// core/export — an export produced a part at a time, so that a document of any size (a CSV
// with every event's stack text runs to gigabytes) is written with bounded memory: the
// caller asks for the next part, writes it where it goes (a file, a JS stream), and asks
// again. Each format is a small state machine over its items (lines, samples, profile
// heads); the whole-string functions of exports.h drain one.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>

namespace nettrace {

class ExportStream {
 public:
  virtual ~ExportStream() = default;
  // Appends the document's next part to *out: whole items until it has appended at least
  // `budget` bytes (so a part may pass the budget by one item).
  // @returns false when the document was already complete (nothing appended).
  virtual bool Next(std::string* out, size_t budget) = 0;
};

// An ExportStream over one item at a time: Step appends the next item (a line, an array
// element, a profile's head) and returns true, or returns false, appending nothing, at
// the end of the document.
class ItemStream : public ExportStream {
 public:
  bool Next(std::string* out, size_t budget) final;

 protected:
  virtual bool Step(std::string* out) = 0;

 private:
  bool done_ = false;
};

// A stream kept together with what it reads (its resolver, its stack selection): `held`
// outlives `stream` (members are destroyed in reverse order) and goes with it.
template <typename Held>
class HoldingStream : public ExportStream {
 public:
  HoldingStream(std::unique_ptr<Held> held, std::unique_ptr<ExportStream> stream)
      : held_(std::move(held)), stream_(std::move(stream)) {}
  bool Next(std::string* out, size_t budget) override { return stream_->Next(out, budget); }

 private:
  std::unique_ptr<Held> held_;
  std::unique_ptr<ExportStream> stream_;
};

// The whole document at once (small documents, tests, the native tool).
std::string DrainExport(ExportStream* stream);

}  // namespace nettrace
