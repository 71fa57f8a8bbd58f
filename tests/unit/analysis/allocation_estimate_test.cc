// The statistics of AllocationSampled (analysis/runtime/allocation_estimate.h): the per-sample
// upscaling, the failed-trial quantiles against the table of the runtime's design document
// (RandomizedAllocationSampling.md, "Estimation Approach 2"), and, by simulating the
// runtime's sampling itself (a geometric count of failed trials per success, the rest of a
// sampled object skipped), that the estimate is unbiased and the stated interval covers the
// true bytes at least as often as it says, and not much more.
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "analysis/runtime/allocation_estimate.h"

namespace nettrace {
namespace {

constexpr double kP = 1.0 / 102400.0;

// The design document's table: failed trials at which the negative binomial CDF is 0.025 and
// 0.975, for s samples (p = 1/102,400).
struct TableRow {
  uint64_t samples;
  double low, high;
};
constexpr TableRow kTable[] = {
    {1, 2591, 377738},           {2, 24800, 570531},          {3, 63349, 739802},
    {4, 111599, 897761},         {5, 166241, 1048730},        {6, 225469, 1194827},
    {7, 288185, 1337279},        {8, 353666, 1476870},        {9, 421407, 1614137},
    {10, 491039, 1749469},       {20, 1250954, 3038270},      {30, 2072639, 4264804},
    {40, 2926207, 5459335},      {50, 3800118, 6633475},      {100, 8331581, 12342053},
    {200, 17739679, 23413825},   {300, 27341465, 34291862},   {400, 37043463, 45069676},
    {500, 46809487, 55783459},   {1000, 96149867, 108842093}, {2000, 195919830, 213870137},
    {3000, 296301551, 318286418}, {4000, 396999923, 422386047}, {5000, 497900649, 526283322},
    {10000, 1004017229, 1044156743},
};

// The table's entries are the largest failure counts whose CDF is still below the
// threshold, i.e. one less than the exact quantile (checked with exact binomial sums at
// 25 digits for s = 1, 2, 8, 100, 1000); our continuous quantile lies within half a byte
// of the exact one.
void RequireTableEntry(double ours, double table) {
  INFO("ours " << ours << ", table " << table);
  REQUIRE(ours >= table + 0.5);
  REQUIRE(ours <= table + 1.5);
}

TEST_CASE("allocation estimate: one sample stands for size / (1 - q^size) bytes and 1 / (1 - q^size) objects",
          "[allocations]") {
  for (uint64_t size : {uint64_t{1}, uint64_t{24}, uint64_t{64}, uint64_t{8216}, uint64_t{100024}, uint64_t{1} << 30}) {
    const long double sampled = 1.0L - std::pow(1.0L - 1.0L / 102400.0L, static_cast<long double>(size));
    INFO("size " << size);
    REQUIRE(std::fabs(UpscaledBytes(size) - static_cast<double>(size / sampled)) <= 1e-9 * UpscaledBytes(size));
    REQUIRE(std::fabs(UpscaledObjects(size) - static_cast<double>(1.0L / sampled)) <= 1e-9 * UpscaledObjects(size));
  }
  // A 1-byte object is sampled with probability p: it stands for 102,400 bytes and objects.
  REQUIRE(std::fabs(UpscaledBytes(1) - 102400.0) < 1e-6);
  // An object much larger than 1/p is almost surely sampled: it stands for about itself.
  REQUIRE(UpscaledObjects(uint64_t{1} << 30) == 1.0);
}

TEST_CASE("allocation interval: the failed-trial quantiles are the design document's table", "[allocations]") {
  for (const TableRow& row : kTable) {
    INFO("s = " << row.samples);
    RequireTableEntry(FailedTrialsQuantile(row.samples, 0.025), row.low);
    RequireTableEntry(FailedTrialsQuantile(row.samples, 0.975), row.high);
  }
  // The document's worked example: 8 samples, u = 10,908 at C = 0.95 give
  // [353,666 + 10,908, 1,476,870 + 10,908]; our upper end takes one sample more (a trace
  // does not end on a sample), i.e. the table's row 9.
  const AllocationInterval i = AllocatedBytesInterval(8, 10908, 0.95);
  RequireTableEntry(i.low - 10908, 353666);
  RequireTableEntry(i.high - 10908, 1614137);
  // s = 1…9: the interval spans the table's low of row s to its high of row s + 1.
  for (size_t k = 0; k + 1 < 10; ++k) {
    const AllocationInterval w = AllocatedBytesInterval(kTable[k].samples, 0, 0.95);
    RequireTableEntry(w.low, kTable[k].low);
    RequireTableEntry(w.high, kTable[k + 1].high);
  }
  // No sample: nothing is known to be allocated, up to F_1((1+C)/2) bytes may have been.
  const AllocationInterval none = AllocatedBytesInterval(0, 0, 0.95);
  REQUIRE(none.low == 0);
  RequireTableEntry(none.high, 377738);
}

TEST_CASE("allocation interval: the regularized gamma function and its inverse agree", "[allocations]") {
  for (double a : {1.0, 2.5, 10.0, 1000.0, 1e6}) {
    for (double prob : {0.005, 0.025, 0.5, 0.975, 0.995}) {
      const double x = InverseRegularizedGammaP(a, prob);
      INFO("a " << a << " prob " << prob << " x " << x);
      // ln Γ(a) of ~1.3e7 at a = 1e6 leaves P about 1e-9 of double rounding: 0.4 bytes of F.
      REQUIRE(std::fabs(RegularizedGammaP(a, x) - prob) < 1e-8);
    }
  }
  // a = 1: the exponential distribution, P(1, x) = 1 - e^-x.
  REQUIRE(std::fabs(RegularizedGammaP(1, 2) - (1 - std::exp(-2.0))) < 1e-14);
}

// The runtime's sampler on one thread (the design document's "Implementation design"): a
// geometric count of failed trials (inverse transform sampling of a uniform draw) is used up
// byte by byte; the object holding the success is sampled at that byte's offset, its other
// bytes are not tried, and a new count is drawn.
class Sampler {
 public:
  explicit Sampler(uint64_t seed) : rng_(seed) { next_ = Draw(); }

