#include "estimators/proportion_interval.hpp"

#include <fmt/format.h>

#include <boost/math/distributions/binomial.hpp>
#include <cmath>

#include "core/errors.hpp"

namespace collnoise {

ProportionInterval proportion_interval(std::uint64_t successes, std::uint64_t trials,
                                       double level) {
  if (trials == 0 || successes > trials || !(level > 0.0 && level < 1.0))
    throw InputError(fmt::format(
        "a proportion's interval of {} in {} trials at level {}: needs 1 <= trials, successes <= "
        "trials and 0 < level < 1",
        successes, trials, level));
  using Binomial = boost::math::binomial_distribution<double>;
  const auto n = static_cast<double>(trials), k = static_cast<double>(successes);
  const double alpha = (1.0 - level) / 2.0;
  // Boost's bounds are 0 and 1 at the ends (no success, no failure), as Clopper-Pearson's.
  return {k / n,
          Binomial::find_lower_bound_on_p(n, k, alpha, Binomial::clopper_pearson_exact_interval),
          Binomial::find_upper_bound_on_p(n, k, alpha, Binomial::clopper_pearson_exact_interval)};
}

ProportionInterval proportion_of_flags(const Accumulator& flags, double level) {
  const auto count =
      static_cast<std::uint64_t>(std::llround(flags.mean * static_cast<double>(flags.count)));
  return proportion_interval(count, flags.count, level);
}

}  // namespace collnoise
