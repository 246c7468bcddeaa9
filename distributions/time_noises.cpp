// The table of time-based noise: one line a kind, each defined beside its detours
// (docs/extending.md).
#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"
#include "distributions/law_kind.hpp"
#include "distributions/time_noise_kind.hpp"

namespace collnoise {

const std::vector<TimeNoiseKind>& time_noise_kinds() {
  static const std::vector<TimeNoiseKind> kinds = {
      periodic_noise_kind(),
      poisson_noise_kind(),
      trace_noise_kind(),
  };
  return kinds;
}

const TimeNoiseKind* find_time_noise_kind(const std::string& name) {
  for (const auto& kind : time_noise_kinds())
    if (kind.name == name) return &kind;
  return nullptr;
}

bool names_time_noise(const ParamReader& reader, const std::string& prefix) {
  const std::string key = prefix + ".law";
  if (!reader.has(key)) throw InputError(fmt::format("{} is missing", key));
  const auto name = reader.peek_text(key);
  if (name && find_time_noise_kind(*name)) return true;
  if (name && find_law_kind(*name)) return false;
  std::vector<std::string> all = law_kind_names();
  for (const auto& kind : time_noise_kinds()) all.push_back(kind.name);
  throw InputError(fmt::format("{} = \"{}\" is not a known noise law (known: {})", key,
                               name.value_or("?"), fmt::join(all, ", ")));
}

TimeNoiseLaw read_time_noise(ParamReader& reader, const std::string& prefix) {
  static const KeySpec law_key{.name = "law", .type = KeyType::kText, .meaning = "the noise"};
  const std::string name = reader.text(law_key, prefix);
  const TimeNoiseKind* kind = find_time_noise_kind(name);
  if (!kind) throw InputError(fmt::format("{}.law = \"{}\" is not time-based noise", prefix, name));
  return kind->make(reader, prefix);
}

void check_time_noise_horizon(const TimeNoiseLaw& law, double noiseless, double operations) {
  const auto* pattern = std::get_if<PatternNoise>(&law);
  if (!pattern) return;  // Poisson detours are drawn one after the other: no period to resolve
  const DetourPattern& p = *pattern->pattern;
  double longest = 0.0;
  for (const auto& d : p.busy()) longest = std::max(longest, d.end - d.start);
  const double free_fraction = p.free_per_period() / p.span();
  const double horizon = 16.0 * (noiseless + operations * longest) / free_fraction;
  p.check_resolution(horizon, pattern->period_key);
}

}  // namespace collnoise
