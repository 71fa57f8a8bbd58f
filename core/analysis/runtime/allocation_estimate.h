// core/analysis — the statistics of .NET 10's randomized allocation sampling (the runtime's
// AllocationSampled event, id 303), as the runtime's design document gives them
// (dotnet/runtime docs/design/features/RandomizedAllocationSampling.md; docs/allocations.md
// restates every formula with its section). Each allocated byte is a Bernoulli trial with
// p = 1/102,400; the first success in an object emits one event with the object's size and
// the success's offset, and the rest of the object is not tried. Pure functions, no state.
//
//   - estimate ("Estimation Approach 1: Weighted samples", unbiased): a sample of an object of
//     `size` bytes stands for size / (1 - q^size) bytes and 1 / (1 - q^size) objects;
//   - interval ("Estimation Approach 2: Estimating failed trials"): with s samples and
//     u = Σ (size - offset), the allocated bytes are u plus the failed trials, a negative
//     binomial count: [u + F_s((1-C)/2), u + F_{s+1}((1+C)/2)], F_s the quantile function
//     of the failures before the s-th success. The upper end takes one sample more because
//     a trace does not end on a sample ("Compensating for bytes allocated on a thread in
//     between events"); this also makes the interval hold for s = 0.
#pragma once

#include <cstdint>

namespace nettrace {

// p, the probability that one allocated byte is sampled ("The sampling model").
inline constexpr double kAllocationSampleProbability = 1.0 / 102400.0;

// Bytes and objects one sample of an object of `size` bytes stands for (size 0: 0 and 1).
double UpscaledBytes(uint64_t size);
double UpscaledObjects(uint64_t size);

// F_s(prob): failed trials before the s-th success at which the negative binomial CDF
// reaches `prob`, through its continuous limit for small p (a sum of s geometric counts is
// Gamma(s)/-ln(q) less one half per count): within a byte of the exact quantile for
// p = 1/102,400, which the design document's table rounds down (allocation_estimate_test).
// s = 0: 0. prob in (0, 1).
double FailedTrialsQuantile(uint64_t samples, double prob);

struct AllocationInterval {
  double low = 0, high = 0;  // bytes
};
// The `confidence` (e.g. 0.99) interval of the bytes allocated by the objects `samples`
// samples were drawn from, `remainder` = Σ (ObjectSize - SampledByteOffset) over them.
AllocationInterval AllocatedBytesInterval(uint64_t samples, double remainder, double confidence);

// The regularized lower incomplete gamma function P(a, x) and its inverse in x (a > 0).
double RegularizedGammaP(double a, double x);
double InverseRegularizedGammaP(double a, double prob);

}  // namespace nettrace
