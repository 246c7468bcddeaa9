// `collnoise schedule` within bounds (docs/cli.md, "What collnoise promises"): it refuses what
// exceeds --max-memory-gib before building it, streams a schedule generated on the fly, and with
// --goal stops on SIGTERM with a message, exit 3, no temporary and no lock.
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.hpp"
#include "core/stop_request.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/engine/schedule_engine.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/goal/goal_writer.hpp"
#include "tests/fixtures/bounded_runs.hpp"
#include "tests/fixtures/command_line.hpp"

namespace collnoise {
namespace {

namespace fs = std::filesystem;
using namespace testing;

}  // namespace

TEST_CASE("collnoise schedule refuses what exceeds --max-memory-gib before building it",
          "[bounded]") {
  // A binomial broadcast is stored while it is built: 2^24 ranks, 2^25 operations, some 2 GiB.
  const Finished f = run_collnoise({"schedule", "binomial_broadcast", "--ranks", "16777216",
                                    "--goal", "big.goal", "--max-memory-gib", "0.5"});
  INFO(f.output);
  CHECK(f.code == 2);
  CHECK(mentions(f.output, "writing binomial_broadcast on 16777216 ranks as GOAL would need"));
  CHECK(f.seconds < 2.0);
  CHECK_FALSE(fs::exists("big.goal"));
  CHECK_FALSE(fs::exists("big.goal.lock"));
  // N^2 operations on the fly: terabytes of text, refused as such.
  const Finished huge = run_collnoise(
      {"schedule", "pairwise_alltoall", "--ranks", "16777216", "--goal", "huge.goal"});
  INFO(huge.output);
  CHECK(huge.code == 2);
  CHECK(mentions(huge.output, "operations, beyond"));
}

TEST_CASE("collnoise schedule streams a schedule generated on the fly", "[bounded]") {
  // A dissemination barrier written from its rank classes, never stored: the same
  // text as the stored schedule gives.
  AlgorithmParams p;
  p.ranks = 1000;
  const AlgorithmKind& barrier = *find_algorithm("dissemination_barrier");
  std::ostringstream stored, streamed;
  write_goal(barrier.generate(p), stored);
  write_goal(*barrier.generate_on_the_fly(p), streamed);
  CHECK(stored.str() == streamed.str());
  // 2^17 ranks, 4.5e6 operations: 150 MB stored, written within 64 MiB.
  const Finished f =
      run_collnoise({"schedule", "dissemination_barrier", "--ranks", "131072", "--goal",
                     "stream.goal", "--force", "--max-memory-gib", "0.0625"});
  INFO(f.output);
  CHECK(f.code == 0);
  if (kResidentMemoryIsOurs) CHECK(f.peak_bytes < 0.0625 * kGiB);
  fs::remove("stream.goal");
}

TEST_CASE("collnoise schedule --goal stops on SIGTERM: message, exit 3, no temporary, no lock",
          "[bounded]") {
  // 2^21 ranks, 9e7 operations: many seconds of writing; stopped half a second into it (once
  // its temporary file is there).
  fs::remove("stopped.goal");
  const auto writing = [] {
    for (const auto& entry : fs::directory_iterator("."))
      if (entry.path().filename().string().starts_with("stopped.goal.tmp")) return true;
    return false;
  };
  const Finished f = run_collnoise(
      {"schedule", "dissemination_barrier", "--ranks", "2097152", "--goal", "stopped.goal"}, 0.5,
      writing);
  INFO(f.output);
  CHECK(f.code == 3);
  CHECK(mentions(f.output, "interrupted by signal 15 while writing 'stopped.goal'"));
  CHECK(f.seconds < kStopBound);
  CHECK_FALSE(fs::exists("stopped.goal"));
  CHECK_FALSE(fs::exists("stopped.goal.lock"));
  for (const auto& entry : fs::directory_iterator("."))
    CHECK_FALSE(entry.path().filename().string().starts_with("stopped.goal.tmp"));
  // The next run finds nothing in its way and leaves nothing behind.
  const Finished again = run_collnoise(
      {"schedule", "dissemination_barrier", "--ranks", "16", "--goal", "stopped.goal"});
  INFO(again.output);
  CHECK(again.code == 0);
  CHECK(fs::exists("stopped.goal"));
  CHECK_FALSE(fs::exists("stopped.goal.lock"));
}

}  // namespace collnoise
