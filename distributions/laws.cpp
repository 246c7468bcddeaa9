// The table of per-stage noise laws: each defined in its own file, declared here and listed in
// law_kinds(), one line each (docs/extending.md, "A new noise law"). The declarations stand here
// rather than behind includes so that a law needs no header of its own: its file and these two
// lines are all it takes.
#include <fmt/format.h>

#include <cmath>

#include "core/errors.hpp"
#include "distributions/law_kind.hpp"

namespace collnoise {

// Each law's kind, defined in its file distributions/<law>.cpp.
LawKind exponential_law_kind();
LawKind pareto_law_kind();
LawKind bernoulli_law_kind();
LawKind lognormal_law_kind();
LawKind weibull_law_kind();
LawKind gamma_law_kind();
LawKind uniform_law_kind();
LawKind loglogistic_law_kind();
LawKind none_law_kind();
LawKind empirical_law_kind();
LawKind mixture_law_kind();
LawKind truncated_law_kind();

const std::vector<LawKind>& law_kinds() {
  // clang-format off
  static const std::vector<LawKind> kinds = {
      exponential_law_kind(),
      pareto_law_kind(),
      bernoulli_law_kind(),
      lognormal_law_kind(),
      weibull_law_kind(),
      gamma_law_kind(),
      uniform_law_kind(),
      loglogistic_law_kind(),
      none_law_kind(),
      empirical_law_kind(),
      mixture_law_kind(),
      truncated_law_kind(),
  };
  // clang-format on
  return kinds;
}

const KeySpec& overhead_fraction_key() {
  static const KeySpec f{.name = "f",
                         .meaning = "mean overhead fraction: scale = w f/(1-f)",
                         .bounds = {0.0, 1.0, false, true}};
  return f;
}

const LawKind* find_law_kind(const std::string& name) {
  for (const auto& kind : law_kinds())
    if (kind.name == name) return &kind;
  return nullptr;
}

std::vector<std::string> law_kind_names() {
  std::vector<std::string> names;
  for (const auto& kind : law_kinds()) names.push_back(kind.name);
  return names;
}

const LawKind& read_law_kind(ParamReader& reader, const std::string& prefix, bool nested) {
  static const KeySpec law_key{.name = "law", .type = KeyType::kText, .meaning = "the law's name"};
  const std::string name = reader.text(law_key, prefix);
  const LawKind* kind = find_law_kind(name);
  if (!kind)
    throw InputError(fmt::format("{}.law = \"{}\" is not a known noise law (known: {})", prefix,
                                 name, fmt::join(law_kind_names(), ", ")));
  if (nested && !kind->nestable)
    throw InputError(
        fmt::format("{}.law = \"{}\" cannot stand inside another law here", prefix, name));
  return *kind;
}

std::shared_ptr<const NoiseLaw> read_unit_law(ParamReader& reader, const std::string& prefix,
                                              bool nested) {
  return read_law_kind(reader, prefix, nested).make(reader, prefix);
}

StageNoise scaled_by_overhead(std::shared_ptr<const NoiseLaw> eta, double f, double w) {
  const double overhead = f / (1.0 - f);
  return {std::move(eta), w * overhead, overhead, true};
}

StageNoise read_stage_noise(ParamReader& reader, const std::string& prefix, double w) {
  if (!(w >= 0.0) || !std::isfinite(w))
    throw InputError(fmt::format("the work per stage must be >= 0 seconds, got {}", w));
  const LawKind& kind = read_law_kind(reader, prefix, false);
  if (kind.stage) return kind.stage(reader, prefix, w);
  auto eta = kind.make(reader, prefix);
  return scaled_by_overhead(std::move(eta), reader.number(overhead_fraction_key(), prefix), w);
}

}  // namespace collnoise
