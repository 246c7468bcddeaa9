// GOAL files are read and validated within bounds (docs/cli.md, "What collnoise promises"):
// validation stops within seconds of SIGTERM and keeps to the memory limit, its estimate counts the
// matching, and labels, lines and num_ranks take no memory in proportion to their values.
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

TEST_CASE("a GOAL file being validated stops within seconds of SIGTERM, and says so",
          "[bounded][slow]") {
  // 2^18 ranks: read in a fraction of a second, then about 10 s of matching in the noiseless run
  // that validates it.
  { std::ofstream("reversed18.goal") << reversed_gather(1U << 18); }
  const std::string run = goal_run_file("reversed18", "reversed18.goal");
  const Finished f = run_collnoise({"run", run, "--validate-only"}, 2.5);
  INFO(f.output);
  CHECK(f.code == 3);
  CHECK(mentions(f.output, "interrupted by signal 15"));
  CHECK(f.seconds < kStopBound);
}

TEST_CASE("the validation estimate counts the matching of a GOAL file's validation", "[bounded]") {
  // 2^15 ranks: some 2e8 entries searched, a fifth of a core-second at 1 ns an entry; before,
  // the estimate counted 1.5 events an operation only (0.02 core-seconds with the overheads).
  { std::ofstream("reversed15.goal") << reversed_gather(1U << 15); }
  const std::string run = goal_run_file("reversed15", "reversed15.goal");
  const Finished f = run_collnoise({"run", run, "--validate-only"});
  INFO(f.output);
  REQUIRE(f.code == 0);
  const auto at = f.output.find("estimated work ");
  REQUIRE(at != std::string::npos);
  const double seconds = std::stod(f.output.substr(at + 15));
  CHECK(mentions(f.output.substr(at), "core-seconds"));
  CHECK(seconds > 0.1);
}

TEST_CASE("a sparse GOAL label takes no memory in proportion to its value", "[bounded]") {
  // Before: "l500000000" grew a table of 5e8 entries (1.97 GB at its peak).
  write_text("sparse-label.goal", "num_ranks 1\nrank 0 {\nl500000000: calc 100\n}\n");
  const Schedule s = read_goal_text(
      "num_ranks 1\nrank 0 {\nl500000000: calc 100\n"
      "l7: calc 5\nl7 requires l500000000\n}\n",
      "sparse.goal");
  CHECK(s.operations() == 2);
  CHECK(s.dependencies(1) == 1);
  CHECK_THROWS_WITH(read_goal_text("num_ranks 1\nrank 0 {\nl900000000: calc 1\nl900000000: calc "
                                   "2\n}\n",
                                   "twice.goal"),
                    Catch::Contains("defined twice"));
  const std::string run = goal_run_file("sparse-label", "sparse-label.goal");
  const Finished f = run_collnoise({"run", run, "--validate-only", "--max-memory-gib", "0.5"});
  INFO(f.output);
  CHECK(f.code == 0);
  CHECK(f.peak_bytes < 0.5 * kGiB);
}

TEST_CASE("a GOAL line beyond any GOAL line's length is refused, not buffered", "[bounded]") {
  // Before, the reader's buffer grew to hold the whole line, however long.
  const std::string endless(std::size_t{80} << 20, 'x');
  std::string error;
  try {
    read_goal_text(endless, "endless.goal");
  } catch (const InputError& e) {
    error = e.what();
  }
  // (compared by hand: Catch would format a message of 80 MiB for ever)
  REQUIRE(error.size() < 200);
  CHECK(error == "endless.goal:1:1: a line longer than 64 MiB: this is not GOAL text");
}

TEST_CASE("num_ranks in a tiny GOAL file allocates nothing per rank up front", "[bounded]") {
  // Before: num_ranks 100000000 took 1.6 GB before its error; 2147483647 asked for 32 GiB.
  write_text("many-ranks.goal", "num_ranks 100000000\n");
  const Finished many = run_collnoise({"run", goal_run_file("many-ranks", "many-ranks.goal"),
                                       "--validate-only", "--max-memory-gib", "0.5"});
  INFO(many.output);
  CHECK(many.code == 2);
  CHECK(mentions(many.output, "after 0 rank block(s)"));
  CHECK(many.peak_bytes < 0.5 * kGiB);
  // A send to the last of 2^31 - 1 ranks would count messages for every one of them: refused
  // by the memory it needs, before it is taken.
  write_text("far-peer.goal",
             "num_ranks 2147483647\nrank 0 {\nl0: send 8b to 2147483646 tag 0\n}\n");
  const Finished far = run_collnoise({"run", goal_run_file("far-peer", "far-peer.goal"),
                                      "--validate-only", "--max-memory-gib", "0.5"});
  INFO(far.output);
  CHECK(far.code == 2);
  CHECK(mentions(far.output, "reading GOAL file "));
  CHECK(mentions(far.output, "far-peer.goal (at line 3, rank 0) would need about 16 GiB"));
  CHECK(mentions(far.output, "of memory, beyond the limit of 512 MiB"));
  CHECK(far.peak_bytes < 0.5 * kGiB);
}

TEST_CASE("validating a GOAL file keeps to the memory limit", "[bounded]") {
  // The engine's memory for 2^16 ranks all ready at once is some 16 MiB: refused at 8 MiB.
  { std::ofstream("reversed16.goal") << reversed_gather(1U << 16); }
  const Finished f = run_collnoise({"run", goal_run_file("reversed16", "reversed16.goal"),
                                    "--validate-only", "--max-memory-gib", "0.0078125"});
  INFO(f.output);
  CHECK(f.code == 2);
  CHECK(mentions(f.output, "would need about"));
  CHECK(mentions(f.output, "of memory, beyond the limit of 8 MiB"));
}

}  // namespace collnoise
