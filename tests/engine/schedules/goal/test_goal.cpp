// GOAL text (docs/models/schedules.md): parse errors naming the line and column, comments and
// labels defined later, a round trip through the writer, and every generated algorithm equal to
// its GOAL export read back.
#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "core/work_in_flight.hpp"
#include "distributions/exponential.hpp"
#include "distributions/latency_samples.hpp"
#include "engine/cycles/cycle_model.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/engine/message_delays.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/goal/goal_writer.hpp"
#include "engine/schedules/schedule/generated_schedule.hpp"
#include "engine/schedules/schedule_study.hpp"
#include "engine/schedules/simulate.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/same_operations.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;
using collnoise::test::hand_net;

TEST_CASE("GOAL: parse errors name the line and column") {
  const auto error = [](const std::string& text) {
    try {
      read_goal_text(text, "bad.goal");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    FAIL("no error for:\n" << text);
    return std::string();
  };
  CHECK_THAT(error("num_ranks 2\nrank 0 {\nl0: send 8 to 1\n}\n"),
             Contains("bad.goal:3:12: expected 'b'"));
  CHECK_THAT(error("num_ranks 2\nrank 0 {\nl0: send 8b to 5\n}\n"),
             Contains("bad.goal:3:16: unknown peer 5"));
  CHECK_THAT(error("num_ranks 1\nrank 0 {\nl0: calc 5\nl0 requires l9\n}\n"),
             Contains("bad.goal:4:1: label \"l9\" is not defined in rank 0"));
  CHECK_THAT(
      error("num_ranks 1\nrank 0 {\nl0: calc 5\nl1: calc 6\nl0 requires l1\nl1 requires l0\n}\n"),
      Contains("cycle"));
  CHECK_THAT(error("num_ranks 2\nrank 1 {\n}\n"),
             Contains("bad.goal:2:6: rank 1 comes out of order"));
  CHECK_THAT(error("num_ranks 2\nrank 0 {\n}\n"), Contains("ends after 1 rank block"));
  CHECK_THAT(error("rank 0 {\n}\n"),
             Contains("bad.goal:1:1: a rank block before the num_ranks line"));
  CHECK_THAT(error("num_ranks 2\nrank 0 {\nl0: send 8b to 1\n}\nrank 1 {\n}\n"),
             Contains("rank 1 posts 0 receive(s) but 1 message(s)"));
  CHECK_THAT(error("num_ranks 1\nrank 0 {\nl0: calc 5 tag 3\n}\n"),
             Contains("bad.goal:3:12: unexpected \"tag\""));
  CHECK_THAT(error("num_ranks 1\nrank 0 {\nl0: calc 99999999999999999999\n}\n"),
             Contains("too large"));
  CHECK_THAT(error("num_ranks 1\nrank 0 {\n/* open\n"), Contains("inside a /* comment"));
  CHECK_THAT(error("num_ranks 1\nrank 0 {\nl0: calc 5\nl0: calc 6\n}\n"),
             Contains("defined twice"));
  CHECK_THAT(error("num_ranks 1\nrank 0 {\na: calc 5\n  a requires zz\n}\n"),
             Contains("bad.goal:4:3: label \"zz\" is not defined in rank 0"));
  CHECK_THAT(error("num_ranks 1\nrank 0 {\nl3: calc 5\nl3 requires l3\n}\n"),
             Contains("bad.goal:4:1: \"l3\" depends on itself"));
  // Labels are text, as in LogGOPSim: "l07" is not "l7".
  CHECK_THAT(error("num_ranks 1\nrank 0 {\nl7: calc 5\nl8: calc 1\nl8 requires l07\n}\n"),
             Contains("bad.goal:5:1: label \"l07\" is not defined in rank 0"));
  const Schedule both = read_goal_text(
      "num_ranks 1\nrank 0 {\nl7: calc 5\nl07: calc 1\nl07 requires l7\n}\n", "ok.goal");
  CHECK(both.dependencies(1) == 1);
}

TEST_CASE("GOAL: comments, labels defined later, and a round trip through the writer") {
  const std::string text = R"(// a comment line
num_ranks 2 /* the ranks */
rank 0 {
  first requires second   // a label defined further down
  second: send 100b to 1 tag 3 cpu 1 nic 1
  first: calc 250
}
rank 1 {
  l0: recv 100b from -1 tag -1
}
)";
  const Schedule s = read_goal_text(text, "t.goal");
  REQUIRE(s.ranks() == 2);
  REQUIRE(s.operations() == 3);
  CHECK(s.cpus() == 2);
  CHECK(s.nics() == 2);
  CHECK(s.kind(0) == OpKind::kSend);
  CHECK(s.peer(2) == kAnyPeer);
  CHECK(s.tag(2) == kAnyTag);
  CHECK(s.dependencies(1) == 1);
  std::ostringstream out;
  write_goal(s, out);
  const Schedule back = read_goal_text(out.str(), "written.goal");
  std::ostringstream again;
  write_goal(back, again);
  CHECK(again.str() == out.str());
  CHECK(run_schedule(back, hand_net()).finish == run_schedule(s, hand_net()).finish);
}

TEST_CASE("generated algorithms equal their GOAL export read back") {
  for (const auto& algorithm : algorithm_kinds())
    for (const std::uint32_t n : {1U, 2U, 5U, 8U, 13U})
      for (const auto order : {ReceiveOrder::kInOrder, ReceiveOrder::kPreposted}) {
        INFO(algorithm.name << " on " << n << " ranks");
        AlgorithmParams p;
        p.ranks = n;
        p.message_bytes = 4000;
        p.k = 3;
        p.segments = 2;
        p.receives = order;
        const Schedule s = algorithm.generate(p);
        std::ostringstream goal;
        write_goal(s, goal);
        const Schedule back = read_goal_text(goal.str(), algorithm.name + ".goal");
        CHECK(back.operations() == s.operations());
        const ScheduleRun a = run_schedule(s, hand_net());
        const ScheduleRun b = run_schedule(back, hand_net());
        REQUIRE(a.complete);
        CHECK(a.finish == b.finish);
        CHECK(a.events == b.events);
      }
}
