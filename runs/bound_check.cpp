#include "runs/bound_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <numbers>

#include "core/errors.hpp"
#include "core/stop_poll.hpp"
#include "estimators/bound_fields.hpp"
#include "estimators/quantile_interval.hpp"
#include "runs/bound_expression.hpp"
#include "runs/point_fields.hpp"

namespace collnoise {
namespace {

double probability_of(const std::string& statistic) {
  for (const auto& [name, p] : bound_statistics())
    if (name == statistic) return p;
  return 0.0;
}

// A field's value as a number: numbers as they are, booleans as 1 and 0; else none.
std::optional<double> number_of(const Field& field) {
  if (const auto* d = std::get_if<double>(&field)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&field)) return static_cast<double>(*i);
  if (const auto* u = std::get_if<std::uint64_t>(&field)) return static_cast<double>(*u);
  if (const auto* b = std::get_if<bool>(&field)) return *b ? 1.0 : 0.0;
  return std::nullopt;
}

// The numeric keys of a point (a rank count beyond 2^53 as its nearest double) and then the
// summary's fields; the first of a name wins.
std::map<std::string, double> variable_values(const PreparedPoint& point, const Record& summary) {
  std::map<std::string, double> values;
  for (const Record* record : {&point.params, &summary})
    for (const auto& [key, field] : record->fields())
      if (const auto x = number_of(field)) values.emplace(variable_name(key), *x);
  return values;
}

// "bound[i] ("name")", as the run file's reader names a bound (runs/user_bound.cpp).
std::string bound_label(const std::string& origin, std::size_t index, const UserBound& bound) {
  return fmt::format("{}: bound[{}] (\"{}\")", origin, index + 1, bound.name);
}

// An expression as a message quotes it: control characters as '?', cut after 200 characters (a
// message is one line of sane length).
std::string quoted(const std::string& text) {
  constexpr std::size_t kLongest = 200;
  std::string out;
  for (const char c : text.substr(0, kLongest))
    out += std::iscntrl(static_cast<unsigned char>(c)) ? '?' : c;
  return fmt::format("\"{}{}\"", out, text.size() > kLongest ? "..." : "");
}

bool keeps_histogram_of_primary(const SampledStudy& study) {
  const TallyLayout shape = study.shape(2, "auto");
  return std::any_of(shape.histograms.begin(), shape.histograms.end(),
                     [](const NamedHistogram& h) { return h.metric == 0; });
}

Field nullable_field(const Nullable& value) {
  return value.has_value() ? Field(*value.value) : Field(Null{value.reason});
}

// A value that is not finite, as a message says it ("NaN" whatever its sign bit, "inf", "-inf").
std::string non_finite_text(double value) {
  return std::isnan(value) ? "NaN" : fmt::format("{}", value);
}

// What the bounds' expressions read at a point: its names and their values, taken once for all
// of its bounds (before any bound writes its fields: the expressions read the model's fields).
struct BoundScope {
  std::vector<std::string> names;
  std::map<std::string, double> values;
};

BoundScope scope_of(const PreparedPoint& point, const Record& summary) {
  return {bound_variable_names(point), variable_values(point, summary)};
}

double bound_value(const UserBound& bound, const BoundScope& scope) {
  BoundExpression expression(bound.expression, scope.names);
  return expression.evaluate(scope.values);
}

// The intervals of a point's bounds, by statistic and level: every bound of one statistic has
// the same ones, computed once however many bounds there are.
class IntervalCache {
 public:
  IntervalCache(const SampledStudy& study, const Tally& tally, std::span<const double> sorted)
      : study_(study), tally_(tally), sorted_(sorted) {}
  const StatisticInterval& at(const std::string& statistic, double level) {
    const auto key = std::make_pair(statistic, level);
    auto it = cache_.find(key);
    if (it == cache_.end())
      it = cache_.emplace(key, statistic_interval(study_, tally_, statistic, level, sorted_)).first;
    return it->second;
  }

