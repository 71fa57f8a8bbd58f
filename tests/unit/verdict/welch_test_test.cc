// Welch's t-test, Student's t quantiles and Holm's correction (core/verdict/welch_test.h)
// against published reference values.
#include <catch2/catch.hpp>
#include <cmath>

#include "verdict/welch_test.h"

namespace nettrace::verdict {
namespace {

TEST_CASE("Student's t quantiles match the tables", "[verdict][welch]") {
  // Two-sided 95 % and 99 % critical values (any t table; R's qt(0.975, df), qt(0.995, df)).
  CHECK(StudentQuantile(0.975, 1) == Approx(12.7062).epsilon(1e-5));
  CHECK(StudentQuantile(0.975, 3) == Approx(3.182446).epsilon(1e-6));
  CHECK(StudentQuantile(0.975, 10) == Approx(2.228139).epsilon(1e-6));
  CHECK(StudentQuantile(0.995, 30) == Approx(2.749996).epsilon(1e-6));
  CHECK(StudentQuantile(0.975, 1e6) == Approx(1.959966).epsilon(1e-5));
  CHECK(StudentUpperTail(2.228139, 10) == Approx(0.025).epsilon(1e-5));
  CHECK(StudentUpperTail(0, 5) == 0.5);
}

TEST_CASE("Welch's test of the sleep data gives R's t.test", "[verdict][welch]") {
  // Student's sleep data (R's `sleep`): extra hours of sleep under two drugs. R 4:
  // t.test(extra ~ group, data = sleep) → t = -1.8608, df = 17.776, p-value = 0.07939,
  // 95 % CI of mean(group 1) − mean(group 2): (-3.3654832, 0.2054832).
  const std::vector<double> a = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
  const std::vector<double> b = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};
  const WelchResult r = WelchTest(a, b, 0.95);
  CHECK(r.tested);
  CHECK(r.meanA == Approx(0.75));
  CHECK(r.meanB == Approx(2.33));
  CHECK(r.difference == Approx(1.58));
  CHECK(r.df == Approx(17.776).epsilon(1e-4));
  CHECK(r.p == Approx(0.07939).epsilon(1e-3));
  CHECK(r.ciLow == Approx(-0.2054832).epsilon(1e-6));  // B − A: R's interval negated
  CHECK(r.ciHigh == Approx(3.3654832).epsilon(1e-6));
}

TEST_CASE("Welch's test with too few or constant values", "[verdict][welch]") {
  const WelchResult one = WelchTest({1.0}, {2.0, 3.0}, 0.95);
  CHECK_FALSE(one.tested);
  CHECK(one.p == 1);
  CHECK(one.difference == Approx(1.5));
  CHECK(WelchTest({1, 1, 1}, {1, 1}, 0.95).p == 1);
  CHECK(WelchTest({0, 0, 0}, {2, 2}, 0.95).p == 0);  // appeared identically in every run
  // One side constant: the other's variance alone (df = its n − 1 = 2).
  const WelchResult half = WelchTest({0, 0, 0}, {1, 2, 3}, 0.95);
  CHECK(half.df == Approx(2));
  CHECK(half.ciLow == Approx(2 - 4.302653 * std::sqrt(1.0 / 3)).epsilon(1e-6));
}

TEST_CASE("Holm's adjusted p-values are R's p.adjust(…, \"holm\")", "[verdict][welch]") {
  // p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02
  const std::vector<double> adjusted = HolmAdjust({0.01, 0.04, 0.03, 0.005});
  REQUIRE(adjusted.size() == 4);
  CHECK(adjusted[0] == Approx(0.03));
  CHECK(adjusted[1] == Approx(0.06));
  CHECK(adjusted[2] == Approx(0.06));
  CHECK(adjusted[3] == Approx(0.02));
  CHECK(HolmAdjust({0.5, 0.9}) == std::vector<double>{1.0, 1.0});
  CHECK(HolmAdjust({}).empty());
}

}  // namespace
}  // namespace nettrace::verdict
