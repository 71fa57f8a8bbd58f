#include "analysis/runtime/allocation_estimate.h"

#include <algorithm>
#include <cmath>

namespace nettrace {

namespace {

// -ln(q) = -ln(1 - p): a geometric count of failures with success probability p is
// floor(E / r) for E exponential with mean 1 (inverse transform sampling, as the runtime
// draws it: RandomizedAllocationSampling.md "Implementation design").
double LogQ() { return std::log1p(-kAllocationSampleProbability); }

// 1 - q^size, the probability that an object of `size` bytes is sampled.
double SampledProbability(uint64_t size) { return -std::expm1(static_cast<double>(size) * LogQ()); }

// ln(x^a e^-x / Γ(a)): the log of the Gamma(a) density at x, times x.
double LogPrefactor(double a, double x) { return a * std::log(x) - x - std::lgamma(a); }

// P(a, x) by its series, for x < a + 1: e^-x x^a / Γ(a+1) Σ x^n / ((a+1)…(a+n)). The terms
// shrink once a + n > x, within a few √a of them.
double GammaPSeries(double a, double x) {
  double term = 1.0 / a, sum = term;
  for (int n = 1; n < 10000000; ++n) {
    term *= x / (a + n);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum * std::exp(LogPrefactor(a, x));
}

// Q(a, x) = 1 - P(a, x) by its continued fraction (modified Lentz), for x >= a + 1.
double GammaQFraction(double a, double x) {
  constexpr double kTiny = 1e-300;
  double b = x + 1.0 - a, c = 1.0 / kTiny, d = 1.0 / b, h = d;
  for (int i = 1; i < 10000000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1.0) < 1e-16) break;
  }
  return std::exp(LogPrefactor(a, x)) * h;
}

}  // namespace

double UpscaledBytes(uint64_t size) {
  return size == 0 ? 0.0 : static_cast<double>(size) / SampledProbability(size);
}

double UpscaledObjects(uint64_t size) { return size == 0 ? 1.0 : 1.0 / SampledProbability(size); }

double RegularizedGammaP(double a, double x) {
  if (!(x > 0)) return 0.0;
  if (x < a + 1.0) return GammaPSeries(a, x);
  return 1.0 - GammaQFraction(a, x);
}

// Newton's method on P(a, x) - prob, kept inside a bracket [lo, hi] that always holds the
// root (a step leaving it bisects instead): P rises monotonically in x, so this converges
// from the mean a whatever the shape.
double InverseRegularizedGammaP(double a, double prob) {
  if (!(prob > 0)) return 0.0;
  double lo = 0.0, hi = a + 10.0 * std::sqrt(a) + 50.0;
  while (RegularizedGammaP(a, hi) < prob) lo = hi, hi *= 2.0;
  double x = std::clamp(a, lo, hi);
  for (int i = 0; i < 300; ++i) {
    const double f = RegularizedGammaP(a, x) - prob;
    if (f == 0) return x;
    (f < 0 ? lo : hi) = x;
    const double density = std::exp(LogPrefactor(a, x)) / x;
    double next = density > 0 ? x - f / density : (lo + hi) / 2;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (std::fabs(next - x) <= 1e-14 * x) return next;
    x = next;
  }
  return x;
}

double FailedTrialsQuantile(uint64_t samples, double prob) {
  if (samples == 0) return 0.0;
  const double s = static_cast<double>(samples);
  return std::max(0.0, InverseRegularizedGammaP(s, prob) / -LogQ() - s / 2);
}

AllocationInterval AllocatedBytesInterval(uint64_t samples, double remainder, double confidence) {
  const double tail = (1.0 - confidence) / 2;
  return {remainder + FailedTrialsQuantile(samples, tail), remainder + FailedTrialsQuantile(samples + 1, 1.0 - tail)};
}

}  // namespace nettrace