 private:
  const SampledStudy& study_;
  const Tally& tally_;
  std::span<const double> sorted_;
  std::map<std::pair<std::string, double>, StatisticInterval> cache_;
};

// The verdict fields of one bound at one point, in the order of the pattern's members
// (estimators/bound_fields.hpp). Returns whether its verdict at the level is decided (holds or
// violated).
bool put_one_bound(Record& summary, std::size_t i, const UserBound& bound, double value,
                   const StatisticInterval& at_level, const StatisticInterval& adjusted,
                   const BoundLevels& levels, const std::string& unit) {
  const auto put = [&](BoundMember member, Field field) {
    summary.put(bound_field(i + 1, member, unit), std::move(field));
  };
  put(BoundMember::kName, Field(bound.name));
  put(BoundMember::kStatistic, Field(bound.statistic));
  put(BoundMember::kRelation, Field(relation_text(bound.relation)));
  if (!std::isfinite(value))
    put(BoundMember::kValue, Field(Null{"the expression is not a finite number at this point"}));
  else
    put(BoundMember::kValue, Field(value));
  put(BoundMember::kEstimate, nullable_field(at_level.estimate));
  put(BoundMember::kCiLow, nullable_field(at_level.low));
  put(BoundMember::kCiHigh, nullable_field(at_level.high));
  put(BoundMember::kCiMethod, Field(at_level.method));
  put(BoundMember::kLevel, Field(levels.level));
  put(BoundMember::kLevelMethod, Field(levels.method));
  const auto verdict = [&](const StatisticInterval& s) -> Field {
    if (!std::isfinite(value)) return Null{"the bound has no value at this point"};
    if (!s.low.has_value()) return Null{s.low.reason};
    if (!s.high.has_value()) return Null{s.high.reason};
    return verdict_text(bound_verdict(bound, value, *s.low.value, *s.high.value));
  };
  Field decision = verdict(at_level);
  const bool decided = std::holds_alternative<std::string>(decision) &&
                       std::get<std::string>(decision) != verdict_text(BoundVerdict::kUndecided);
  put(BoundMember::kVerdict, std::move(decision));
  put(BoundMember::kVerdictAdjusted, verdict(adjusted));
  if (std::isfinite(value) && value != 0.0 && at_level.estimate.has_value())
    put(BoundMember::kDistance, Field((*at_level.estimate.value - value) / std::abs(value)));
  else
    put(BoundMember::kDistance, Field(Null{"no estimate, or a bound of value 0"}));
  return decided;
}

}  // namespace

std::vector<std::string> bound_variable_names(const PreparedPoint& point) {
  std::vector<std::string> names;
  const auto add = [&](const std::string& key) {
    const std::string name = variable_name(key);
    if (!name.empty() && key.find('<') == std::string::npos &&
        !std::isdigit(static_cast<unsigned char>(name.front())) &&
        std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(name);
  };
  for (const auto& [key, field] : point.params.fields())
    if (number_of(field)) add(key);
  if (point.model != nullptr)
    for (const FieldSpec& f : point.model->summary_fields) add(f.name);
  for (const FieldSpec& f : shared_point_fields()) add(f.name);
  return names;
}

void check_bounds_apply(const std::vector<UserBound>& bounds, const PreparedPoint& point,
                        const std::string& origin, bool raw_samples, bool until_decided) {
  if (bounds.empty()) return;
  if (!point.sampled)
    throw InputError(
        fmt::format("{}: {} points are analyses, not samples: bounds apply to sampled points only",
                    bound_label(origin, 0, bounds.front()), point.kind));
  const std::vector<std::string> names = bound_variable_names(point);
  // The point's keys alone: a bound that reads no summary field has its value before sampling.
  std::map<std::string, double> keys;
  for (const auto& [key, field] : point.params.fields())
    if (const auto x = number_of(field)) keys.emplace(variable_name(key), *x);
  StopPoll poll(64);
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    poll.tick();
    const UserBound& bound = bounds[i];
    BoundExpression expression(bound.expression, names);
    if (const auto& fault = expression.fault()) {
      const std::string at =
          fault->column > 0 ? fmt::format(", column {}", fault->column) : std::string();
      const bool naming = fault->message.starts_with("unknown name");
      throw InputError(fmt::format("{}: expression {}{}: {}{}", bound_label(origin, i, bound),
                                   quoted(bound.expression), at, fault->message,
                                   naming ? fmt::format(" (names a {} point defines: "
                                                        "docs/reference/keys.md and "
                                                        "summary-fields.md)",
                                                        point.kind)
                                          : std::string()));
    }
    if (probability_of(bound.statistic) > 0.0 && !raw_samples &&
        !keeps_histogram_of_primary(*point.sampled))
      throw InputError(fmt::format(
          "{}: statistic = \"{}\" needs the primary metric's distribution, which a {} point "
          "keeps only with output.raw_samples = true",
          bound_label(origin, i, bound), bound.statistic, point.kind));
    if (!until_decided) continue;
    const std::vector<std::string> used = expression.used();
    const bool closed = std::all_of(used.begin(), used.end(),
                                    [&](const std::string& name) { return keys.contains(name); });
    if (const double value = expression.evaluate(keys); closed && !std::isfinite(value))
      throw InputError(fmt::format(
          "{}: expression {} is {} at this point, not a finite number: a bound without a value "
          "is never decided, so precision.until = \"bounds_decided\" would sample to "
          "precision.max_samples",
          bound_label(origin, i, bound), quoted(bound.expression), non_finite_text(value)));
  }
}

namespace {

// The raw samples of the primary metric in order (a copy: the tally's stay in sampling order).
std::vector<double> sorted_raw(const Tally& tally) {
  std::vector<double> values = tally.raw();
  std::sort(values.begin(), values.end());
  return values;
}

// The raw samples sorted once when any of `bounds` is of a quantile and the tally keeps them.
std::vector<double> sorted_if_needed(const std::vector<UserBound>& bounds, const Tally& tally) {
  if (!tally.layout().keep_raw) return {};
  for (const UserBound& bound : bounds)
    if (probability_of(bound.statistic) > 0.0) return sorted_raw(tally);
  return {};
}

}  // namespace

