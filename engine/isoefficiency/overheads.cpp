#include "engine/isoefficiency/overheads.hpp"

#include <array>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <string_view>
#include <utility>

namespace collnoise {

namespace {

// Run-file names, in enum order; to_string gives these, overhead_family also takes the paper's.
constexpr std::array<std::pair<std::string_view, OverheadFamily>, 7> kFamilyNames{{
    {"none", OverheadFamily::kNone},
    {"constant", OverheadFamily::kConstant},
    {"linear_m", OverheadFamily::kLinearM},
    {"inverse_m", OverheadFamily::kInverseM},
    {"proportional_w", OverheadFamily::kProportionalW},
    {"inverse_w", OverheadFamily::kInverseW},
    {"log2_m", OverheadFamily::kLog2M},
}};

}  // namespace

std::optional<OverheadFamily> overhead_family(const std::string& name) {
  if (name == "proportional_m") return OverheadFamily::kLinearM;  // Bosque et al.'s name
  for (const auto& [known, family] : kFamilyNames)
    if (name == known) return family;
  return std::nullopt;
}

std::string to_string(OverheadFamily family) {
  for (const auto& [name, known] : kFamilyNames)
    if (family == known) return std::string(name);
  return "?";
}

Overhead overhead_of(OverheadFamily family, double c1, double c2) {
  switch (family) {
    case OverheadFamily::kNone:
      return [](double, double) { return 0.0; };
    case OverheadFamily::kConstant:
      return [c1](double, double) { return c1; };
    case OverheadFamily::kLinearM:
      return [c1, c2](double, double m) { return c1 + c2 * m; };
    case OverheadFamily::kInverseM:
      return [c1](double, double m) { return c1 / m; };
    case OverheadFamily::kProportionalW:
      return [c1](double w, double) { return c1 * w; };
    case OverheadFamily::kInverseW:
      return [c1](double w, double) { return c1 / w; };
    case OverheadFamily::kLog2M:
      return [c1](double, double m) { return c1 * std::log2(m); };
  }
  return [](double, double) { return 0.0; };
}

PredictedGrowth predicted_growth(OverheadFamily family) {
  switch (family) {
    case OverheadFamily::kNone:
      return {std::nullopt, "no overhead: every W keeps any efficiency", true};
    case OverheadFamily::kConstant:
      return {1.0, "", true};
    case OverheadFamily::kLinearM:
      return {2.0, "", true};
    case OverheadFamily::kInverseM:
      return {0.0, "", true};
    case OverheadFamily::kProportionalW:
      return {std::nullopt, "imbalance proportional to W: no W keeps the efficiency as m grows",
              false};
    case OverheadFamily::kInverseW:
      return {0.5, "", true};
    case OverheadFamily::kLog2M:
      return {std::nullopt, "m log2 m is not a power law (its log-log slope is 1 + 1/ln m)", true};
  }
  return {};
}

double efficiency(double w, double m, double p, double overheads) {
  return 1.0 / (1.0 + m * p * overheads / w);
}

std::optional<double> isoefficiency_w(const std::function<double(double)>& overheads, double m,
                                      double p, double target, double w_min, double w_max,
                                      int bits) {
  // Work with the log of W; g > 0 once E has reached the target.
  const auto g = [&](double log_w) {
    const double w = std::exp(log_w);
    return efficiency(w, m, p, overheads(w)) - target;
  };
  double lo = std::log(w_min);
  if (g(lo) >= 0.0) return w_min;
  const double top = std::log(w_max);
  for (double hi = lo + std::log(2.0); lo < top; lo = hi, hi += std::log(2.0)) {
    if (g(hi) < 0.0) continue;
    std::uintmax_t iterations = 200;
    const auto [a, b] = boost::math::tools::toms748_solve(
        g, lo, hi, boost::math::tools::eps_tolerance<double>(static_cast<unsigned>(bits)),
        iterations);
    // The upper end of the final bracket: E there has reached the target.
    return std::exp(g(a) >= 0.0 ? a : b);
  }
  return std::nullopt;
}

}  // namespace collnoise
