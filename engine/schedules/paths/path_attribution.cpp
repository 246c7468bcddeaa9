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

// The fields of the attribution, each declared once (core/field_spec.hpp); field_specs() gives
// them the condition the model writes them under.
const std::string kSeconds = "seconds";
const MeanFields kNoiseCharged{"noise_charged_", kSeconds,
                               "the noise charged to all the sample's operations"};
const FieldSpec kAbsorption{"absorption_ratio", "1",
                            "share of the charged noise absorbed off the critical path"};
const FieldSpec kAbsorptionLow{"absorption_ratio_ci_low", "1", "lower end of its interval"};
const FieldSpec kAbsorptionHigh{"absorption_ratio_ci_high", "1", "upper end of its interval"};
const FieldSpec kNoiseByStep{"path_noise_by_step", kSeconds,
                             "the critical path's mean noise by step bucket (a series)"};
const FieldSpec kPathStep{"path_step", "",
                          "what a step is: \"round\" (an algorithm's) or \"operation\" (index)"};
const FieldSpec kStepsPerBucket{"path_steps_per_bucket", "",
                                "steps per bucket of path_noise_by_step"};
const FieldSpec kLastRankTop{"last_rank_top", "",
                             "the ranks (or ranges' first ranks) most often last"};
const FieldSpec kLastRankShare{"last_rank_share", "1",
                               "their shares of the samples, ties shared equally"};
const FieldSpec kLastRankRange{"last_rank_range", "", "ranks per range (1 up to 4096 ranks)"};

// A category's fields, a pattern: path_<category>_ with the mean of its time, its noiseless
// value and the excess over it.
struct CategoryFields {
  MeanFields time;
  FieldSpec noiseless;
  FieldSpec excess;
};

const CategoryFields& category_fields(std::size_t c) {
  static const std::vector<CategoryFields> fields = [] {
    static const char* const meaning[kPathCategories] = {
        "computation (calc)",
        "CPU overhead (o, O)",
        "NIC gap (g, G)",
        "wire latency (L)",
        "noise",
        "rendezvous wait",
        "the shared network, after the arrival (network.contention)"};
    std::vector<CategoryFields> all;
    for (std::size_t k = 0; k < kPathCategories; ++k) {
      const std::string prefix = category_prefix(k);
      const std::string what = fmt::format("the critical path's time in {}", meaning[k]);
      all.push_back({MeanFields(prefix, kSeconds, what),
                     {prefix + "noiseless", kSeconds, what + " without noise"},
                     {prefix + "excess", kSeconds, what + ": mean less the noiseless"}});
    }
    return all;
  }();
  return fields[c];
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
  record.put(kLastRankTop, Field(series_of(top)));
  record.put(kLastRankShare, Field(series_of(share)));
  // Ranks per histogram bin: 1 up to kLastRankBins ranks, else the width of each range.
  record.put(kLastRankRange,
             Field(static_cast<double>(ranks) / static_cast<double>(counts.size())));
}

}  // namespace

PathAttribution::PathAttribution(std::uint32_t ranks, PathSteps steps, bool network)
    : ranks_(ranks), steps_(std::move(steps)), categories_(path_categories(network)) {
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
  for (std::size_t c = 0; c < categories_; ++c)
    layout.metrics.push_back(category_prefix(c) + "time");
  layout.metrics.push_back("noise_charged");
  for (std::size_t b = 0; b < buckets_; ++b)
    layout.metrics.push_back(fmt::format("path_noise_step_{:02}", b));
  if (!layout.metric_units.empty()) layout.metric_units.resize(layout.metrics.size(), "seconds");
  layout.top_capacity.resize(layout.metrics.size(), 0);
  // The path's noise against all the noise charged: paired, for their ratio.
  const std::size_t path_noise = first + static_cast<std::size_t>(PathCategory::kNoise);
  layout.pairs.emplace_back(path_noise, first + categories_);
  const std::uint32_t bins = std::min(ranks_, kLastRankBins);
  NamedHistogram last{"last_rank", std::nullopt,
                      Histogram(0.0, static_cast<double>(ranks_), bins, BinSpacing::kLinear)};
  last.unit = fmt::format("rank (weight {} per sample)", kLastRankWeight);
  layout.histograms.push_back(std::move(last));
}

