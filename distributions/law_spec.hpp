#pragma once
// A law given in code rather than in a run file (tests, benchmarks, tools): its name and numbers
// under a key prefix, built through the same readers as a run file's [noise] table
// (distributions/law_kind.hpp), so the same checks and messages apply.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "distributions/law_kind.hpp"

namespace collnoise {

struct LawSpec {
  std::string law;                        ///< "exponential", "pareto", ...
  std::map<std::string, double> numbers;  ///< a, p, T (seconds), sigma, k, f, weight, ...
  std::string file;                       ///< empirical: path of the delay file
  std::vector<LawSpec> components;        ///< mixture
  std::string where = "noise";            ///< key prefix used in error messages
};

/// The spec's keys as run-file parameters under its prefix ("noise.a", "noise.components[0].a").
ParamMap law_parameters(const LawSpec& spec);

/// Builds the unit-mean law of a spec (shape parameters only). InputError naming the key.
std::shared_ptr<const NoiseLaw> make_law(const LawSpec& spec);

/// Builds the stage noise of a spec on stages of w seconds of work (w >= 0). InputError naming
/// the key at fault (f outside [0, 1), p outside [0, 1], negative T, ...).
StageNoise make_stage_noise(const LawSpec& spec, double w);

}  // namespace collnoise