StatisticInterval statistic_interval(const SampledStudy& study, const Tally& tally,
                                     const std::string& statistic, double level,
                                     std::span<const double> sorted) {
  const double p = probability_of(statistic);
  if (p == 0.0) {
    const MeanInterval ci = study.primary_mean(tally, level);
    const double center = ci.corrected_mean.has_value() ? *ci.corrected_mean.value : ci.mean;
    return {Nullable::of(center), ci.ci_low, ci.ci_high, ci.method};
  }
  if (tally.layout().keep_raw) {
    std::vector<double> own;
    if (sorted.empty()) sorted = own = sorted_raw(tally);
    const QuantileEstimate q = quantile_from_sorted(sorted, p, level);
    return {q.estimate, q.ci_low, q.ci_high, "order_statistics_raw"};
  }
  const Histogram* h = tally.histogram_of(0);
  if (h == nullptr) {
    const Nullable none = Nullable::null("no histogram of the primary metric, and no raw samples");
    return {none, none, none, "none"};
  }
  const QuantileEstimate q = quantile_from_histogram(*h, p, level);
  return {q.estimate, q.ci_low, q.ci_high, "order_statistics_binned"};
}

std::string verdict_text(BoundVerdict verdict) {
  switch (verdict) {
    case BoundVerdict::kHolds:
      return "holds";
    case BoundVerdict::kViolated:
      return "violated";
    case BoundVerdict::kUndecided:
      return "undecided";
  }
  return "?";
}

BoundVerdict bound_verdict(const UserBound& bound, double value, double low, double high) {
  switch (bound.relation) {
    case BoundRelation::kAtLeast:
      return low >= value ? BoundVerdict::kHolds
                          : (high < value ? BoundVerdict::kViolated : BoundVerdict::kUndecided);
    case BoundRelation::kAtMost:
      return high <= value ? BoundVerdict::kHolds
                           : (low > value ? BoundVerdict::kViolated : BoundVerdict::kUndecided);
    case BoundRelation::kEqual: {
      const double band = bound.tolerance * std::abs(value);
      const double band_low = value - band, band_high = value + band;
      if (low >= band_low && high <= band_high) return BoundVerdict::kHolds;
      if (high < band_low || low > band_high) return BoundVerdict::kViolated;
      return BoundVerdict::kUndecided;
    }
  }
  return BoundVerdict::kUndecided;
}

BoundLevels bound_levels(double confidence, std::size_t points, std::size_t bounds,
                         std::optional<std::uint64_t> look) {
  BoundLevels levels;
  double alpha = 1.0 - confidence;
  if (look) {
    const auto k = static_cast<double>(std::max<std::uint64_t>(*look, 1));
    alpha *= 6.0 / (std::numbers::pi * std::numbers::pi * k * k);
    levels.method = "spent over looks";
  }
  levels.level = 1.0 - alpha;
  const auto tests = static_cast<double>(std::max<std::size_t>(points * bounds, 1));
  levels.adjusted = 1.0 - alpha / tests;
  return levels;
}

void put_bound_fields(Record& summary, const std::vector<UserBound>& bounds,
                      const PreparedPoint& point, const Tally& tally, const BoundLevels& levels) {
  if (bounds.empty() || !point.sampled) return;
  bool all_decided = true;
  const BoundScope scope = scope_of(point, summary);
  const std::vector<double> sorted = sorted_if_needed(bounds, tally);
  IntervalCache intervals(*point.sampled, tally, sorted);
  const std::string unit = tally.layout().unit_of(0);
  StopPoll poll(64);  // tens of thousands of bounds take a while: a stop request is heard
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    poll.tick();
    const UserBound& bound = bounds[i];
    const double value = bound_value(bound, scope);
    const bool decided =
        put_one_bound(summary, i, bound, value, intervals.at(bound.statistic, levels.level),
                      intervals.at(bound.statistic, levels.adjusted), levels, unit);
    all_decided = all_decided && decided;
  }
  summary.put(bounds_decided_field(), Field(all_decided));
}

std::string bounds_undecided(const std::vector<UserBound>& bounds, const PreparedPoint& point,
                             const Record& summary, const Tally& tally, double level) {
  const BoundScope scope = scope_of(point, summary);
  const std::vector<double> sorted = sorted_if_needed(bounds, tally);
  IntervalCache intervals(*point.sampled, tally, sorted);
  StopPoll poll(64);
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    poll.tick();
    const UserBound& bound = bounds[i];
    const std::string which = fmt::format("bound[{}] (\"{}\")", i + 1, bound.name);
    const double value = bound_value(bound, scope);
    if (!std::isfinite(value))
      return fmt::format(
          "{} has no value at this point (its expression is {}, not a finite number), so it can "
          "never be decided",
          which, non_finite_text(value));
    const StatisticInterval& s = intervals.at(bound.statistic, level);
    if (!s.low.has_value() || !s.high.has_value())
      return fmt::format("{} is undecided at level {:.6g}: {}", which, level,
                         s.low.has_value() ? s.high.reason : s.low.reason);
    if (bound_verdict(bound, value, *s.low.value, *s.high.value) == BoundVerdict::kUndecided)
      return fmt::format("{} is undecided at level {:.6g}", which, level);
  }
  return {};
}

}  // namespace collnoise
