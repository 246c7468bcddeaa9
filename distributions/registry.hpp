#pragma once
// The factory from run-file parameters to noise laws, and the stage noise built from them:
// a stage of nominal length w takes w + scale * eta seconds.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "distributions/noise_law.hpp"

namespace collnoise {

/// A law as the run file gives it, before validation.
struct LawSpec {
  std::string law;                        ///< "exponential", "pareto", ...
  std::map<std::string, double> numbers;  ///< a, p, T (seconds), sigma, k, f, weight
  std::string file;                       ///< empirical: path of the delay file
  std::vector<LawSpec> components;        ///< mixture
  std::string where = "noise";            ///< key prefix used in error messages
};

/// The per-stage noise of one point: delay = scale * eta.
struct StageNoise {
  std::shared_ptr<const NoiseLaw> eta;
  double scale = 0.0;     ///< seconds; w f/(1-f) for f-laws, p T for Bernoulli
  double overhead = 0.0;  ///< f/(1-f) = scale E[eta] / w, the mean relative overhead (0 if w = 0)
};

/// Names of every law the factory knows, in documentation order.
const std::vector<std::string>& law_names();
/// Keys a law accepts in the [noise] table (besides `law`), or in a mixture component
/// (`as_component`: shape parameters and `weight` only).
std::vector<std::string> law_keys(const std::string& law, bool as_component);

/// Builds the unit-mean law of a spec (shape parameters only). InputError naming the key.
std::shared_ptr<const NoiseLaw> make_law(const LawSpec& spec);

/// Builds the stage noise of a point with work w seconds per stage (w > 0). InputError naming
/// the key at fault (f outside [0, 1), p outside [0, 1], negative T, ...).
StageNoise make_stage_noise(const LawSpec& spec, double w);

}  // namespace collnoise
