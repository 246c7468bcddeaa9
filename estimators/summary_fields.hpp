#pragma once
// The fields every sampled summary writes for an estimated mean and its quantiles, under a name
// prefix ("" for the primary metric of a tree barrier, "conventional_" for a butterfly case),
// so that all models report intervals the same way: value, interval, level and method.
#include <cstddef>
#include <string>
#include <vector>

#include "core/field_spec.hpp"
#include "core/record.hpp"
#include "estimators/accumulator.hpp"
#include "estimators/histogram.hpp"
#include "estimators/mean_interval.hpp"

namespace collnoise {

/// The fields of an estimated mean, a pattern declared under a prefix ("" for a tree barrier's
/// primary metric, "completion_" for a schedule's): <prefix>samples, <prefix>mean,
/// <prefix>ci_low, <prefix>ci_high, <prefix>ci_method and <prefix>standard_error, the estimates in
/// the metric's unit. A model declares one per estimated quantity and writes it with put_mean.
class MeanFields {
 public:
  /// `what` names the estimated quantity ("the phase time"); `when` is the fields' condition
  /// (empty: always).
  MeanFields(const std::string& prefix, const std::string& unit, const std::string& what,
             const std::string& when = "");
  const FieldSpec& samples() const { return fields_[0]; }
  const FieldSpec& mean() const { return fields_[1]; }
  const FieldSpec& ci_low() const { return fields_[2]; }
  const FieldSpec& ci_high() const { return fields_[3]; }
  const FieldSpec& ci_method() const { return fields_[4]; }
  const FieldSpec& standard_error() const { return fields_[5]; }
  /// Every member, in the order put_mean writes them.
  const FieldList& specs() const { return fields_; }

 private:
  FieldList fields_;
};

/// Writes an estimated mean and its interval (MeanFields' members).
void put_mean(Record& record, const MeanFields& fields, const Accumulator& acc,
              const MeanInterval& interval);
/// Writes every member of `fields` null, with `reason` (a metric the point lacks).
void put_null_mean(Record& record, const MeanFields& fields, const std::string& reason);

/// The fields of the reported quantiles (median, p90, p99, p99.9: reported_probabilities()), a
/// pattern declared under a prefix: <prefix><q>, <prefix><q>_ci_low, _ci_high and _resolution for
/// each quantile q, from a histogram with distribution-free intervals.
class QuantileFields {
 public:
  QuantileFields(const std::string& prefix, const std::string& unit, const std::string& what,
                 const std::string& when = "");
  /// The members of the i-th reported quantile (reported_probabilities()[i]).
  const FieldSpec& estimate(std::size_t i) const { return fields_[4 * i]; }
  const FieldSpec& ci_low(std::size_t i) const { return fields_[4 * i + 1]; }
  const FieldSpec& ci_high(std::size_t i) const { return fields_[4 * i + 2]; }
  const FieldSpec& resolution(std::size_t i) const { return fields_[4 * i + 3]; }
  /// Every member, in the order put_quantiles writes them.
  const FieldList& specs() const { return fields_; }

 private:
  FieldList fields_;
};

/// Writes the reported quantiles of `histogram` and their intervals at `level`.
void put_quantiles(Record& record, const QuantileFields& fields, const Histogram& histogram,
                   double level);

/// <prefix>mean, <prefix>ci_low, <prefix>ci_high, <prefix>ci_method, <prefix>standard_error,
/// <prefix>samples; confidence and warnings are the fields every point shares
/// (runs/point_fields.hpp). The estimates are in `unit`, the metric's ("seconds").
void put_mean(Record& record, const std::string& prefix, const Accumulator& acc,
              const MeanInterval& interval, const std::string& unit);

/// The fields put_mean writes, each null with `reason` (a metric the point lacks or left out).
/// Their units are the caller's to declare.
void put_null_mean(Record& record, const std::string& prefix, const std::string& reason);

/// <prefix><name>, <prefix><name>_ci_low, _ci_high and _resolution for the median, p90, p99 and
/// p99.9 of a histogram (distribution-free intervals), in `unit`, the histogram's.
void put_quantiles(Record& record, const std::string& prefix, const Histogram& histogram,
                   double level, const std::string& unit);

/// The schema of what put_mean (or put_null_mean) writes under `prefix`: `what` names the
/// estimated quantity ("the phase time"), `unit` is the metric's, `when` the condition of the
/// fields (empty: always).
std::vector<FieldSpec> mean_field_specs(const std::string& prefix, const std::string& unit,
                                        const std::string& what, const std::string& when = "");

/// The schema of what put_quantiles writes under `prefix`, as mean_field_specs.
std::vector<FieldSpec> quantile_field_specs(const std::string& prefix, const std::string& unit,
                                            const std::string& what, const std::string& when = "");

/// Quantile probabilities reported for every sampled point (median, p90, p99, p99.9).
const std::vector<double>& reported_probabilities();
/// "median", "p90", "p99", "p999".
std::string quantile_name(double p);

/// Joins warnings with "; " (empty when none).
std::string join_warnings(const std::vector<std::string>& warnings);

}  // namespace collnoise
