// collnoise schedule: the built-in algorithms, listed or written as GOAL for LogGOPSim.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "core/errors.hpp"
#include "engine/schedules/algorithms.hpp"
#include "engine/schedules/goal_writer.hpp"
#include "outputs/atomic_file.hpp"
#include "outputs/output_lock.hpp"

namespace collnoise {
namespace {

// Streams the GOAL text to a temporary beside `path` (a 2^20-rank schedule is gigabytes), then
// renames it: a reader never sees a partial file.
void write_goal_file(const Schedule& schedule, const std::string& path) {
  const std::string temporary = temporary_name(path);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw RuntimeFailure(fmt::format("cannot create '{}'", temporary));
    write_goal(schedule, out);
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      throw RuntimeFailure(fmt::format("cannot write '{}' (a full disk?)", temporary));
    }
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::remove(temporary.c_str());
    throw RuntimeFailure(
        fmt::format("cannot rename '{}' to '{}': {}", temporary, path, ec.message()));
  }
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
  const OutputLock lock(options.goal, [](const std::string& note) {
    fmt::print(stderr, "collnoise: note: {}\n", note);
  });
  AlgorithmParams p;
  p.ranks = options.ranks;
  p.message_bytes = options.message_bytes;
  p.k = options.k;
  p.segments = options.segments;
  p.receives = options.receives == "preposted" ? ReceiveOrder::kPreposted : ReceiveOrder::kInOrder;
  const Schedule schedule = algorithm->generate(p);
  write_goal_file(schedule, options.goal);
  fmt::print("wrote {} ({} ranks, {} operations)\n", options.goal, schedule.ranks(),
             schedule.operations());
  return exit_code::kSuccess;
}

}  // namespace collnoise
