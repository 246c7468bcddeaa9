#pragma once
// The load of a replayed sample's links as a file (docs/timelines.md, "Link load"): a table of
// every link one of the sample's messages crossed, busiest first, and the step function of the
// busiest links' load over time, as JSON (`.json`) or HDF5 (`.h5`), written atomically
// (outputs/atomic_file.hpp). This file knows no model: what a link's load is and when it
// changes is the network's (engine/network/link_load.hpp); here are numbers per link.
//
// Both formats hold the same values under the same names. Per link (rows, busiest first):
// `link` (its number), `link_name`, `bytes_carried` (bytes), `busy_ns`, `mean_messages`,
// `max_messages`, `mean_rate` and `max_rate` (bytes per ns), `bandwidth` (bytes per ns),
// `utilisation` (exactly bytes_carried / (bandwidth x completion_ns)), `background_messages`.
// Per traced link (the first `traced` rows): its change points as CSR, `step_offsets` (traced +
// 1) into `step_times_ns`, `step_messages` and `step_rates` (in JSON one list per traced link),
// `step_end_ns` (the steps hold until then) and `steps_truncated` (1 when the bound cut them).
#include <cstdint>
#include <string>
#include <vector>

namespace collnoise {

/// Every link's statistics, one entry per row.
struct LinkLoadTable {
  std::vector<std::uint64_t> link;
  std::vector<std::string> link_name;
  std::vector<std::uint64_t> bytes_carried;
  std::vector<double> busy_ns;
  std::vector<double> mean_messages;
  std::vector<std::uint64_t> max_messages;
  std::vector<double> mean_rate;
  std::vector<double> max_rate;
  std::vector<double> bandwidth;
  std::vector<double> utilisation;
  std::vector<std::uint64_t> background_messages;
  std::size_t rows() const { return link.size(); }
};

/// The step functions of the traced links (the table's first rows, in its order): link i's
/// change points are [offsets[i], offsets[i + 1]), each from its time on.
struct LinkLoadSteps {
  std::vector<std::uint64_t> offsets{0};
  std::vector<double> times_ns;
  std::vector<std::uint64_t> messages;
  std::vector<double> rates;
  std::vector<double> end_ns;
  std::vector<std::uint64_t> truncated;
  std::size_t traced() const { return end_ns.size(); }
};

struct LinkLoadFile {
  std::string title;    ///< what was replayed
  std::string model;    ///< the network model, as the run file names it
  std::string rule;     ///< what a link's load is, in words
  std::string ranking;  ///< the order of the rows, in words
  double completion_ns = 0.0;
  LinkLoadTable table;
  LinkLoadSteps steps;
};

inline constexpr const char* kLinkLoadType = "collnoise link load";
inline constexpr std::int64_t kLinkLoadVersion = 1;

/// What is wrong with `file` (columns of unequal length, a utilisation that is not its bytes
/// over bandwidth x completion, a busy time beyond the completion, rows out of the ranking's
/// order, offsets that do not index the steps, steps not increasing from 0 or beyond their
/// end, a largest load the untruncated steps do not reach), or empty when nothing is.
std::string link_load_problem(const LinkLoadFile& file);

/// InputError unless `path` ends in `.json` or `.h5` (`option` names the option in the message).
void check_link_load_path(const std::string& path, const std::string& option);

/// Writes `file` to `path` (JSON for `.json`, HDF5 for `.h5`, sealed), atomically. InputError
/// for another extension, or an existing file without `force`; RuntimeFailure for a file that
/// breaks its promises (link_load_problem).
void write_link_load(const LinkLoadFile& file, const std::string& path, bool force);

/// Reads a file write_link_load wrote (its seal checked, for HDF5). InputError naming the file
/// when it is missing, not such a file, or damaged (link_load_problem).
LinkLoadFile read_link_load(const std::string& path);

}  // namespace collnoise
