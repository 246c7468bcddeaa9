#pragma once
// Error-free transformations and compensated sums (docs/models/estimators.md, "Intervals at the
// arithmetic floor"). A double-double hi + lo carries about 106 bits: a mean of a million samples
// that agree in their first 12 digits keeps the digits that plain double accumulation rounds
// away. Everything here is deterministic for a given order of operations (the build forbids
// fused multiply-adds and reassociation), so merged tallies keep their bits.
#include <cmath>

namespace collnoise {

/// hi + lo with |lo| at most half an ulp of hi.
struct DoubleDouble {
  double hi = 0.0;
  double lo = 0.0;
};

/// a + b as an exact pair (Knuth's TwoSum): hi = fl(a + b), lo its rounding error.
inline DoubleDouble two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

/// a + b as an exact pair when |a| >= |b| or a = 0 (Dekker's FastTwoSum).
inline DoubleDouble fast_two_sum(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}

/// x + y in double-double (x a double-double, y a double; relative error about 2^-104).
inline DoubleDouble add(DoubleDouble x, double y) {
  const DoubleDouble s = two_sum(x.hi, y);
  // TwoSum again, not FastTwoSum: after cancellation s.hi may be smaller than s.lo + x.lo.
  return two_sum(s.hi, s.lo + x.lo);
}

/// A compensated sum (Neumaier's variant of Kahan's): exact up to about n u^2 of the sum of
/// magnitudes, whatever the order of magnitudes of the terms.
struct NeumaierSum {
  double sum = 0.0;
  double carry = 0.0;

  void add(double x) {
    const double t = sum + x;
    carry += std::abs(sum) >= std::abs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  void merge(const NeumaierSum& other) {
    add(other.sum);
    carry += other.carry;
  }
  double value() const { return sum + carry; }
};

}  // namespace collnoise
