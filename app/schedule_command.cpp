// collnoise schedule: the built-in algorithms, listed or written as GOAL for LogGOPSim.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>

#include "app/cli_values.hpp"
#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "core/errors.hpp"
#include "core/memory_limit.hpp"
#include "core/stop_request.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/goal/goal_writer.hpp"
#include "outputs/atomic_file.hpp"
#include "outputs/output_lock.hpp"

namespace collnoise {
namespace {

// Beyond this many operations a GOAL file is terabytes of text (about 30 bytes an operation).
constexpr double kMaxOperations = 0x1p37;
// A stored schedule while it is built: 32 bytes an operation, twice while an array grows.
constexpr double kBuildBytesPerOperation = 64.0;

// The temporary a GOAL file is written through, removed unless it was renamed into place (a
// failed write, a stop request): the previous file, if any, stays as it was.
class Temporary {
 public:
  explicit Temporary(std::string path) : path_(std::move(path)) {}
  ~Temporary() {
    if (!kept_) std::remove(path_.c_str());
  }
  Temporary(const Temporary&) = delete;
  Temporary& operator=(const Temporary&) = delete;
  const std::string& path() const { return path_; }
  void keep() { kept_ = true; }

 private:
  std::string path_;
  bool kept_ = false;
};

// Streams the GOAL text to a temporary beside `path` (a 2^20-rank schedule is gigabytes), then
// renames it: a reader never sees a partial file. A stop request ends the writing (StopRequested,
// the temporary removed); once written, the rename is not interrupted.
template <class Sched>
void write_goal_file(const Sched& schedule, const std::string& path) {
  Temporary temporary(temporary_name(path));
  {
    std::ofstream out(temporary.path(), std::ios::binary | std::ios::trunc);
    if (!out) throw RuntimeFailure(fmt::format("cannot create '{}'", temporary.path()));
    write_goal(schedule, out);
    out.flush();
    if (!out)
      throw RuntimeFailure(fmt::format("cannot write '{}' (a full disk?)", temporary.path()));
  }
  std::error_code ec;
  std::filesystem::rename(temporary.path(), path, ec);
  if (ec)
    throw RuntimeFailure(
        fmt::format("cannot rename '{}' to '{}': {}", temporary.path(), path, ec.message()));
  temporary.keep();
}

// What writing `algorithm` takes, refused before anything is built: at most kMaxOperations, and
// on the fly (rank by rank, nothing stored) or stored (about 64 bytes an operation at the peak of
// its building) within the memory limit.
std::optional<GeneratedSchedule> plan_schedule(const AlgorithmKind& algorithm,
                                               const AlgorithmParams& p) {
  const std::string what = fmt::format("writing {} on {} ranks as GOAL", algorithm.name, p.ranks);
  const double operations = algorithm.operations(p);
  if (operations > kMaxOperations)
    throw InputError(fmt::format(
        "{}: about {:.3g} operations, beyond the {:.3g} collnoise writes (terabytes of text): use "
        "fewer ranks",
        what, operations, kMaxOperations));
  std::optional<GeneratedSchedule> fly;
  if (algorithm.generate_on_the_fly) fly = algorithm.generate_on_the_fly(p);
  if (!fly) check_memory_limit(kBuildBytesPerOperation * operations + 16.0 * p.ranks, what);
  return fly;
}

int write_algorithm(const AlgorithmKind& algorithm, const AlgorithmParams& p,
                    const std::string& path) {
  const std::optional<GeneratedSchedule> fly = plan_schedule(algorithm, p);
  std::uint32_t ranks = 0;
  std::uint64_t operations = 0;
  if (fly) {
    write_goal_file(*fly, path);
    ranks = fly->ranks();
    operations = fly->operations();
  } else {
    const Schedule schedule = algorithm.generate(p);
    write_goal_file(schedule, path);
    ranks = schedule.ranks();
    operations = schedule.operations();
  }
  fmt::print("wrote {} ({} ranks, {} operations)\n", path, ranks, operations);
  return exit_code::kSuccess;
}

}  // namespace

int schedule_command(const ScheduleOptions& options) {
  if (options.list || options.algorithm.empty()) {
    for (const auto& a : algorithm_kinds()) fmt::print("{:<30} {}\n", a.name, a.meaning);
    return exit_code::kSuccess;
  }
  const AlgorithmKind* algorithm = find_algorithm(options.algorithm);
  if (!algorithm)
    throw InputError(fmt::format("'{}' is not a built-in algorithm (collnoise schedule --list)",
                                 options.algorithm));
  if (options.ranks == 0) throw InputError("--ranks is missing: how many ranks?");
  if (options.goal.empty()) throw InputError("--goal is missing: the GOAL file to write");
  if (std::filesystem::exists(options.goal) && !options.force)
    throw InputError(fmt::format("output '{}' exists: use --force to overwrite it", options.goal));
  // SIGINT, SIGTERM and SIGUSR1 (main's handlers) stop the generation and the writing within a
  // second or so: the temporary is removed, the lock released, the previous file (if any) left
  // as it was.
  set_memory_limit_gib(options.max_memory_gib);
  const auto note = [](const std::string& text) {
    fmt::print(stderr, "collnoise: note: {}\n", text);
  };
  const OutputLock lock(options.goal, note);
  for (const auto& stale : remove_stale_temporaries(options.goal))
    note(fmt::format("removed '{}', left by a writer that no longer runs", stale));
  AlgorithmParams p;
  p.ranks = options.ranks;
  p.message_bytes = options.message_bytes;
  p.k = options.k;
  p.segments = options.segments;
  p.receives = options.receives == "preposted" ? ReceiveOrder::kPreposted : ReceiveOrder::kInOrder;
  p.compute = options.compute;
  try {
    return write_algorithm(*algorithm, p, options.goal);
  } catch (const StopRequested&) {
    fmt::print(stderr,
               "collnoise: interrupted by signal {} while writing '{}': nothing was written (its "
               "temporary is removed{})\n",
               stop_signal(), options.goal,
               std::filesystem::exists(options.goal) ? "; the previous file is unchanged" : "");
    return exit_code::kInterrupted;
  }
}

}  // namespace collnoise
