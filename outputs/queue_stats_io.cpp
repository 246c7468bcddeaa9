#include "outputs/queue_stats_io.hpp"

#include <fmt/format.h>

#include <array>
#include <nlohmann/json.hpp>
#include <numeric>
#include <span>

#include "core/errors.hpp"
#include "outputs/hdf5.hpp"
#include "outputs/replay_file.hpp"

namespace collnoise {
namespace {

using nlohmann::json;

// The two queues by their names' prefix in both formats.
struct Queue {
  const char* prefix;
  const char* sampled;  // when it is sampled, for the datasets' `meaning`
  QueueLengthTable QueueStatsFile::*table;
};
constexpr std::array<Queue, 2> kQueues = {{
    {"posted", "the posted-receive queue's length at each message the rank took in",
     &QueueStatsFile::posted},
    {"unexpected", "the unexpected-message queue's length at each receive the rank posted",
     &QueueStatsFile::unexpected},
}};

// The mean of a histogram as add_rank computes it (exact integer sums, one division), so that a
// reader can check the stored mean bit for bit.
double histogram_mean(std::span<const std::uint64_t> histogram, std::uint64_t samples) {
  std::uint64_t sum = 0;
  for (std::size_t n = 0; n < histogram.size(); ++n) sum += histogram[n] * n;
  return samples == 0 ? 0.0 : static_cast<double>(sum) / static_cast<double>(samples);
}

std::string rank_problem(const QueueLengthTable& t, std::size_t r) {
  if (t.offsets[r + 1] < t.offsets[r] || t.offsets[r + 1] > t.counts.size())
    return fmt::format("rank {}'s histogram offsets {} to {} do not index its {} counts", r,
                       t.offsets[r], t.offsets[r + 1], t.counts.size());
  const std::span<const std::uint64_t> h(t.counts.data() + t.offsets[r],
                                         t.offsets[r + 1] - t.offsets[r]);
  const std::uint64_t sum = std::accumulate(h.begin(), h.end(), std::uint64_t{0});
  if (sum != t.samples[r])
    return fmt::format("rank {}'s histogram counts {} samples, its samples say {}", r, sum,
                       t.samples[r]);
  const std::uint64_t max = h.empty() ? 0 : h.size() - 1;
  if (t.max[r] != max || (!h.empty() && h.back() == 0))
    return fmt::format("rank {}'s histogram has {} lengths, its max is {}", r, h.size(), t.max[r]);
  if (t.mean[r] != histogram_mean(h, sum))
    return fmt::format("rank {}'s mean {} is not its histogram's {}", r, t.mean[r],
                       histogram_mean(h, sum));
  return "";
}

void check_tables(const QueueStatsFile& s, const char* what) {
  if (s.posted.ranks() != s.unexpected.ranks())
    throw RuntimeFailure(fmt::format("{}: {} ranks of posted queues, {} of unexpected ones", what,
                                     s.posted.ranks(), s.unexpected.ranks()));
  for (const Queue& q : kQueues)
    if (const std::string p = queue_table_problem(s.*q.table); !p.empty())
      throw RuntimeFailure(fmt::format("{}: {} queues: {}", what, q.prefix, p));
}

std::string json_text(const QueueStatsFile& s) {
  json j = {{"format", kQueueStatsType},
            {"format_version", kQueueStatsVersion},
            {"title", s.title},
            {"rule", s.rule},
            {"ranks", s.posted.ranks()}};
  for (const Queue& q : kQueues) {
    const QueueLengthTable& t = s.*q.table;
    const std::string p = q.prefix;
    j[p + "_samples"] = t.samples;
    j[p + "_mean"] = t.mean;
    j[p + "_max"] = t.max;
    json histograms = json::array();
    for (std::size_t r = 0; r < t.ranks(); ++r)
      histograms.push_back(std::span<const std::uint64_t>(t.counts).subspan(
          t.offsets[r], t.offsets[r + 1] - t.offsets[r]));
    j[p + "_histogram"] = std::move(histograms);
  }
  return j.dump() + "\n";
}

void write_h5(const QueueStatsFile& s, const std::string& path) {
  h5::File file = h5::File::create();
  {
    const h5::Group root = file.root();
    root.set_attribute("filetype", Field(std::string(kQueueStatsType)));
    root.set_attribute("format_version", Field(kQueueStatsVersion));
    root.set_attribute("title", Field(s.title));
    root.set_attribute("rule", Field(s.rule));
    root.set_attribute("ranks", Field(static_cast<std::uint64_t>(s.posted.ranks())));
    for (const Queue& q : kQueues) {
      const QueueLengthTable& t = s.*q.table;
      const std::string p = q.prefix;
      const auto meaning = [&](const h5::Dataset& d, const std::string& text) {
        d.set_attribute("meaning", Field(text));
      };
      meaning(root.write_counts(p + "_samples", t.samples),
              fmt::format("per rank: the samples of {}", q.sampled));
      meaning(root.write_doubles(p + "_mean", t.mean),
              fmt::format("per rank: the mean of {} (entries; 0 without samples)", q.sampled));
      meaning(root.write_counts(p + "_max", t.max),
              fmt::format("per rank: the largest of {} (entries)", q.sampled));
      meaning(root.write_counts(p + "_histogram_offsets", t.offsets),
              fmt::format("ranks + 1: rank r's histogram is {}_histogram_counts[offsets[r] .. "
                          "offsets[r + 1])",
                          p));
      meaning(
          root.write_counts(p + "_histogram_counts", t.counts),
          fmt::format("per rank, lengths 0 to max: the samples of {} at that length", q.sampled));
    }
  }
  file.commit(path);
}

QueueStatsFile read_json(const std::string& path) {
  const json j =
      replay_file::read_json(path, "queue statistics", kQueueStatsType, kQueueStatsVersion);
  QueueStatsFile s{j.value("title", ""), j.value("rule", ""), {}, {}};
  for (const Queue& q : kQueues) {
    QueueLengthTable& t = s.*q.table;
    const std::string p = q.prefix;
    for (const auto& h : replay_file::json_list<std::vector<std::uint64_t>>(j, p + "_histogram")) {
      t.counts.insert(t.counts.end(), h.begin(), h.end());
      t.offsets.push_back(t.counts.size());
    }
    t.samples = replay_file::json_list<std::uint64_t>(j, p + "_samples");
    t.mean = replay_file::json_list<double>(j, p + "_mean");
    t.max = replay_file::json_list<std::uint64_t>(j, p + "_max");
  }
  return s;
}

QueueStatsFile read_h5(const std::string& path) {
  const h5::File file = h5::File::open(path);  // its seal checked first
  const h5::Group root = file.root();
  replay_file::check_h5_type(root, kQueueStatsType, kQueueStatsVersion);
  QueueStatsFile s{replay_file::text_attribute(root, "title"),
                   replay_file::text_attribute(root, "rule"),
                   {},
                   {}};
  for (const Queue& q : kQueues) {
    QueueLengthTable& t = s.*q.table;
    const std::string p = q.prefix;
    t.samples = root.read_counts(p + "_samples");
    t.mean = root.read_doubles(p + "_mean");
    t.max = root.read_counts(p + "_max");
    t.offsets = root.read_counts(p + "_histogram_offsets");
    t.counts = root.read_counts(p + "_histogram_counts");
  }
  return s;
}

}  // namespace

void QueueLengthTable::add_rank(const std::vector<std::uint64_t>& histogram) {
  const std::uint64_t n = std::accumulate(histogram.begin(), histogram.end(), std::uint64_t{0});
  samples.push_back(n);
  mean.push_back(histogram_mean(histogram, n));
  max.push_back(histogram.empty() ? 0 : histogram.size() - 1);
  counts.insert(counts.end(), histogram.begin(), histogram.end());
  offsets.push_back(counts.size());
}

std::string queue_table_problem(const QueueLengthTable& t) {
  const std::size_t ranks = t.samples.size();
  if (t.mean.size() != ranks || t.max.size() != ranks || t.offsets.size() != ranks + 1)
    return fmt::format("{} samples, {} means, {} maxima and {} offsets (ranks + 1)", ranks,
                       t.mean.size(), t.max.size(), t.offsets.size());
  if (t.offsets.front() != 0 || t.offsets.back() != t.counts.size())
    return fmt::format("histogram offsets from {} to {} for {} counts", t.offsets.front(),
                       t.offsets.back(), t.counts.size());
  for (std::size_t r = 0; r < ranks; ++r)
    if (std::string p = rank_problem(t, r); !p.empty()) return p;
  return "";
}

void check_queue_stats_path(const std::string& path, const std::string& option) {
  replay_file::check_path(path, option);
}

void write_queue_stats(const QueueStatsFile& stats, const std::string& path, bool force) {
  replay_file::check_path(path, "queue statistics");
  check_tables(stats, "queue statistics");
  replay_file::write(
      path, force, "queue statistics", [&] { write_h5(stats, path); },
      [&] { return json_text(stats); });
}

QueueStatsFile read_queue_stats(const std::string& path) {
  return replay_file::read<QueueStatsFile>(path, "queue statistics", [&] {
    QueueStatsFile s = replay_file::has_suffix(path, ".h5") ? read_h5(path) : read_json(path);
    check_tables(s, "its tables disagree");
    return s;
  });
}

}  // namespace collnoise