void PathAttribution::fill(const CriticalPath& path, std::span<double> row) const {
  std::size_t m = first_metric();
  for (std::size_t c = 0; c < categories_; ++c) row[m++] = path.time[c] * kNanosecond;
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

std::vector<FieldSpec> PathAttribution::field_specs(const std::string& when,
                                                    const std::string& network_when) {
  FieldList fields, network;
  for (std::size_t c = 0; c < kPathCategories; ++c) {
    const CategoryFields& category = category_fields(c);
    FieldList& to = c < kPathCategoriesWithoutNetwork ? fields : network;
    append_fields(to, category.time.specs());
    append_fields(to, {category.noiseless, category.excess});
  }
  append_fields(fields, kNoiseCharged.specs());
  append_fields(fields, {kAbsorption, kAbsorptionLow, kAbsorptionHigh, kNoiseByStep, kPathStep,
                         kStepsPerBucket, kLastRankTop, kLastRankShare, kLastRankRange});
  std::vector<FieldSpec> all = written_under(std::move(fields), when);
  for (FieldSpec& f : written_under(std::move(network), network_when)) all.push_back(std::move(f));
  return all;
}

void PathAttribution::summarize(Record& record, const Tally& tally, const CriticalPath& noiseless,
                                double level, std::vector<std::string>& warnings) const {
  const std::size_t first = first_metric();
  for (std::size_t c = 0; c < categories_; ++c) {
    const CategoryFields& category = category_fields(c);
    const Accumulator acc = tally.total(first + c);
    const MeanInterval ci = student_t_interval(acc, level);
    put_mean(record, category.time, acc, ci);
    for (const std::string& w : ci.warnings)
      warnings.push_back(category.time.mean().name + ": " + w);
    const double quiet = noiseless.time[c] * kNanosecond;
    record.put(category.noiseless, Field(quiet));
    record.put(category.excess, Field(acc.mean - quiet));
  }
  const Accumulator charged = tally.total(first + categories_);
  put_mean(record, kNoiseCharged, charged, student_t_interval(charged, level));
  // The share of the charged noise absorbed in slack: 1 - E[path noise] / E[noise charged].
  const RatioInterval on_path =
      ratio_of_means(tally.total(first + static_cast<std::size_t>(PathCategory::kNoise)), charged,
                     tally.pair_total(tally.layout().pairs.size() - 1), level);
  if (on_path.ratio) {
    record.put(kAbsorption, Field(1.0 - *on_path.ratio));
    record.put(kAbsorptionLow,
               on_path.ci_high ? Field(1.0 - *on_path.ci_high) : Field(Null{on_path.reason}));
    record.put(kAbsorptionHigh,
               on_path.ci_low ? Field(1.0 - *on_path.ci_low) : Field(Null{on_path.reason}));
  } else {
    const std::string why = charged.mean == 0.0 ? "no noise was charged" : on_path.reason;
    for (const FieldSpec* field : {&kAbsorption, &kAbsorptionLow, &kAbsorptionHigh})
      record.put(*field, Field(Null{why}));
  }
  // The path's noise by step bucket, what a step is and the buckets' width in steps.
  std::vector<double> by_step;
  for (std::size_t b = 0; b < buckets_; ++b)
    by_step.push_back(tally.total(first + categories_ + 1 + b).mean);
  record.put(kNoiseByStep, Field(series_of(by_step)));
  record.put(kPathStep, Field(std::string(steps_.round_of ? "round" : "operation")));
  record.put(kStepsPerBucket, Field(per_bucket_));
  const Histogram* last = tally.histogram_named("last_rank");
  if (last != nullptr) put_last_ranks(record, *last, ranks_);
}

}  // namespace collnoise
