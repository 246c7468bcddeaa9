#include "estimators/summary_fields.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "estimators/quantile_interval.hpp"

namespace collnoise {

const std::vector<double>& reported_probabilities() {
  static const std::vector<double> p = {0.5, 0.9, 0.99, 0.999};
  return p;
}

std::string quantile_name(double p) {
  if (p == 0.5) return "median";
  if (p == 0.9) return "p90";
  if (p == 0.99) return "p99";
  return "p999";
}

namespace {

// A Nullable as Record::set stores it: the value, or null with its reason.
Field nullable_field(const Nullable& v) {
  return v.has_value() ? Field(*v.value) : Field(Null{v.reason});
}

}  // namespace

MeanFields::MeanFields(const std::string& prefix, const std::string& unit, const std::string& what,
                       const std::string& when)
    : fields_{
          {prefix + "samples", "", "samples of " + what, when},
          {prefix + "mean", unit, "mean of " + what, when},
          {prefix + "ci_low", unit, "lower end of the mean's confidence interval", when},
          {prefix + "ci_high", unit, "upper end of the mean's confidence interval", when},
          {prefix + "ci_method", "",
           "how the mean's interval was computed (docs/models/estimators.md)", when},
          {prefix + "standard_error", unit, "standard error of the mean", when},
      } {}

ProportionFields::ProportionFields(const std::string& prefix, const std::string& what,
                                   const std::string& when)
    : fields_{
          {prefix + "share", "", "the share of " + what, when},
          {prefix + "share_ci_low", "",
           "lower end of the share's exact (Clopper-Pearson) interval at the run's level", when},
          {prefix + "share_ci_high", "",
           "upper end of the share's exact (Clopper-Pearson) interval at the run's level", when},
      } {}

void put_proportion(Record& record, const ProportionFields& fields,
                    const ProportionInterval& interval) {
  record.put(fields.share(), Field(interval.share));
  record.put(fields.ci_low(), Field(interval.low));
  record.put(fields.ci_high(), Field(interval.high));
}

void put_mean(Record& record, const MeanFields& fields, const Accumulator& acc,
              const MeanInterval& interval) {
  record.put(fields.samples(), Field(acc.count));
  record.put(fields.mean(), Field(acc.mean));
  record.put(fields.ci_low(), nullable_field(interval.ci_low));
  record.put(fields.ci_high(), nullable_field(interval.ci_high));
  record.put(fields.ci_method(), Field(interval.method));
  record.put(fields.standard_error(), nullable_field(interval.standard_error));
}

void put_null_mean(Record& record, const MeanFields& fields, const std::string& reason) {
  for (const FieldSpec& field : fields.specs()) record.put(field, Field(Null{reason}));
}

QuantileFields::QuantileFields(const std::string& prefix, const std::string& unit,
                               const std::string& what, const std::string& when) {
  for (double p : reported_probabilities()) {
    const std::string name = prefix + quantile_name(p);
    const std::string quantile = fmt::format("the {} quantile of {}", p, what);
    fields_.push_back({name, unit, quantile + " (" + prefix + "quantiles_method says how)", when});
    fields_.push_back(
        {name + "_ci_low", unit, "lower end of its distribution-free interval", when});
    fields_.push_back(
        {name + "_ci_high", unit, "upper end of its distribution-free interval", when});
    fields_.push_back({name + "_resolution", unit,
                       "width of the histogram bin holding it; 0 for an order statistic", when});
  }
  fields_.push_back({prefix + "quantiles_method", "",
                     fmt::format("how the quantiles of {} were taken: '{}' (the run kept them) or "
                                 "'{}' (interpolated within a bin)",
                                 what, kOrderStatistics, kFromHistogram),
                     when});
}

void put_quantiles(Record& record, const QuantileFields& fields, const Histogram& histogram,
                   std::vector<double> raw, double level) {
  // A histogram's quantile is interpolated within a bin: of samples all equal to x it reports a
  // point of x's bin, not x. Where the values are kept, the quantile is one of them. (Sorted in
  // place: the raw samples may be GiB, and the caller's copy is not needed again.)
  std::vector<double>& sorted = raw;
  std::sort(sorted.begin(), sorted.end());
  const std::vector<double>& probabilities = reported_probabilities();
  for (std::size_t i = 0; i < probabilities.size(); ++i) {
    QuantileEstimate q;
    if (sorted.empty()) {
      q = quantile_from_histogram(histogram, probabilities[i], level);
    } else {
      q = quantile_from_sorted(sorted, probabilities[i], level);
      q.resolution = Nullable::of(0.0);
    }
    record.put(fields.estimate(i), q.estimate);
    record.put(fields.ci_low(i), q.ci_low);
    record.put(fields.ci_high(i), q.ci_high);
    record.put(fields.resolution(i), q.resolution);
  }
  record.put(fields.method(),
             Field(std::string(sorted.empty() ? kFromHistogram : kOrderStatistics)));
}

std::string join_warnings(const std::vector<std::string>& warnings) {
  std::string out;
  for (const auto& w : warnings) out += (out.empty() ? "" : "; ") + w;
  return out;
}

std::vector<IntervalEstimate> interval_estimates(const Record& summary) {
  // The names MeanFields and QuantileFields give: a field is an estimate when both of its
  // interval's ends are in the record.
  const auto with_ends = [&](const FieldSpec& value, const FieldSpec& low,
                             const FieldSpec& high) -> std::optional<IntervalEstimate> {
    if (!summary.find(low.name) || !summary.find(high.name)) return std::nullopt;
    return IntervalEstimate{value.name, low.name, high.name};
  };
  const std::string mean_name = MeanFields("", "", "").mean().name;
  const std::string share_name = ProportionFields("", "").share().name;
  const auto estimate_of = [&](const std::string& name) -> std::optional<IntervalEstimate> {
    if (name.ends_with(mean_name)) {
      const MeanFields mean(name.substr(0, name.size() - mean_name.size()), "", "");
      if (auto e = with_ends(mean.mean(), mean.ci_low(), mean.ci_high())) return e;
    }
    if (name.ends_with(share_name)) {
      const ProportionFields share(name.substr(0, name.size() - share_name.size()), "");
      if (auto e = with_ends(share.share(), share.ci_low(), share.ci_high())) return e;
    }
    const std::vector<double>& probabilities = reported_probabilities();
    for (std::size_t i = 0; i < probabilities.size(); ++i) {
      const std::string q = quantile_name(probabilities[i]);
      if (!name.ends_with(q)) continue;
      const QuantileFields quantiles(name.substr(0, name.size() - q.size()), "", "");
      if (auto e = with_ends(quantiles.estimate(i), quantiles.ci_low(i), quantiles.ci_high(i)))
        return e;
    }
    return std::nullopt;
  };
  std::vector<IntervalEstimate> estimates;
  for (const auto& [name, value] : summary.fields())
    if (auto e = estimate_of(name)) estimates.push_back(std::move(*e));
  return estimates;
}

}  // namespace collnoise
