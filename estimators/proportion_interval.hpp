#pragma once
// A proportion's exact (Clopper-Pearson) interval (docs/models/estimators.md): of `successes` in
// `trials` independent trials, the p whose binomial tails at the count are (1 - level) / 2 each;
// it covers the true p with probability at least `level` whatever p is. From Boost.Math's
// binomial distribution (find_lower_bound_on_p, find_upper_bound_on_p).
#include <cstdint>

#include "estimators/accumulator.hpp"

namespace collnoise {

struct ProportionInterval {
  double share = 0.0;  ///< successes / trials
  double low = 0.0;
  double high = 1.0;
};

/// Preconditions (checked: InputError): successes <= trials, trials >= 1, 0 < level < 1.
ProportionInterval proportion_interval(std::uint64_t successes, std::uint64_t trials, double level);

/// The same for per-sample flags of 0 or 1 tallied as a metric: their count is their mean times
/// the samples, exactly. Precondition: flags.count >= 1.
ProportionInterval proportion_of_flags(const Accumulator& flags, double level);

}  // namespace collnoise
