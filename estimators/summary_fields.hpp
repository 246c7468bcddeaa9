#pragma once
// The fields every sampled summary writes for an estimated mean and its quantiles, under a name
// prefix ("" for the primary metric of a tree barrier, "conventional_" for a butterfly case),
// so that all models report intervals the same way: value, interval, level and method.
#include <string>
#include <vector>

#include "core/field_spec.hpp"
#include "core/record.hpp"
#include "estimators/accumulator.hpp"
#include "estimators/histogram.hpp"
#include "estimators/mean_interval.hpp"

namespace collnoise {

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
