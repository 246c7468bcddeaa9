// Schedules (docs/models/schedules.md): GOAL text read and written, and the engine's LogGOPS
// semantics on small schedules worked by hand (each also checked against LogGOPSim 76451de).
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "engine/schedules/goal_reader.hpp"
#include "engine/schedules/goal_writer.hpp"
#include "engine/schedules/schedule_engine.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

namespace {

// LogGOPSim's command-line values used in the hand computations: L=1000, o=100, g=50, G=1 ns,
// O=0, S=65535 bytes.
ScheduleNet hand_net() {
  ScheduleNet net;
  net.L = 1000;
  net.o = 100;
  net.g = 50;
  net.G = 1;
  net.O = 0;
  net.S = 65535;
  return net;
}

std::vector<double> finish_of(const std::string& goal, const ScheduleNet& net = hand_net()) {
  const ScheduleRun run = simulate_schedule(read_goal_text(goal, "test.goal"), net);
  INFO(run.incomplete);
  REQUIRE(run.complete);
  return run.finish;
}

}  // namespace

TEST_CASE("schedules by hand: an eager message") {
  // Send at 0: the CPU is busy o = 100; the first byte arrives at o + L = 1100; the receiver's
  // CPU takes o + max((s-1)O, (s-1)G) = 100 + 7: rank 1 ends at 1207.
  const auto t = finish_of(R"(num_ranks 2
rank 0 {
l0: send 8b to 1 tag 0
}
rank 1 {
l0: recv 8b from 0 tag 0
}
)");
  CHECK(t == std::vector<double>{100, 1207});
}

TEST_CASE("schedules by hand: a rendezvous message waits for its receive") {
  // 70000 b > S: the send finishes when rank 1 posts its receive at 3000 (after its calc); the
  // message, arrived at 1100, is taken at 3000 (CPU busy until then): 3000 + 100 + 69999 G =
  // 73099. Rank 0's calc, which requires the send, runs from 3000 to 3500.
  const auto t = finish_of(R"(num_ranks 2
rank 0 {
l0: send 70000b to 1 tag 0
l1: calc 500
l1 requires l0
}
rank 1 {
l0: calc 3000
l1: recv 70000b from 0 tag 0
l1 requires l0
}
)");
  CHECK(t == std::vector<double>{3500, 73099});
}

TEST_CASE("schedules by hand: irequires and a second CPU") {
  // l1 may start when l0 starts (0), on CPU 1, and ends at 200; l2 requires l1 and waits for
  // CPU 0 (busy until 1000): 1300.
  const auto t = finish_of(R"(num_ranks 1
rank 0 {
l0: calc 1000
l1: calc 200 cpu 1
l2: calc 300
l1 irequires l0
l2 requires l1
}
)");
  CHECK(t == std::vector<double>{1300});
}

TEST_CASE("schedules by hand: tags matched out of order") {
  // Rank 0 sends tag 2 (0-100) then tag 1 (100-200); they arrive at 1100 and 1200. Tag 2 finds
  // no posted receive of its tag (the receive of tag 1 is posted): unexpected, CPU 1100-1207.
  // Tag 1 waits for the CPU, 1207-1314, and matches; the receive of tag 2 then takes the
  // unexpected message at once; the calc runs 1314-1324.
  const auto t = finish_of(R"(num_ranks 2
rank 0 {
l0: send 8b to 1 tag 2
l1: send 8b to 1 tag 1
}
rank 1 {
l0: recv 8b from 0 tag 1
l1: recv 8b from 0 tag 2
l2: calc 10
l1 requires l0
l2 requires l1
}
)");
  CHECK(t == std::vector<double>{200, 1324});
}

TEST_CASE("schedules: wildcards and an unmatched receive") {
  const auto t = finish_of(R"(num_ranks 3
rank 0 {
l0: send 8b to 2 tag 4
}
rank 1 {
l0: send 8b to 2 tag 9
}
rank 2 {
l0: recv 8b from -1 tag -1
l1: recv 8b from -1 tag 9
}
)");
  CHECK(t[2] == 1314);
  // Two receives, one message of a tag neither wants: never matched.
  const auto bad = read_goal_text(R"(num_ranks 2
rank 0 {
l0: send 8b to 1 tag 3
}
rank 1 {
l0: recv 8b from 0 tag 4
}
)",
                                  "t.goal");
  const ScheduleRun run = simulate_schedule(bad, hand_net());
  CHECK_FALSE(run.complete);
  CHECK_THAT(run.incomplete, Contains("rank 1"));
}

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
  CHECK(simulate_schedule(back, hand_net()).finish == simulate_schedule(s, hand_net()).finish);
}
