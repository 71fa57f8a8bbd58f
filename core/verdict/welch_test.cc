#include "verdict/welch_test.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace nettrace::verdict {

namespace {

// The continued fraction of the regularized incomplete beta function I_x(a, b), evaluated by
// the modified Lentz method (DLMF 8.17.22; converges quickly for x < (a + 1) / (a + b + 2)).
double BetaFraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300, kEpsilon = 1e-15;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double f = d;
  for (int m = 1; m <= 300; ++m) {
    for (int half = 0; half < 2; ++half) {
      const double coefficient = half == 0 ? m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
                                           : -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
      d = 1 + coefficient * d;
      if (std::fabs(d) < kTiny) d = kTiny;
      c = 1 + coefficient / c;
      if (std::fabs(c) < kTiny) c = kTiny;
      d = 1 / d;
      f *= d * c;
      if (half == 1 && std::fabs(d * c - 1) < kEpsilon) return f;
    }
  }
  return f;
}

// I_x(a, b), the regularized incomplete beta function.
double IncompleteBeta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * BetaFraction(a, b, x) / a;
  return 1 - front * BetaFraction(b, a, 1 - x) / b;  // the symmetry I_x(a, b) = 1 − I_{1−x}(b, a)
}

double Mean(const std::vector<double>& v) { return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / v.size(); }

double Variance(const std::vector<double>& v, double mean) {
  double sum = 0;
  for (double x : v) sum += (x - mean) * (x - mean);
  return v.size() > 1 ? sum / (v.size() - 1) : 0;
}

}  // namespace

double StudentUpperTail(double t, double df) {
  if (t <= 0) return 0.5;
  if (!std::isfinite(t)) return 0;
  return 0.5 * IncompleteBeta(df / 2, 0.5, df / (df + t * t));
}

double StudentQuantile(double prob, double df) {
  if (prob <= 0.5) return 0;
  const double tail = 1 - prob;
  // Newton's method on P(T > t) = tail (its derivative is minus the density), kept inside a
  // bracket that bisection takes over whenever a step would leave it: a few density
  // evaluations where bisection alone took some forty (the CI of every function and node).
  const double logNorm = std::lgamma((df + 1) / 2) - std::lgamma(df / 2) - 0.5 * std::log(df * M_PI);
  auto density = [&](double t) { return std::exp(logNorm - (df + 1) / 2 * std::log1p(t * t / df)); };
  double low = 0, high = 1;
  while (StudentUpperTail(high, df) > tail && high < 1e12) low = high, high *= 2;
  double t = (low + high) / 2;
  for (int i = 0; i < 100; ++i) {
    const double excess = StudentUpperTail(t, df) - tail;  // > 0: t is below the quantile
    (excess > 0 ? low : high) = t;
    const double next = t + excess / density(t);
    const double stepped = next > low && next < high ? next : (low + high) / 2;
    if (std::fabs(stepped - t) <= 1e-13 * t) return stepped;
    t = stepped;
  }
  return t;
}

WelchResult WelchTest(const std::vector<double>& a, const std::vector<double>& b, double confidence) {
  WelchResult r;
  r.nA = a.size(), r.nB = b.size();
  r.meanA = Mean(a), r.meanB = Mean(b);
  r.difference = r.meanB - r.meanA;
  r.ciLow = r.ciHigh = r.difference;
  if (a.size() < 2 || b.size() < 2) return r;
  r.tested = true;
  const double va = Variance(a, r.meanA) / a.size(), vb = Variance(b, r.meanB) / b.size();
  const double se2 = va + vb;
  if (se2 <= 0) {  // both samples constant
    r.p = r.difference == 0 ? 1 : 0;
    r.df = static_cast<double>(a.size() + b.size() - 2);
    return r;
  }
  r.df = se2 * se2 / (va * va / (a.size() - 1) + vb * vb / (b.size() - 1));
  const double se = std::sqrt(se2);
  r.p = std::min(1.0, 2 * StudentUpperTail(std::fabs(r.difference) / se, r.df));
  const double half = StudentQuantile(0.5 + confidence / 2, r.df) * se;
  r.ciLow = r.difference - half, r.ciHigh = r.difference + half;
  return r;
}

std::vector<double> HolmAdjust(const std::vector<double>& p) {
  std::vector<size_t> order(p.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return p[x] < p[y]; });
  std::vector<double> adjusted(p.size());
  double running = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    running = std::max(running, std::min(1.0, p[order[i]] * static_cast<double>(p.size() - i)));
    adjusted[order[i]] = running;
  }
  return adjusted;
}

}  // namespace nettrace::verdict
