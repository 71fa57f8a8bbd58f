// tests/robustness — the mutation study's inputs: a real trace with one byte changed, or
// cut short, described by a Mutation and never materialised as a whole. MutatedFile
// reads ranges of the original file and applies the mutation on the fly, so a child
// process holds no copy of the input (its peak memory is the engine's) and re-reads of
// event blocks see the same damaged bytes as the first read, as the CLI's would.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace nettrace::robustness {

struct Mutation {
  enum class Kind : uint8_t { kByte, kTruncate };
  Kind kind = Kind::kByte;
  uint64_t offset = 0;  // kByte: the byte changed; kTruncate: the length kept
  uint8_t xorMask = 0;  // kByte: never 0, so the byte really changes
};

// splitmix64: small, fast, and the same sequence on every platform.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t Below(uint64_t n) { return n ? Next() % n : 0; }

 private:
  uint64_t state_;
};

inline uint64_t HashName(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// The full plan for one trace: `mutations` byte changes, then `truncations` cuts. Seeded
// by (seed, trace name), so a trace's inputs do not depend on which other traces exist.
// A quarter of the byte changes fall in the first 64 KiB (stream header, trace object,
// metadata and the first blocks, where one byte changes the most), the rest anywhere.
inline std::vector<Mutation> PlanInputs(const std::string& traceName, uint64_t size, size_t mutations,
                                        size_t truncations, uint64_t seed) {
  Rng rng(seed ^ HashName(traceName));
  std::vector<Mutation> plan;
  for (size_t i = 0; i < mutations && size > 0; ++i) {
    Mutation m;
    m.offset = rng.Below(i % 4 == 0 ? std::min<uint64_t>(size, 64 << 10) : size);
    m.xorMask = static_cast<uint8_t>(1 + rng.Below(255));
    plan.push_back(m);
  }
  for (size_t i = 0; i < truncations && size > 0; ++i) {
    Mutation m;
    m.kind = Mutation::Kind::kTruncate;
    m.offset = rng.Below(size);  // 0 … size-1: always shorter than the trace
    plan.push_back(m);
  }
  return plan;
}

inline std::string Describe(const Mutation& m) {
  char buf[96];
  if (m.kind == Mutation::Kind::kTruncate)
    std::snprintf(buf, sizeof buf, "cut to %llu bytes", static_cast<unsigned long long>(m.offset));
  else
    std::snprintf(buf, sizeof buf, "byte %llu xor 0x%02x", static_cast<unsigned long long>(m.offset), m.xorMask);
  return buf;
}

class MutatedFile {
 public:
  MutatedFile(int fd, uint64_t fileSize, const Mutation& m) : fd_(fd), fileSize_(fileSize), m_(m) {}

  uint64_t size() const { return m_.kind == Mutation::Kind::kTruncate ? std::min(m_.offset, fileSize_) : fileSize_; }

  // Reads up to n bytes at offset (fewer at the end); false on an I/O error.
  bool Read(uint64_t offset, uint64_t n, std::vector<uint8_t>* out) const {
    out->clear();
    if (offset >= size()) return true;
    n = std::min(n, size() - offset);
    out->resize(n);
    for (uint64_t done = 0; done < n;) {
      const ssize_t got = pread(fd_, out->data() + done, n - done, static_cast<off_t>(offset + done));
      if (got <= 0) return false;
      done += static_cast<uint64_t>(got);
    }
    if (m_.kind == Mutation::Kind::kByte && m_.offset >= offset && m_.offset < offset + n)
      (*out)[m_.offset - offset] ^= m_.xorMask;
    return true;
  }

 private:
  int fd_;
  uint64_t fileSize_;
  Mutation m_;
};

}  // namespace nettrace::robustness
