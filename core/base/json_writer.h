// core/base — a tiny streaming JSON writer for the engine's small structured results
// (summary, event rows). Strings from a trace are arbitrary bytes: they are escaped and
// invalid UTF-8 becomes U+FFFD, so the output is always valid JSON. Numbers are printed
// the same way on every platform (native and wasm outputs are compared byte for byte).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace nettrace {

class JsonWriter {
 public:
  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  JsonWriter& Key(std::string_view key);
  JsonWriter& String(std::string_view s);
  JsonWriter& Int(int64_t v);
  JsonWriter& UInt(uint64_t v);
  // Fixed-point with `decimals` digits (no exponent), e.g. milliseconds.
  JsonWriter& Fixed(double v, int decimals);
  // The shortest of %.15g/%.16g/%.17g that reads back as the same double (exact times).
  JsonWriter& Exact(double v);
  JsonWriter& Bool(bool v);
  // A value written by another JsonWriter (a whole array or object), as is.
  JsonWriter& Raw(std::string_view json);
  JsonWriter& Null();

  // Hands the text written so far to `spill` whenever it has reached `threshold` bytes at
  // the end of an object or array, so that a document of any size is written with bounded
  // memory (a summary of a million threads is 100 MB of JSON); str()/Take() then hold only
  // what was written since the last spill.
  void SpillTo(std::function<void(const std::string&)> spill, size_t threshold) {
    spill_ = std::move(spill);
    spillAt_ = threshold;
  }

  const std::string& str() const { return out_; }
  std::string Take() { return std::move(out_); }
  // Appends the text written so far to *out and forgets it, the open containers kept: a
  // document written a part at a time (export/export_stream.h).
  void MoveTo(std::string* out) {
    out->append(out_);
    out_.clear();
  }

 private:
  void Separator();
  std::string out_;
  // Per open container: whether a value was already written (needs a comma).
  std::vector<bool> hasValue_;
  bool afterKey_ = false;
  void MaybeSpill() {
    if (spill_ && out_.size() >= spillAt_) {
      spill_(out_);
      out_.clear();
    }
  }
  std::function<void(const std::string&)> spill_;
  size_t spillAt_ = 0;
};

// Appends s as a JSON string literal (with quotes).
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace nettrace
