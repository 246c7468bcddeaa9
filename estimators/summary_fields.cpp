#include "estimators/summary_fields.hpp"

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

void put_mean(Record& record, const std::string& prefix, const Accumulator& acc,
              const MeanInterval& interval, const std::string& unit) {
  record.set(prefix + "samples", Field(acc.count));
  record.set(prefix + "mean", Field(acc.mean));
  record.set(prefix + "ci_low", interval.ci_low);
  record.set(prefix + "ci_high", interval.ci_high);
  record.set(prefix + "ci_method", Field(interval.method));
  record.set(prefix + "standard_error", interval.standard_error);
  record.set_unit(
      {prefix + "mean", prefix + "ci_low", prefix + "ci_high", prefix + "standard_error"}, unit);
}

void put_quantiles(Record& record, const std::string& prefix, const Histogram& histogram,
                   double level, const std::string& unit) {
  for (double p : reported_probabilities()) {
    const std::string name = prefix + quantile_name(p);
    const QuantileEstimate q = quantile_from_histogram(histogram, p, level);
    record.set(name, q.estimate);
    record.set(name + "_ci_low", q.ci_low);
    record.set(name + "_ci_high", q.ci_high);
    record.set(name + "_resolution", q.resolution);
    record.set_unit({name, name + "_ci_low", name + "_ci_high", name + "_resolution"}, unit);
  }
}

std::string join_warnings(const std::vector<std::string>& warnings) {
  std::string out;
  for (const auto& w : warnings) out += (out.empty() ? "" : "; ") + w;
  return out;
}

}  // namespace collnoise
