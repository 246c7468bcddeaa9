// The engine's run start (engine/schedules/engine/schedule_engine.hpp, simulate_schedule): every
// rank's CPU and NIC free from its own start instead of 0, on small schedules worked by hand
// (docs/models/schedules.md, "Entry, timing and loop").
#include <catch2/catch.hpp>
#include <limits>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/simulate.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;
using collnoise::test::hand_net;

namespace {

// Rank 0 sends 8 bytes to rank 1, which computes 500 ns first when `calc`.
Schedule eager_pair(bool calc) {
  const std::string rank1 = calc ? "l0: calc 500\nl1: recv 8b from 0 tag 0\nl1 requires l0\n"
                                 : "l0: recv 8b from 0 tag 0\n";
  return read_goal_text(
      "num_ranks 2\nrank 0 {\nl0: send 8b to 1 tag 0\n}\nrank 1 {\n" + rank1 + "}\n", "pair.goal");
}

std::vector<double> finish_from(const Schedule& s, const std::vector<double>& start) {
  ScheduleEngineMemory memory;
  const ScheduleRun run =
      run_schedule(s, hand_net(), ScheduleNoiseSpec{}, 0, memory, NoObserver{}, start);
  INFO(run.incomplete);
  REQUIRE(run.complete);
  return run.finish;
}

}  // namespace

TEST_CASE("run start: no starts, or all at 0, is the run from 0") {
  // L = 1000, o = 100, G = 1 ns: rank 0 ends at o = 100; the message arrives at o + L = 1100 and
  // takes o + 7 G = 107 ns at rank 1: 1207.
  const Schedule s = eager_pair(false);
  CHECK(finish_from(s, {}) == std::vector<double>{100, 1207});
  CHECK(finish_from(s, {0.0, 0.0}) == std::vector<double>{100, 1207});
}

TEST_CASE("run start: each rank's CPU and NIC free from its own start, by hand") {
  const Schedule s = eager_pair(false);
  // The sender starts at 300: it sends at 300 (ends 400), the message arrives at 1400 and is
  // received at once: 1507.
  CHECK(finish_from(s, {300.0, 0.0}) == std::vector<double>{400, 1507});
  // The receiver starts at 2000: its receive is posted (it takes no time), the message that
  // arrived at 1100 waits for its CPU and is received from 2000: 2107.
  CHECK(finish_from(s, {0.0, 2000.0}) == std::vector<double>{100, 2107});
  // With a calc of 500 before the receive: the calc runs from 2000 to 2500 (it was listed
  // before the message), the message is received from 2500 (its stamp precedes the receive's),
  // 2607, and the receive then finds it unexpected.
  CHECK(finish_from(eager_pair(true), {0.0, 2000.0}) == std::vector<double>{100, 2607});
  // A rank with nothing to do finishes at its start.
  const Schedule idle = read_goal_text("num_ranks 2\nrank 0 {\nl0: calc 10\n}\nrank 1 {\n}\n", "i");
  CHECK(finish_from(idle, {5.0, 70.0}) == std::vector<double>{15, 70});
}

TEST_CASE("run start: one finite start >= 0 per rank, else one line") {
  const Schedule s = eager_pair(false);
  ScheduleEngineMemory memory;
  const auto run_from = [&](std::vector<double> start) {
    return run_schedule(s, hand_net(), ScheduleNoiseSpec{}, 0, memory, NoObserver{}, start);
  };
  CHECK_THROWS_AS(run_from({0.0}), InputError);
  CHECK_THROWS_AS(run_from({0.0, -1.0}), InputError);
  CHECK_THROWS_AS(run_from({0.0, std::numeric_limits<double>::infinity()}), InputError);
}
