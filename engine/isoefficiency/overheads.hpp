#pragma once
// Isoefficiency with load imbalance (docs/models/isoefficiency.md; Bosque, Robles, Toharia,
// Pastor). With W work units, m nodes of p units per second, imbalance overhead T_q(W, m) and
// communication overhead T_o(W, m) (seconds):
//   T_R = W/(p m) + T_q + T_o,   E = 1 / (1 + m p (T_q + T_o) / W),
// and the isoefficiency function is the W(m) that keeps E at a target: W = K m (T_q + T_o) with
// K = p E/(1-E), solved numerically because the overheads may depend on W.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "estimators/slope_fit.hpp"

namespace collnoise {

/// An overhead as a function of (W, m), seconds.
using Overhead = std::function<double(double w, double m)>;

/// The closed-form families of the paper (c's in seconds; W in work units).
enum class OverheadFamily {
  kNone,           ///< 0
  kConstant,       ///< c1
  kLinearM,        ///< c1 + c2 m  (the paper's "proportional_m")
  kInverseM,       ///< c1 / m     ("inverse_m")
  kProportionalW,  ///< c1 W       ("proportional_w")
  kInverseW,       ///< c1 / W     ("inverse_w")
  kLog2M,          ///< c1 log2 m  (a tree-shaped collective)
};

/// Parses "none", "constant", "linear_m" (also "proportional_m"), "inverse_m",
/// "proportional_w", "inverse_w", "log2_m"; nullopt otherwise.
std::optional<OverheadFamily> overhead_family(const std::string& name);
std::string to_string(OverheadFamily family);
Overhead overhead_of(OverheadFamily family, double c1, double c2);

/// The paper's predicted growth of W(m) for an imbalance family with no other overhead: the
/// exponent of the power law, or nullopt with the reason (not scalable, no power law).
struct PredictedGrowth {
  std::optional<double> exponent;
  std::string reason;
  bool scalable = true;
};
PredictedGrowth predicted_growth(OverheadFamily family);

/// E(W, m). Preconditions: W > 0, m >= 1, p > 0.
double efficiency(double w, double m, double p, double overheads);

/// The W at which E(W, m) reaches `target`, by bracketing on log W over [w_min, w_max] and
/// TOMS 748; nullopt when E stays below the target over the whole range (not scalable at this m).
/// `overheads(W)` is T_q + T_o at this m, seconds. E(W) need not be monotone: the smallest W of
/// the first bracket found (scanning upwards by factors of 2) is returned. The root is resolved to
/// `bits` bits of log W (50: to the last bits of a double; fewer for a noisy or stepped T_q).
std::optional<double> isoefficiency_w(const std::function<double(double)>& overheads, double m,
                                      double p, double target, double w_min = 1e-12,
                                      double w_max = 1e300, int bits = 50);

}  // namespace collnoise
