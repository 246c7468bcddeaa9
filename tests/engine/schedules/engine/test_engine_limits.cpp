// The schedule engine is interruptible and bounded (docs/cli.md, "What collnoise promises"): it
// acts on a stop inside a quadratic matching search, and the estimate before a noiseless run counts
// its match-list searches and the dependencies between repeated cycles.
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
#include "engine/schedules/simulate.hpp"
#include "tests/fixtures/bounded_runs.hpp"
#include "tests/fixtures/command_line.hpp"

namespace collnoise {
namespace {

namespace fs = std::filesystem;
using namespace testing;

}  // namespace

TEST_CASE("the schedule engine acts on a stop inside a quadratic matching search", "[bounded]") {
  // 2^17 ranks: some 8.6e9 entries searched, seconds of work; before, the stop was polled every
  // 2^20 events, which this schedule never reaches after its start.
  const Schedule s = read_goal_text(reversed_gather(1U << 17), "reversed.goal");
  clear_stop_request();
  const ScheduleNet net{.L = 1000.0, .o = 100.0, .g = 10.0, .G = 1.0};
  auto running = std::async(std::launch::async, [&] { return run_schedule(s, net); });
  REQUIRE(running.wait_for(std::chrono::milliseconds(500)) == std::future_status::timeout);
  const auto asked = Clock::now();
  request_stop(SIGTERM);
  CHECK_THROWS_AS(running.get(), StopRequested);
  const double seconds = std::chrono::duration<double>(Clock::now() - asked).count();
  clear_stop_request();
  CHECK(seconds < kStopBound);
}

TEST_CASE("the noiseless run counts its match-list searches for the estimate", "[bounded]") {
  const Schedule s = read_goal_text(reversed_gather(1024), "reversed.goal");
  const ScheduleNet net{.L = 1000.0, .o = 100.0, .g = 10.0, .G = 1.0};
  const ScheduleRun run = run_schedule(s, net);
  REQUIRE(run.complete);
  // Message from rank r meets the receives of ranks 1023 .. r + 1 before its own (the first
  // entry of a list, held with its rank, is not counted): at least a third of N^2 / 2.
  CHECK(run.searched > 1024ULL * 1024 / 6);
  const Schedule in_order = read_goal_text(
      "num_ranks 3\nrank 0 {\nl0: recv 8b from 1 tag 0\nl1: recv 8b from 2 tag 0\n}\n"
      "rank 1 {\nl0: send 8b to 0 tag 0\n}\nrank 2 {\nl0: send 8b to 0 tag 0\n}\n",
      "in_order.goal");
  CHECK(run_schedule(in_order, net).searched <= 2);
}

TEST_CASE("repeated cycles count the dependencies between cycles", "[bounded]") {
  // cycles = 2 on a 2^18-rank linear scatter: the root's (N - 1)^2 = 6.9e10 dependencies between
  // its cycles, 256 GiB, were not counted (the estimate said some 50 MiB).
  write_text("scatter-cycles.toml", R"(name = "scatter-cycles"
seed = 1
samples = 4
[collective]
kind = "schedule"
algorithm = "linear_scatter"
N = 262144
cycles = 2
)");
  const Finished f =
      run_collnoise({"run", "scatter-cycles.toml", "--validate-only", "--max-memory-gib", "4"});
  INFO(f.output);
  CHECK(f.code == 2);
  CHECK(mentions(f.output, "memory"));
  // The repetition itself refuses before building what cannot fit.
  AlgorithmParams p;
  p.ranks = 1U << 12;
  const Schedule one = find_algorithm("linear_scatter")->generate(p);
  CHECK(cycle_join_dependencies(one.view(0), false) == 4095.0 * 4095.0);
  CHECK(cycle_joins_of(*find_algorithm("linear_scatter"), p, false) == 4095.0 * 4095.0 + 4095.0);
  // Exactly, from the rank classes of an algorithm generated on the fly.
  const AlgorithmKind& barrier = *find_algorithm("dissemination_barrier");
  const Schedule stored = barrier.generate(p);
  double joins = 0.0;
  for (std::uint32_t r = 0; r < stored.ranks(); ++r)
    joins += cycle_join_dependencies(stored.view(r), false);
  CHECK(cycle_joins_of(barrier, p, false) == joins);
}

}  // namespace collnoise
