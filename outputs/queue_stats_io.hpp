#pragma once
// Match-queue statistics as a file (docs/timelines.md, "Match-queue statistics"): per rank, the
// lengths one queue had at its samples, for the posted-receive queue and the unexpected-message
// queue, as JSON (`.json`) or HDF5 (`.h5`), written atomically (outputs/atomic_file.hpp). This
// file knows no model: what is sampled when is the engine's (engine/schedules/paths/
// queue_stats.hpp); here are numbers per rank.
//
// Both formats hold the same values under the same names: `posted_samples`, `posted_mean`,
// `posted_max` (one per rank), the histogram of each rank's lengths 0..max (in HDF5 as CSR:
// `posted_histogram_offsets`, ranks + 1 of them, into `posted_histogram_counts`; in JSON as
// `posted_histogram`, one list per rank), and the same for `unexpected_`. Lengths and counts
// are counts (entries, samples): no units.
#include <cstdint>
#include <string>
#include <vector>

namespace collnoise {

/// One queue across the ranks. Rank r's histogram is counts[offsets[r] .. offsets[r + 1]): the
/// samples at which its queue held 0, 1, ..., max[r] entries (empty when samples[r] is 0).
struct QueueLengthTable {
  std::vector<std::uint64_t> samples;
  std::vector<double> mean;  ///< exactly sum(n * counts[n]) / samples, 0 without samples
  std::vector<std::uint64_t> max;
  std::vector<std::uint64_t> offsets{0};
  std::vector<std::uint64_t> counts;

  /// Appends a rank from its histogram (counts per length 0..max; its last entry nonzero, or
  /// empty).
  void add_rank(const std::vector<std::uint64_t>& histogram);
  std::size_t ranks() const { return samples.size(); }
};

struct QueueStatsFile {
  std::string title;  ///< what was replayed
  std::string rule;   ///< when each queue was sampled, in words
  QueueLengthTable posted;
  QueueLengthTable unexpected;
};

inline constexpr const char* kQueueStatsType = "collnoise queue statistics";
inline constexpr std::int64_t kQueueStatsVersion = 1;

/// What is wrong with `table` (offsets that do not index `counts`, a histogram whose sum, length
/// or mean disagrees with the rank's samples, max or mean), or empty when nothing is.
std::string queue_table_problem(const QueueLengthTable& table);

/// InputError unless `path` ends in `.json` or `.h5` (`option` names the option in the message).
void check_queue_stats_path(const std::string& path, const std::string& option);

/// Writes `stats` to `path` (JSON for `.json`, HDF5 for `.h5`, sealed), atomically. InputError
/// for another extension, or an existing file without `force`; RuntimeFailure on a failed write
/// or tables that break their promises (queue_table_problem, posted and unexpected of unequal
/// ranks).
void write_queue_stats(const QueueStatsFile& stats, const std::string& path, bool force);

/// Reads a file write_queue_stats wrote (its seal checked, for HDF5). InputError naming the file
/// when it is missing, not such a file, or damaged (tables that break their promises).
QueueStatsFile read_queue_stats(const std::string& path);

}  // namespace collnoise
