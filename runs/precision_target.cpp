#include "runs/precision_target.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "estimators/mean_interval.hpp"
#include "estimators/quantile_interval.hpp"
#include "runs/shared_fields.hpp"

namespace collnoise {
namespace {

std::uint64_t round_up_to_chunks(std::uint64_t samples, const ChunkPlan& plan) {
  const std::uint64_t chunks = (samples + plan.chunk_size - 1) / plan.chunk_size;
  return std::min(plan.samples, chunks * plan.chunk_size);
}

// Samples needed for an interval of relative half-width `achieved` at n to shrink to `target`.
std::uint64_t needed(std::uint64_t n, double achieved, double target) {
  const double ratio = achieved / target;
  return static_cast<std::uint64_t>(std::ceil(static_cast<double>(n) * ratio * ratio));
}

}  // namespace

void check_precision_applies(const PrecisionSettings& settings, double primary_tail_index,
                             const TallyLayout& layout, const std::string& point_label) {
  if (!settings.enabled) return;
  if (settings.mean_relative_half_width && primary_tail_index <= 2.0)
    throw InputError(fmt::format(
        "{}: precision.mean_relative_half_width cannot be met: the primary metric ({}) has tail "
        "index {:.3g} <= 2, so its variance is infinite and a mean's interval does not shrink "
        "like 1/sqrt(n); ask for a quantile instead (precision.quantile and "
        "precision.quantile_relative_half_width)",
        point_label, layout.metrics.front(), primary_tail_index));
  if (settings.quantile) {
    const bool has_histogram = std::any_of(layout.histograms.begin(), layout.histograms.end(),
                                           [](const NamedHistogram& h) { return h.metric == 0; });
    if (!has_histogram)
      throw InputError(fmt::format(
          "{}: precision.quantile needs a histogram of the primary metric ({}), which this model "
          "does not keep",
          point_label, layout.metrics.front()));
  }
}

PrecisionStatus assess_precision(const Tally& tally, const PrecisionSettings& settings,
                                 double confidence) {
  PrecisionStatus s;
  s.samples = tally.samples();
  bool met = true;
  std::uint64_t predicted = s.samples;
  std::vector<std::string> notes;
  if (settings.mean_relative_half_width) {
    const Accumulator total = tally.total(0);
    const MeanInterval ci = student_t_interval(total, confidence);
    if (ci.ci_low.has_value() && ci.ci_high.has_value() && total.mean != 0.0) {
      const double half = (*ci.ci_high.value - *ci.ci_low.value) / 2.0;
      s.mean_relative_half_width = half / std::abs(total.mean);
      if (*s.mean_relative_half_width > *settings.mean_relative_half_width) {
        met = false;
        predicted = std::max(predicted, needed(s.samples, *s.mean_relative_half_width,
                                               *settings.mean_relative_half_width));
        notes.push_back(fmt::format("mean interval +-{:.3g} of the mean, target +-{:.3g}",
                                    *s.mean_relative_half_width,
                                    *settings.mean_relative_half_width));
      }
    } else {
      met = false;
      predicted = std::max(predicted, 2 * s.samples);
      notes.push_back("the mean's interval is undefined (too few samples, or a zero mean)");
    }
  }
  if (settings.quantile) {
    const Histogram* h = tally.histogram_of(0);
    const QuantileEstimate q = quantile_from_histogram(*h, *settings.quantile, confidence);
    const double target = *settings.quantile_relative_half_width;
    if (q.estimate.has_value() && q.ci_low.has_value() && q.ci_high.has_value() &&
        *q.estimate.value != 0.0) {
      const double scale = std::abs(*q.estimate.value);
      s.quantile_relative_half_width = (*q.ci_high.value - *q.ci_low.value) / 2.0 / scale;
      if (*s.quantile_relative_half_width > target) {
        met = false;
        if (q.resolution.has_value() && *q.resolution.value / 2.0 / scale > target) {
          s.unreachable = true;
          notes.push_back(fmt::format(
              "the quantile's interval cannot be narrower than its bin ({:.3g} of the estimate); "
              "raise output.histogram_bins",
              *q.resolution.value / scale));
        } else {
          notes.push_back(fmt::format("quantile {} interval +-{:.3g}, target +-{:.3g}",
                                      *settings.quantile, *s.quantile_relative_half_width, target));
        }
        predicted = std::max(predicted, needed(s.samples, *s.quantile_relative_half_width, target));
      }
    } else {
      met = false;
      predicted = std::max(predicted, 2 * s.samples);
      notes.push_back(fmt::format("the {} quantile's interval is undefined at {} samples",
                                  *settings.quantile, s.samples));
    }
  }
  s.met = met && s.samples >= settings.min_samples;
  s.predicted_samples = std::min(predicted, settings.max_samples);
  if (!s.met && s.samples >= settings.max_samples)
    notes.push_back(
        fmt::format("stopped at the cap, precision.max_samples = {}", settings.max_samples));
  s.note = fmt::format("{}", fmt::join(notes, "; "));
  return s;
}

std::uint64_t first_batch_end(const PrecisionSettings& settings, const ChunkPlan& plan) {
  return round_up_to_chunks(std::max<std::uint64_t>(settings.min_samples, 1), plan);
}

std::optional<std::uint64_t> next_batch_end(const PrecisionStatus& status,
                                            const PrecisionSettings& settings,
                                            const ChunkPlan& plan) {
  if (status.met || status.unreachable || status.samples >= settings.max_samples)
    return std::nullopt;
  // 5% beyond the prediction (it is itself an estimate), at least one more chunk, at most four
  // times what is done: early intervals are rough.
  const auto wanted =
      static_cast<std::uint64_t>(std::ceil(1.05 * static_cast<double>(status.predicted_samples)));
  const std::uint64_t end =
      std::clamp(wanted, status.samples + plan.chunk_size,
                 std::max(4 * status.samples, status.samples + plan.chunk_size));
  return round_up_to_chunks(end, plan);
}

void put_precision(Record& summary, const PrecisionStatus& status,
                   const PrecisionSettings& settings, std::uint64_t batches) {
  using namespace shared_fields;
  const auto optional_field = [](const std::optional<double>& v, const char* why) {
    return v ? Field(*v) : Field(Null{why});
  };
  summary.put(kPrecisionMet, Field(status.met));
  summary.put(kPrecisionSamples, Field(status.samples));
  summary.put(kPrecisionBatches, Field(batches));
  summary.put(kPrecisionPredictedSamples, Field(status.predicted_samples));
  summary.put(kPrecisionMaxSamples, Field(settings.max_samples));
  summary.put(kPrecisionMinSamples, Field(settings.min_samples));
  if (settings.mean_relative_half_width) {
    summary.put(kPrecisionMeanTarget, Field(*settings.mean_relative_half_width));
    summary.put(kPrecisionMeanAchieved,
                optional_field(status.mean_relative_half_width, "the interval is undefined"));
  }
  if (settings.quantile) {
    summary.put(kPrecisionQuantile, Field(*settings.quantile));
    summary.put(kPrecisionQuantileTarget, Field(*settings.quantile_relative_half_width));
    summary.put(kPrecisionQuantileAchieved,
                optional_field(status.quantile_relative_half_width, "the interval is undefined"));
  }
  if (!status.met) summary.put(kPrecisionNote, Field(status.note));
}

}  // namespace collnoise
