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
#include "estimators/proportion_interval.hpp"

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

/// The fields of an estimated proportion (the share of samples with some property), a pattern
/// declared under a prefix: <prefix>share and its exact interval's <prefix>share_ci_low and
/// <prefix>share_ci_high (estimators/proportion_interval.hpp), unitless. A prediction treats it
/// as an estimate with an interval, as a mean (interval_estimates).
class ProportionFields {
 public:
  /// `what` names the samples counted ("samples whose slowest rank drew from a fitted tail").
  ProportionFields(const std::string& prefix, const std::string& what,
                   const std::string& when = "");
  const FieldSpec& share() const { return fields_[0]; }
  const FieldSpec& ci_low() const { return fields_[1]; }
  const FieldSpec& ci_high() const { return fields_[2]; }
  /// Every member, in the order put_proportion writes them.
  const FieldList& specs() const { return fields_; }

 private:
  FieldList fields_;
};

/// Writes an estimated proportion and its interval (ProportionFields' members).
void put_proportion(Record& record, const ProportionFields& fields,
                    const ProportionInterval& interval);

/// The fields of the reported quantiles (median, p90, p99, p99.9: reported_probabilities()), a
/// pattern declared under a prefix: <prefix><q>, <prefix><q>_ci_low, _ci_high and _resolution for
/// each quantile q, with distribution-free intervals, and <prefix>quantiles_method saying how they
/// were taken: order statistics of the raw samples where the run kept them (resolution 0), else
/// from the histogram (interpolated within a bin; resolution the bin's width).
class QuantileFields {
 public:
  QuantileFields(const std::string& prefix, const std::string& unit, const std::string& what,
                 const std::string& when = "");
  /// The members of the i-th reported quantile (reported_probabilities()[i]).
  const FieldSpec& estimate(std::size_t i) const { return fields_[4 * i]; }
  const FieldSpec& ci_low(std::size_t i) const { return fields_[4 * i + 1]; }
  const FieldSpec& ci_high(std::size_t i) const { return fields_[4 * i + 2]; }
  const FieldSpec& resolution(std::size_t i) const { return fields_[4 * i + 3]; }
  /// How the quantiles were taken (kOrderStatistics or kFromHistogram).
  const FieldSpec& method() const { return fields_.back(); }
  /// Every member, in the order put_quantiles writes them.
  const FieldList& specs() const { return fields_; }

 private:
  FieldList fields_;
};

/// What QuantileFields::method() holds.
inline constexpr const char* kOrderStatistics = "order statistics of the raw samples";
inline constexpr const char* kFromHistogram = "from the histogram";

/// Writes the reported quantiles and their intervals at `level`: order statistics of `raw` (the
/// same metric's values, in any order; sorted here) when it is not empty, else from `histogram`.
void put_quantiles(Record& record, const QuantileFields& fields, const Histogram& histogram,
                   std::vector<double> raw, double level);

/// Quantile probabilities reported for every sampled point (median, p90, p99, p99.9).
const std::vector<double>& reported_probabilities();
/// "median", "p90", "p99", "p999".
std::string quantile_name(double p);

/// An estimate and its interval's ends, by their fields' names in a summary record.
struct IntervalEstimate {
  std::string value;  ///< "<prefix>mean" or "<prefix><q>"
  std::string low;
  std::string high;
};

/// The estimates with intervals that MeanFields and QuantileFields wrote into `summary`, in its
/// order: each <prefix>mean with <prefix>ci_low and <prefix>ci_high, each reported quantile
/// <prefix><q> with <q>_ci_low and <q>_ci_high. Other fields are not estimates of this kind.
std::vector<IntervalEstimate> interval_estimates(const Record& summary);

/// Joins warnings with "; " (empty when none).
std::string join_warnings(const std::vector<std::string>& warnings);

}  // namespace collnoise