  struct Type {
    uint64_t samples = 0, bytes = 0;
    double remainder = 0, estimate = 0, objects = 0;
  };
  // `count` objects of `size` bytes, one after another.
  void Allocate(uint64_t count, uint64_t size, Type* type) {
    type->bytes += count * size;
    while (count > 0) {
      const uint64_t unsampled = next_ / size;  // whole objects before the successful trial
      if (unsampled >= count) {
        next_ -= count * size;
        return;
      }
      count -= unsampled + 1;
      const uint64_t offset = next_ - unsampled * size;
      ++type->samples;
      type->remainder += static_cast<double>(size - offset);
      type->estimate += UpscaledBytes(size);
      type->objects += UpscaledObjects(size);
      next_ = Draw();
    }
  }

 private:
  uint64_t Draw() {
    const double u = static_cast<double>(rng_() >> 11) * 0x1p-53;  // [0, 1), portable
    return static_cast<uint64_t>(std::floor(std::log1p(-u) / std::log1p(-kP)));
  }
  std::mt19937_64 rng_;
  uint64_t next_;
};

struct Coverage {
  int trials = 0, below = 0, above = 0;
  double sumError = 0, sumSquaredError = 0;
  void Add(const Sampler::Type& t, double confidence) {
    const AllocationInterval i = AllocatedBytesInterval(t.samples, t.remainder, confidence);
    const double truth = static_cast<double>(t.bytes);
    ++trials;
    below += truth < i.low;
    above += truth > i.high;
    sumError += t.estimate - truth;
    sumSquaredError += (t.estimate - truth) * (t.estimate - truth);
  }
  int misses() const { return below + above; }
  // The estimate's mean error in standard errors of that mean.
  double BiasInStandardErrors() const {
    const double mean = sumError / trials;
    const double variance = sumSquaredError / trials - mean * mean;
    return mean / std::sqrt(variance / trials);
  }
};

TEST_CASE("allocation interval: simulated runtime sampling falls inside the 99 % interval as often as stated",
          "[allocations]") {
  constexpr int kTrials = 2000;
  constexpr double kConfidence = 0.99;
  // Three types allocated in interleaved runs on one thread, as a program does: small objects
  // (~1,000 samples), large objects bigger than 1/p (~130 samples, most of each object
  // skipped) and a rare type (~10 samples).
  Coverage small, large, rare;
  Sampler sampler(20261207);
  for (int trial = 0; trial < kTrials; ++trial) {
    Sampler::Type a, b, c;
    for (int run = 0; run < 100; ++run) {
      sampler.Allocate(42667, 24, &a);
      sampler.Allocate(2, 100024, &b);
      sampler.Allocate(10, 1016, &c);
    }
    small.Add(a, kConfidence), large.Add(b, kConfidence), rare.Add(c, kConfidence);
  }
  // Misses at most 1 % of the trials, up to three binomial standard deviations more (4.4
  // trials): the interval holds at the rate it states. An interval of the 95 % quantiles
  // misses ~100 of them.
  for (const Coverage* c : {&small, &large, &rare}) {
    INFO("below " << c->below << ", above " << c->above << ", bias " << c->BiasInStandardErrors() << " SE");
    REQUIRE(c->misses() <= 33);
    // Unbiased: the mean estimate is within four standard errors of the truth.
    REQUIRE(std::fabs(c->BiasInStandardErrors()) < 4);
  }
  // With ~1,000 samples the interval is not wider than it says either: it misses about 1 %
  // (fewer than 5 of 2,000 would be a 3-sigma event), on both sides.
  INFO("small objects: below " << small.below << ", above " << small.above);
  REQUIRE(small.misses() >= 5);
  REQUIRE(small.below >= 1);
  REQUIRE(small.above >= 1);
}

}  // namespace
}  // namespace nettrace
