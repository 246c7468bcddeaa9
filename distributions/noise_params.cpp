#include "distributions/noise_params.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "distributions/detour_trace.hpp"

namespace collnoise {
namespace {

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// A unit-mean law's shape parameters under `prefix` (a mixture component, with its weight, or a
// Poisson duration law).
void read_shape(ParamReader& reader, const std::string& prefix, LawSpec& spec, bool with_weight) {
  for (const auto& key : law_keys(spec.law, true)) {
    if (key == "weight" && !with_weight) continue;
    const std::string full = prefix + "." + key;
    if (!reader.has(full)) {
      reader.accept(full);
      continue;
    }
    if (key == "file")
      spec.file = reader.file(full);
    else
      spec.numbers[key] = reader.number(full);
  }
}

LawSpec component_spec(const ParamMap& table, std::size_t index) {
  LawSpec spec;
  spec.where = fmt::format("noise.components[{}]", index);
  ParamMap prefixed;
  for (const auto& [k, v] : table) prefixed[spec.where + "." + k] = v;
  ParamReader reader(std::move(prefixed));
  spec.law = reader.text(spec.where + ".law");
  if (!contains(law_names(), spec.law))
    throw InputError(fmt::format("{}.law = \"{}\" is not a known noise law (known: {})", spec.where,
                                 spec.law, fmt::join(law_names(), ", ")));
  if (spec.law == "mixture")
    throw InputError(fmt::format("{}.law = \"mixture\": mixtures cannot nest", spec.where));
  read_shape(reader, spec.where, spec, true);
  reader.reject_unread(fmt::format("a {} component", spec.law));
  return spec;
}

std::string describe_components(const std::vector<LawSpec>& components) {
  std::string desc;
  for (const auto& c : components) {
    desc += c.law;
    for (const auto& [k, v] : c.numbers) desc += fmt::format(" {}={}", k, to_text(v));
    if (!c.file.empty()) desc += " file=" + c.file;
    desc += ";";
  }
  return desc;
}

TimeNoiseLaw read_time_law(ParamReader& reader, const std::string& law) {
  if (law == "periodic") {
    const double period =
        reader.number_in("noise.P", std::nullopt, {1.0e-9, kMaxSeconds}, "seconds (the period)");
    const double duration = reader.number_in("noise.D", std::nullopt, {0.0, kMaxSeconds, true},
                                             "seconds (the detour), and below noise.P");
    return periodic_noise(period, duration);
  }
  if (law == "trace") {
    const std::string file = reader.file("noise.file");
    const double unit = trace_unit_seconds(reader.text_or("noise.unit", "ns"));
    const auto span =
        reader.has("noise.span")
            ? std::optional(reader.number_in("noise.span", std::nullopt, {1.0e-9, kMaxSeconds},
                                             "seconds (the trace's period)"))
            : std::nullopt;
    auto pattern = std::make_shared<const DetourPattern>(read_detour_trace(file, unit, span));
    PatternNoise noise;
    noise.description = fmt::format("trace({}, {} busy intervals, span {} s)", file,
                                    pattern->busy().size(), pattern->span());
    noise.pattern = std::move(pattern);
    return noise;
  }
  // poisson(rate, duration law)
  const double rate =
      reader.number_in("noise.rate", std::nullopt, {0.0, 1.0e9, true}, "detours per second");
  LawSpec duration;
  duration.law = reader.text_or("noise.duration.law", "exponential");
  duration.where = "noise.duration";
  if (!contains(law_names(), duration.law) || duration.law == "mixture" || duration.law == "none")
    throw InputError(fmt::format(
        "noise.duration.law = \"{}\" is invalid: use a unit-mean law of distributions/ (not "
        "mixture or none)",
        duration.law));
  read_shape(reader, "noise.duration", duration, false);
  const double mean = reader.number_in("noise.duration.mean", std::nullopt,
                                       {0.0, kMaxSeconds, true}, "seconds (the mean detour)");
  // Overlapping detours merge: at a load rate x mean of 5 a merged detour already holds about
  // e^5 = 150 of them, and beyond that their number grows exponentially (the CPU is never free).
  if (rate * mean > 5.0)
    throw InputError(fmt::format(
        "noise.rate x noise.duration.mean = {:g} is out of range: at most 5 (the CPU would be busy "
        "{:.4g}% of the time and detours would merge without end)",
        rate * mean, 100.0 * (1.0 - std::exp(-rate * mean))));
  return std::make_shared<const PoissonDetours>(rate, mean, make_law(duration));
}

}  // namespace

void check_time_noise_horizon(const TimeNoiseLaw& law, double noiseless, double operations) {
  const auto* pattern = std::get_if<PatternNoise>(&law);
  if (!pattern) return;  // Poisson detours are drawn one after the other: no period to resolve
  const DetourPattern& p = *pattern->pattern;
  double longest = 0.0;
  for (const auto& d : p.busy()) longest = std::max(longest, d.end - d.start);
  const double free_fraction = p.free_per_period() / p.span();
  const double horizon = 16.0 * (noiseless + operations * longest) / free_fraction;
  p.check_resolution(horizon, pattern->description.starts_with("periodic")
                                  ? "noise.P"
                                  : "noise.span (the trace's period)");
}

const std::vector<std::string>& time_law_names() {
  static const std::vector<std::string> names = {"periodic", "poisson", "trace"};
  return names;
}

NoiseSetup read_noise(ParamReader& reader, const std::vector<ParamMap>& components) {
  NoiseSetup setup;
  setup.law = reader.text("noise.law");
  if (contains(time_law_names(), setup.law)) {
    setup.time = read_time_law(reader, setup.law);
    return setup;
  }
  if (!contains(law_names(), setup.law)) {
    std::vector<std::string> all = law_names();
    all.insert(all.end(), time_law_names().begin(), time_law_names().end());
    throw InputError(fmt::format("noise.law = \"{}\" is not a known noise law (known: {})",
                                 setup.law, fmt::join(all, ", ")));
  }
  LawSpec spec;
  spec.law = setup.law;
  spec.where = "noise";
  for (const auto& key : law_keys(spec.law, false)) {
    const std::string full = "noise." + key;
    if (key == "components") continue;
    if (!reader.has(full)) {
      reader.accept(full);
      continue;
    }
    if (key == "file")
      spec.file = reader.file(full);
    else
      spec.numbers[key] = reader.number(full);
  }
  if (spec.law == "mixture") {
    if (components.empty())
      throw InputError("noise.components is missing: a mixture needs components");
    for (std::size_t i = 0; i < components.size(); ++i) {
      spec.components.push_back(component_spec(components[i], i));
      if (!spec.components.back().file.empty()) reader.add_input_file(spec.components.back().file);
    }
    reader.derive("noise.components", describe_components(spec.components));
  } else if (!components.empty()) {
    throw InputError(fmt::format("noise.components is not a parameter of the {} law", spec.law));
  }
  setup.stage = std::move(spec);
  return setup;
}

}  // namespace collnoise
