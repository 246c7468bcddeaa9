#include "engine/schedules/paths/path_attribution.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "estimators/mean_interval.hpp"
#include "estimators/ratio_interval.hpp"
#include "estimators/summary_fields.hpp"

namespace collnoise {
namespace {

constexpr double kNanosecond = 1e-9;
// The ranks listed as finishing last most often.
constexpr std::size_t kTopLastRanks = 8;

std::string category_prefix(std::size_t c) {
  return fmt::format("path_{}_", path_category_name(static_cast<PathCategory>(c)));
}

// The ranks (or, beyond kLastRankBins ranks, the first rank of each range) that finish last most
// often, with their shares of the samples, largest first (ties by rank).
void put_last_ranks(Record& record, const Histogram& last, std::uint32_t ranks) {
  const std::vector<std::uint64_t>& counts = last.counts();
  std::vector<std::size_t> order(counts.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const std::size_t shown = std::min(kTopLastRanks, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(shown), order.end(),
                    [&](std::size_t a, std::size_t b) {
                      return counts[a] != counts[b] ? counts[a] > counts[b] : a < b;
                    });
  const double total = static_cast<double>(last.total());
  std::vector<double> top, share;
  for (std::size_t i = 0; i < shown && counts[order[i]] > 0; ++i) {
    top.push_back(std::ceil(last.edges()[order[i]]));
    share.push_back(static_cast<double>(counts[order[i]]) / total);
  }
  record.set("last_rank_top", Field(series_of(top)));
  record.set("last_rank_share", Field(series_of(share)));
  // Ranks per histogram bin: 1 up to kLastRankBins ranks, else the width of each range.
  record.set("last_rank_range",
             Field(static_cast<double>(ranks) / static_cast<double>(counts.size())));
  record.set_unit({"last_rank_share"}, "1");
}

}  // namespace

PathAttribution::PathAttribution(std::uint32_t ranks, PathSteps steps)
    : ranks_(ranks), steps_(std::move(steps)) {
  const std::uint64_t count = std::max<std::uint64_t>(steps_.count, 1);
  per_bucket_ = (count + kPathBuckets - 1) / kPathBuckets;
  buckets_ = static_cast<std::size_t>((count + per_bucket_ - 1) / per_bucket_);
}

StepBucket PathAttribution::step_bucket() const {
  const std::uint64_t per = per_bucket_;
  if (!steps_.round_of)
    return [per](const StepOperation& op) { return static_cast<std::uint8_t>(op.index / per); };
  return [per, round_of = steps_.round_of](const StepOperation& op) {
    if (op.calc) return kSameStep;
    const Operation send{OpKind::kSend, 0, op.peer, op.tag, 0, 0};
    return static_cast<std::uint8_t>(round_of(op.rank, send) / per);
  };
}

void PathAttribution::add_to(TallyLayout& layout) const {
  const std::size_t first = layout.metrics.size();
  // Metrics in seconds, as the completion time's (an empty unit list means all seconds).
  if (!layout.metric_units.empty()) layout.metric_units.resize(first, "seconds");
  for (std::size_t c = 0; c < kPathCategories; ++c)
    layout.metrics.push_back(category_prefix(c) + "time");
  layout.metrics.push_back("noise_charged");
  for (std::size_t b = 0; b < buckets_; ++b)
    layout.metrics.push_back(fmt::format("path_noise_step_{:02}", b));
  if (!layout.metric_units.empty()) layout.metric_units.resize(layout.metrics.size(), "seconds");
  layout.top_capacity.resize(layout.metrics.size(), 0);
  // The path's noise against all the noise charged: paired, for their ratio.
  const std::size_t path_noise = first + static_cast<std::size_t>(PathCategory::kNoise);
  layout.pairs.emplace_back(path_noise, first + kPathCategories);
  const std::uint32_t bins = std::min(ranks_, kLastRankBins);
  NamedHistogram last{"last_rank", std::nullopt,
                      Histogram(0.0, static_cast<double>(ranks_), bins, BinSpacing::kLinear)};
  last.unit = fmt::format("rank (weight {} per sample)", kLastRankWeight);
  layout.histograms.push_back(std::move(last));
}

void PathAttribution::fill(const CriticalPath& path, std::span<double> row) const {
  std::size_t m = first_metric();
  for (const double t : path.time) row[m++] = t * kNanosecond;
  row[m++] = path.noise_total * kNanosecond;
  for (std::size_t b = 0; b < buckets_; ++b) row[m++] = path.noise_by_bucket[b] * kNanosecond;
}

void PathAttribution::count_last(const CriticalPath& path, Histogram& histogram) {
  const auto tied = static_cast<std::uint64_t>(path.last_ranks.size());
  if (tied == 0) return;
  // Equal shares; a remainder (more than 16 tied ranks) goes one unit each to the first ranks.
  const std::uint64_t share = kLastRankWeight / tied, rest = kLastRankWeight % tied;
  for (std::uint64_t i = 0; i < tied; ++i)
    histogram.add(static_cast<double>(path.last_ranks[i]) + 0.5, share + (i < rest ? 1 : 0));
}

std::vector<FieldSpec> PathAttribution::field_specs(const std::string& when) {
  const std::string s = "seconds";
  static const char* const meaning[kPathCategories] = {
      "computation (calc)", "CPU overhead (o, O)", "NIC gap (g, G)", "wire latency (L)", "noise",
      "rendezvous wait"};
  std::vector<FieldSpec> fields;
  for (std::size_t c = 0; c < kPathCategories; ++c) {
    const std::string prefix = category_prefix(c);
    const std::string what = fmt::format("the critical path's time in {}", meaning[c]);
    append_fields(fields, mean_field_specs(prefix, s, what, when));
    append_fields(fields, {{prefix + "noiseless", s, what + " without noise", when},
                           {prefix + "excess", s, what + ": mean less the noiseless", when}});
  }
  append_fields(fields, mean_field_specs("noise_charged_", s,
                                         "the noise charged to all the sample's operations", when));
  append_fields(
      fields,
      {{"absorption_ratio", "1", "share of the charged noise absorbed off the critical path", when},
       {"absorption_ratio_ci_low", "1", "lower end of its interval", when},
       {"absorption_ratio_ci_high", "1", "upper end of its interval", when},
       {"path_noise_by_step", s, "the critical path's mean noise by step bucket (a series)", when},
       {"path_step", "", "what a step is: \"round\" (an algorithm's) or \"operation\" (index)",
        when},
       {"path_steps_per_bucket", "", "steps per bucket of path_noise_by_step", when},
       {"last_rank_top", "", "the ranks (or ranges' first ranks) most often last", when},
       {"last_rank_share", "1", "their shares of the samples, ties shared equally", when},
       {"last_rank_range", "", "ranks per range (1 up to 4096 ranks)", when}});
  return fields;
}

void PathAttribution::summarize(Record& record, const Tally& tally, const CriticalPath& noiseless,
                                double level, std::vector<std::string>& warnings) const {
  const std::size_t first = first_metric();
  std::vector<std::string> seconds;
  for (std::size_t c = 0; c < kPathCategories; ++c) {
    const std::string prefix = category_prefix(c);
    const Accumulator acc = tally.total(first + c);
    const MeanInterval ci = student_t_interval(acc, level);
    put_mean(record, prefix, acc, ci, "seconds");
    for (const std::string& w : ci.warnings) warnings.push_back(prefix + "mean: " + w);
    const double quiet = noiseless.time[c] * kNanosecond;
    record.set(prefix + "noiseless", Field(quiet));
    record.set(prefix + "excess", Field(acc.mean - quiet));
    seconds.insert(seconds.end(), {prefix + "noiseless", prefix + "excess"});
  }
  const Accumulator charged = tally.total(first + kPathCategories);
  put_mean(record, "noise_charged_", charged, student_t_interval(charged, level), "seconds");
  // The share of the charged noise absorbed in slack: 1 - E[path noise] / E[noise charged].
  const RatioInterval on_path =
      ratio_of_means(tally.total(first + static_cast<std::size_t>(PathCategory::kNoise)), charged,
                     tally.pair_total(tally.layout().pairs.size() - 1), level);
  if (on_path.ratio) {
    record.set("absorption_ratio", Field(1.0 - *on_path.ratio));
    record.set("absorption_ratio_ci_low",
               on_path.ci_high ? Field(1.0 - *on_path.ci_high) : Field(Null{on_path.reason}));
    record.set("absorption_ratio_ci_high",
               on_path.ci_low ? Field(1.0 - *on_path.ci_low) : Field(Null{on_path.reason}));
  } else {
    const std::string why = charged.mean == 0.0 ? "no noise was charged" : on_path.reason;
    for (const char* k :
         {"absorption_ratio", "absorption_ratio_ci_low", "absorption_ratio_ci_high"})
      record.set(k, Field(Null{why}));
  }
  record.set_unit({"absorption_ratio", "absorption_ratio_ci_low", "absorption_ratio_ci_high"}, "1");
  // The path's noise by step bucket, what a step is and the buckets' width in steps.
  std::vector<double> by_step;
  for (std::size_t b = 0; b < buckets_; ++b)
    by_step.push_back(tally.total(first + kPathCategories + 1 + b).mean);
  record.set("path_noise_by_step", Field(series_of(by_step)));
  record.set("path_step", Field(std::string(steps_.round_of ? "round" : "operation")));
  record.set("path_steps_per_bucket", Field(per_bucket_));
  seconds.push_back("path_noise_by_step");
  for (const std::string& key : seconds) record.set_unit(key, "seconds");
  const Histogram* last = tally.histogram_named("last_rank");
  if (last != nullptr) put_last_ranks(record, *last, ranks_);
}

}  // namespace collnoise
