#pragma once
// collnoise timeline RESULT --point P --sample S: replays one sample of a schedule point of a
// result with the streams it had in the run (its times equal the run's), and writes the timeline
// of chosen ranks: Chrome trace-event JSON (Perfetto), an OTF2 archive (Vampir, otf2-print), a
// figure drawn by the Python package, every rank's match-queue statistics and, on a shared
// network, the load of its links (docs/timelines.md).
#include <cstdint>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace collnoise {

struct TimelineOptions {
  std::string result;
  std::uint64_t point = 0;
  std::uint64_t sample = 0;
  std::string ranks;             ///< "a-b" or "a,b,c"; empty: every rank up to 64, else 0-63
  std::string window;            ///< "t0,t1" in seconds; empty: the whole sample
  std::string out;               ///< the JSON file; empty: <result stem>-p<P>-s<S>.json
  std::string otf2;              ///< an OTF2 archive directory to write as well
  std::string figure;            ///< a .png, .pdf or .svg figure to draw as well
  std::string queues;            ///< match-queue statistics (.json or .h5) to write as well
  std::string links;             ///< the links' load (.json or .h5) to write as well
  std::uint64_t top_links = 10;  ///< --links: the busiest links whose load over time it holds
  double max_memory_gib = 0.0;   ///< refuse a timeline estimated to need more; 0: the default
  bool force = false;            ///< replace existing outputs (an OTF2 archive collnoise wrote)
  bool no_verify = false;
};

/// Adds the `timeline` subcommand; `options` receives its values.
CLI::App* add_timeline_command(CLI::App& app, TimelineOptions& options);

/// Exit 0 when written, 2 on bad input (a point that is not a schedule, a sample the point does
/// not hold, a data file changed since the run, the replay differing from the run's records,
/// --links on a point without network.contention, an output that would replace an input or a
/// folder that is not an OTF2 archive, a timeline estimated beyond the memory limit), 3 when a
/// signal stopped it (saying what was written).
int timeline_command(const TimelineOptions& options);

}  // namespace collnoise
