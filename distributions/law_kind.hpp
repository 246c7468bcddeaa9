#pragma once
// A per-stage noise law as run files name it (docs/models/noise-laws.md): its name, the keys of
// its unit-mean shape, how it is built from them, and how its unit-mean variable is scaled to
// seconds of delay on a stage of w seconds. Each law defines its kind in its own file;
// distributions/laws.cpp lists them, one line each (docs/extending.md).
//
// A stage of nominal length w takes w + scale * eta seconds. Most laws are scaled by the mean
// overhead fraction f in [0, 1): scale = w f/(1-f), so that f is the fraction of the stage's
// expected time spent in noise. A law may scale itself otherwise (Bernoulli by its delay T,
// measured delays by their own mean, no noise not at all).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_reader.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

/// The per-stage noise of one point: delay = scale * eta.
struct StageNoise {
  std::shared_ptr<const NoiseLaw> eta;
  double scale = 0.0;     ///< seconds; w f/(1-f) for f-laws, p T for Bernoulli
  double overhead = 0.0;  ///< f/(1-f) = scale E[eta] / w, the mean relative overhead (0 if w = 0)
  /// Scaled by f: delays grow with the work (a stage of x seconds: x overhead eta). Otherwise the
  /// law has a scale of its own (Bernoulli's T, measured delays), whatever the work.
  bool proportional = false;
};

struct LawKind {
  std::string name;     ///< as in run files: law = "pareto"
  std::string meaning;  ///< one line, for documentation and messages
  /// Keys of the unit-mean shape, relative to where the law is given ("noise", a mixture
  /// component, the wrapped law of a truncation, a Poisson detour's duration).
  std::vector<KeySpec> shape_keys;
  /// Reads the shape keys under `prefix` and builds the unit-mean law. InputError naming the
  /// key at fault.
  std::function<std::shared_ptr<const NoiseLaw>(ParamReader&, const std::string& prefix)> make;
  /// Keys that scale the law to seconds on a stage (default: f).
  std::vector<KeySpec> scale_keys;
  /// Reads the shape and scale keys under `prefix` and builds the stage noise on `w` seconds of
  /// work. Empty: eta from `make`, scaled by f.
  std::function<StageNoise(ParamReader&, const std::string& prefix, double w)> stage;
  /// Whether the law may be a mixture component or the duration law of Poisson detours (a
  /// mixture may not nest).
  bool nestable = true;
};

/// The overhead fraction f: scale = w f/(1-f).
const KeySpec& overhead_fraction_key();

/// Every law, in documentation order (distributions/laws.cpp).
const std::vector<LawKind>& law_kinds();
/// The law named `name`, or null.
const LawKind* find_law_kind(const std::string& name);
/// The names of every law, for messages.
std::vector<std::string> law_kind_names();

/// The law named by `<prefix>.law` (read through `reader`), checked to exist (and to be nestable
/// when `nested`). InputError listing the known laws otherwise.
const LawKind& read_law_kind(ParamReader& reader, const std::string& prefix, bool nested);

/// Reads a unit-mean law under `prefix` (its `law` key and shape keys): for the places that take
/// a law's shape only (a truncation's base law, job sizes, absolute delays). `nested`: it stands
/// inside a mixture, where only nestable laws may.
std::shared_ptr<const NoiseLaw> read_unit_law(ParamReader& reader, const std::string& prefix,
                                              bool nested = false);

/// Reads the per-stage noise of a point under `prefix` ("noise") on stages of `w` seconds of
/// work (w >= 0): the law, its shape and its scale.
StageNoise read_stage_noise(ParamReader& reader, const std::string& prefix, double w);

/// f-scaling: the stage noise of unit-mean `eta` with overhead fraction f on w seconds.
StageNoise scaled_by_overhead(std::shared_ptr<const NoiseLaw> eta, double f, double w);

}  // namespace collnoise
