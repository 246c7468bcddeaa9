#include "runs/run_settings.hpp"

#include <fmt/format.h>
#include <algorithm>

#include "core/errors.hpp"
#include "core/param_reader.hpp"
#include "engine/study.hpp"
#include "runs/run_file.hpp"

namespace collnoise {
namespace {

constexpr double kTwoTo32 = 4294967296.0;
constexpr double kTwoTo62 = 4611686018427387904.0;
constexpr double kTwoTo64 = 18446744073709551616.0;

// Every setting, declared once. Keys read only when given carry `optional`.
struct SettingKeys {
  KeySpec name{.name = "name",
               .type = KeyType::kText,
               .meaning = "the run's name, recorded in its result (no '/')"};
  KeySpec kind{.name = "kind",
               .type = KeyType::kChoice,
               .meaning = "what the run computes: samples of a collective, or an analysis",
               .fallback = std::string(kSampleRunKind),
               .choices = run_kinds()};
  KeySpec seed{.name = "seed",
               .type = KeyType::kInteger,
               .meaning = "the seed every point's streams are keyed by (--seed replaces it)",
               .bounds = {0.0, kTwoTo64, false, true}};
  KeySpec samples{.name = "samples",
                  .type = KeyType::kInteger,
                  .meaning =
                      "samples per point: tree-barrier phases, replications of a cycle "
                      "run, network mappings (also spelt `replications`)",
                  .bounds = {2.0, kTwoTo62},
                  .optional = true};
  KeySpec replications{.name = "replications",
                       .type = KeyType::kInteger,
                       .meaning = "another name of `samples`",
                       .bounds = {2.0, kTwoTo62},
                       .optional = true};
  KeySpec confidence{.name = "confidence",
                     .meaning = "confidence level of every interval",
                     .fallback = 0.95,
                     .bounds = {0.0, 1.0, true, true}};
  KeySpec chunk_size{.name = "chunk_size",
                     .type = KeyType::kInteger,
                     .meaning = "samples per accumulation chunk (absent: the model's default)",
                     .bounds = {1.0, kTwoTo32},
                     .optional = true};
  KeySpec max_core_hours{.name = "limits.max_core_hours",
                         .meaning = "refuse the run when its estimated work exceeds this",
                         .unit = "core-hours",
                         .bounds = {0.0, 1.0e12, true, false},
                         .optional = true};
  KeySpec max_memory_gib{.name = "limits.max_memory_gib",
                         .meaning = "refuse the run when its estimated memory exceeds this",
                         .unit = "GiB",
                         .bounds = {0.0, 1.0e12, true, false},
                         .optional = true};
  KeySpec raw_samples{.name = "output.raw_samples",
                      .type = KeyType::kBoolean,
                      .meaning = "keep every sample of the primary metric in the result",
                      .fallback = false};
  KeySpec raw_phase_times{.name = "output.raw_phase_times",
                          .type = KeyType::kBoolean,
                          .meaning = "another name of `output.raw_samples`",
                          .optional = true};
  KeySpec critical_path{.name = "output.critical_path",
                        .type = KeyType::kBoolean,
                        .meaning =
                            "record each sample's critical path: where its time and its noise "
                            "went (schedule points; docs/models/critical-path.md)",
                        .fallback = false};
  KeySpec histogram_bins{.name = "output.histogram_bins",
                         .type = KeyType::kInteger,
                         .meaning = "bins of each histogram (quantiles are read from them)",
                         .fallback = std::int64_t{400},
                         .bounds = {1.0, 1.0e7}};
  KeySpec histogram_spacing{.name = "output.histogram_spacing",
                            .type = KeyType::kChoice,
                            .meaning = "spacing of the histogram bins (auto: log for heavy tails)",
                            .fallback = std::string("auto"),
                            .choices = {"auto", "linear", "log"}};
  KeySpec mean_target{.name = "precision.mean_relative_half_width",
                      .meaning =
                          "sample until the mean's interval is this narrow, relative to "
                          "the mean",
                      .bounds = {0.0, 1.0, true, true},
                      .optional = true};
  KeySpec quantile{.name = "precision.quantile",
                   .meaning = "probability of the quantile a quantile target is on",
                   .bounds = {0.0, 1.0, true, true},
                   .optional = true};
  KeySpec quantile_target{.name = "precision.quantile_relative_half_width",
                          .meaning =
                              "sample until that quantile's interval is this narrow, "
                              "relative to the quantile",
                          .bounds = {0.0, 1.0, true, true},
                          .optional = true};
  KeySpec min_samples{.name = "precision.min_samples",
                      .type = KeyType::kInteger,
                      .meaning = "samples per point before any decision to stop",
                      .fallback = std::int64_t{1000},
                      .bounds = {2.0, kTwoTo62}};
  KeySpec until{.name = "precision.until",
                .type = KeyType::kChoice,
                .meaning = "sample until every user bound's verdict is decided (docs/bounds.md)",
                .choices = {"bounds_decided"},
                .optional = true};
  KeySpec max_samples{.name = "precision.max_samples",
                      .type = KeyType::kInteger,
                      .meaning = "the cap on samples per point under precision targets",
                      .bounds = {2.0, kTwoTo62},
                      .optional = true};
  KeySpec prediction_draws{
      .name = "prediction.draws",
      .type = KeyType::kInteger,
      .meaning =
          "simulate each point at this many of the machine file's [[machine.draws]] (its "
          "calibration's bootstrap refits), each with `samples`, and report predictive "
          "intervals (docs/calibration.md)",
      .bounds = {2.0, 100000.0},
      .optional = true};
  // Hints for `collnoise plot`, read back from the run file text stored in the result.
  KeySpec plot_title{.name = "plot.title",
                     .type = KeyType::kText,
                     .meaning = "title of the figure",
                     .optional = true};
  KeySpec plot_panels{.name = "plot.panels",
                      .type = KeyType::kText,
                      .meaning = "parameter that splits the figure into panels",
                      .optional = true};
  KeySpec plot_x{.name = "plot.x",
                 .type = KeyType::kText,
                 .meaning = "parameter on the figure's x axis",
                 .optional = true};
  KeySpec plot_series{.name = "plot.series",
                      .type = KeyType::kText,
                      .meaning = "parameter that tells the figure's curves apart",
                      .optional = true};
};

const SettingKeys& keys() {
  static const SettingKeys k;
  return k;
}

bool given_any(const ParamMap& given, const std::vector<std::string>& keys) {
  return std::any_of(keys.begin(), keys.end(), [&](const auto& k) { return given.contains(k); });
}

// The rules about which keys are given; kOrdered compares values, after they are read.
void check_presence(const SettingRule& rule, const ParamMap& given) {
  using Kind = SettingRule::Kind;
  const auto count = std::count_if(rule.keys.begin(), rule.keys.end(),
                                   [&](const auto& k) { return given.contains(k); });
  const bool broken =
      (rule.kind == Kind::kExclusive && count > 1) ||
      (rule.kind == Kind::kTogether && count > 0 && count < std::ssize(rule.keys)) ||
      (rule.kind == Kind::kNeedsAny && count > 0 && !given_any(given, rule.others)) ||
      (rule.kind == Kind::kExcludes && count > 0 && given_any(given, rule.others));
  if (broken) throw InputError(rule.message);
}

double number_of(const ParamValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  return std::get<double>(v);
}

void check_order(const SettingRule& rule, const ParamMap& given, const ParamMap& resolved) {
  if (rule.kind != SettingRule::Kind::kOrdered || !given_any(given, rule.others)) return;
  const auto low = resolved.find(rule.keys[0]);
  const auto high = resolved.find(rule.keys[1]);
  if (low == resolved.end() || high == resolved.end()) return;
  if (number_of(low->second) > number_of(high->second))
    throw InputError(fmt::format("{} = {} exceeds {} = {}: {}", rule.keys[0], to_text(low->second),
                                 rule.keys[1], to_text(high->second), rule.message));
}

std::optional<std::uint64_t> optional_count(ParamReader& reader, const KeySpec& key) {
  if (!reader.has(key.name)) return std::nullopt;
  return static_cast<std::uint64_t>(reader.integer(key));
}

void read_precision(RunSpec& run, ParamReader& reader) {
  const SettingKeys& k = keys();
  PrecisionSettings& precision = run.precision;
  precision.mean_relative_half_width = reader.optional_number(k.mean_target);
  precision.quantile = reader.optional_number(k.quantile);
  precision.quantile_relative_half_width = reader.optional_number(k.quantile_target);
  precision.until_bounds_decided =
      reader.has(k.until.name) && reader.text(k.until) == "bounds_decided";
  precision.enabled = precision.mean_relative_half_width ||
                      precision.quantile_relative_half_width || precision.until_bounds_decided;
  precision.min_samples = static_cast<std::uint64_t>(reader.integer(k.min_samples));
  precision.max_samples = optional_count(reader, k.max_samples).value_or(0);
  if (precision.enabled) run.samples = precision.max_samples;
}

void read_values(RunSpec& run, ParamReader& reader, std::optional<std::uint64_t> seed_override) {
  const SettingKeys& k = keys();
  run.name = reader.text(k.name);
  if (run.name.find('/') != std::string::npos)
    throw InputError(fmt::format("name = \"{}\" must not contain '/'", run.name));
  run.kind = reader.text(k.kind);
  if (seed_override) {
    run.seed = *seed_override;
    reader.accept(k.seed.name);
  } else {
    run.seed = static_cast<std::uint64_t>(reader.integer(k.seed));
  }
  run.samples = optional_count(reader, reader.has(k.replications.name) ? k.replications : k.samples)
                    .value_or(0);
  run.confidence = reader.number(k.confidence);
  run.chunk_size = optional_count(reader, k.chunk_size).value_or(0);
  run.limits.max_core_hours = reader.optional_number(k.max_core_hours);
  run.limits.max_memory_gib = reader.optional_number(k.max_memory_gib);
  run.output.raw_samples =
      reader.boolean(reader.has(k.raw_phase_times.name) ? k.raw_phase_times : k.raw_samples);
  run.output.critical_path = reader.boolean(k.critical_path);
  run.output.histogram_bins = static_cast<std::size_t>(reader.integer(k.histogram_bins));
  run.output.histogram_spacing = reader.text(k.histogram_spacing);
  run.prediction_draws = optional_count(reader, k.prediction_draws).value_or(0);
  for (const KeySpec* plot : {&k.plot_title, &k.plot_panels, &k.plot_x, &k.plot_series})
    if (reader.has(plot->name)) reader.text(*plot);  // type check only
  read_precision(run, reader);
}

}  // namespace

const std::vector<KeySpec>& run_setting_keys() {
  static const std::vector<KeySpec> list = [] {
    const SettingKeys& k = keys();
    std::vector<KeySpec> all{k.name,           k.kind,           k.seed,
                             k.samples,        k.replications,   k.confidence,
                             k.chunk_size,     k.raw_samples,    k.raw_phase_times,
                             k.critical_path,  k.histogram_bins, k.histogram_spacing,
                             k.mean_target,    k.quantile,       k.quantile_target,
                             k.min_samples,    k.until,          k.max_samples,
                             k.max_core_hours, k.max_memory_gib, k.prediction_draws,
                             k.plot_title,     k.plot_panels,    k.plot_x,
                             k.plot_series};
    // No setting defines a point's streams (the seed keys every point alike).
    for (KeySpec& key : all) key.identity = false;
    return all;
  }();
  return list;
}

const std::vector<SettingRule>& run_setting_rules() {
  using Kind = SettingRule::Kind;
  static const std::vector<std::string> targets = {"precision.mean_relative_half_width",
                                                   "precision.quantile_relative_half_width",
                                                   "precision.until"};
  static const std::vector<SettingRule> rules = {
      {Kind::kExclusive,
       {"samples", "replications"},
       {},
       "give samples or replications (they are the same setting), not both"},
      {Kind::kExclusive,
       {"output.raw_phase_times", "output.raw_samples"},
       {},
       "output.raw_phase_times and output.raw_samples are the same setting"},
      {Kind::kNeedsAny,
       {"precision.quantile", "precision.min_samples", "precision.max_samples"},
       targets,
       "[precision] needs mean_relative_half_width, quantile_relative_half_width or until"},
      {Kind::kTogether,
       {"precision.quantile", "precision.quantile_relative_half_width"},
       {},
       "precision.quantile and precision.quantile_relative_half_width go together"},
      {Kind::kExcludes,
       targets,
       {"samples", "replications"},
       "a precision target replaces samples: give precision.max_samples as the cap"},
      {Kind::kNeedsAny,
       targets,
       {"precision.max_samples"},
       "a precision target needs precision.max_samples, the cap on samples per point"},
      {Kind::kOrdered,
       {"precision.min_samples", "precision.max_samples"},
       targets,
       "precision never stops before its minimum"},
  };
  return rules;
}

bool is_run_setting(const std::string& key) {
  const auto& list = run_setting_keys();
  return std::any_of(list.begin(), list.end(), [&](const KeySpec& k) { return k.name == key; });
}

void read_run_settings(RunSpec& run, const ParamMap& given, const std::string& origin,
                       std::optional<std::uint64_t> seed_override,
                       const std::map<std::string, int>& lines) {
  try {
    for (const SettingRule& rule : run_setting_rules()) check_presence(rule, given);
    ParamReader reader(given);
    read_values(run, reader, seed_override);
    for (const SettingRule& rule : run_setting_rules()) check_order(rule, given, reader.resolved());
    reader.reject_unread("the run's settings");
  } catch (const InputError& e) {
    // A message about one value starts with its key: the key's line says where it is.
    const std::string message = e.what();
    for (const auto& [key, line] : lines)
      if (message.starts_with(key + " ") && is_run_setting(key))
        throw InputError(fmt::format("{}:{}: {}", origin, line, message));
    throw InputError(fmt::format("{}: {}", origin, message));
  }
}

}  // namespace collnoise
