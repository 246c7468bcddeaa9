// Match-queue statistics (engine/schedules/paths/queue_stats.hpp) on cases worked by hand: the
// posted queue's length sampled at each message a rank takes in, the unexpected queue's at each
// receive it posts, both before the search (LogGOPSim's --qstat). Then, on every generated
// algorithm, what any complete run must give: as many posted-queue samples as messages, as many
// unexpected-queue samples as receives, and both queues empty at the end.
#include <catch2/catch.hpp>

#include <cstdint>
#include <numeric>
#include <vector>

#include "engine/schedules/engine/schedule_engine_impl.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/paths/queue_stats.hpp"
#include "tests/fixtures/small_schedules.hpp"

using namespace collnoise;

namespace {

using Counts = std::vector<std::uint64_t>;

// L = 1000, o = 10, g = 5 ns, no per-byte costs, eager up to 65535 bytes.
ScheduleNet hand_net() {
  ScheduleNet net;
  net.L = 1000;
  net.o = 10;
  net.g = 5;
  net.G = 0;
  net.O = 0;
  net.S = 65535;
  return net;
}

QueueStatsRecorder queues_of(const Schedule& s, const ScheduleNet& net = hand_net()) {
  QuietSchedule quiet;
  ScheduleEngineMemory memory;
  QueueStatsRecorder queues;
  const ScheduleRun run = simulate_schedule(s, net, quiet, memory, queues);
  INFO(run.incomplete);
  REQUIRE(run.complete);
  for (std::uint32_t r = 0; r < s.ranks(); ++r) {
    CHECK(queues.posted_now(r) == 0);  // a complete run leaves no entry behind
    CHECK(queues.unexpected_now(r) == 0);
  }
  return queues;
}

QueueStatsRecorder queues_of(const char* goal) {
  return queues_of(read_goal_text(goal, "hand.goal"));
}

}  // namespace

TEST_CASE("queue statistics by hand: a receive posted before its message") {
  // Rank 1 posts its receive at 0 (the unexpected queue holds 0), the message arrives at
  // 100 + 10 + 1000 = 1110 and finds the posted queue holding that receive (1).
  const QueueStatsRecorder q = queues_of(R"(num_ranks 2
rank 0 {
l0: calc 100
l1: send 8b to 1 tag 0
l1 requires l0
}
rank 1 {
l0: recv 8b from 0 tag 0
}
)");
  const auto r = q.result();
  REQUIRE(r.size() == 2);
  CHECK(r[0].posted.histogram.empty());
  CHECK(r[0].unexpected.histogram.empty());
  CHECK(r[0].posted.samples() == 0);
  CHECK(r[0].posted.mean() == 0.0);
  CHECK(r[1].posted.histogram == Counts{0, 1});
  CHECK(r[1].posted.max() == 1);
  CHECK(r[1].posted.mean() == 1.0);
  CHECK(r[1].unexpected.histogram == Counts{1});
  CHECK(r[1].unexpected.max() == 0);
  CHECK(r[1].unexpected.mean() == 0.0);
}

TEST_CASE("queue statistics by hand: a message before its receive is unexpected") {
  // Rank 1 posts a receive for rank 2 at 0 (unexpected queue 0; posted 1). Rank 0's message
  // arrives at 1010: the posted queue holds rank 2's receive (sample 1), which it does not
  // match, so it waits as unexpected. Rank 2's arrives at 3000 + 1010 = 4010: the posted queue
  // holds 1 (sample 1), matched. Then rank 1 posts its receive for rank 0: the unexpected queue
  // holds rank 0's message (sample 1), which it takes.
  const QueueStatsRecorder q = queues_of(R"(num_ranks 3
rank 0 {
l0: send 8b to 1 tag 0
}
rank 1 {
l0: recv 8b from 2 tag 1
l1: recv 8b from 0 tag 0
l1 requires l0
}
rank 2 {
l0: calc 3000
l1: send 8b to 1 tag 1
l1 requires l0
}
)");
  const auto& r1 = q.result()[1];
  CHECK(r1.posted.histogram == Counts{0, 2});
  CHECK(r1.posted.mean() == 1.0);
  CHECK(r1.unexpected.histogram == Counts{1, 1});
  CHECK(r1.unexpected.max() == 1);
  CHECK(r1.unexpected.mean() == 0.5);
}

TEST_CASE("queue statistics by hand: wildcard receives count like others") {
  // Rank 2 posts two receives from any source at 0 (unexpected queue 0 at both; posted 2).
  // Rank 0's message at 1010 finds 2 posted and takes the first; rank 1's at 100 + 1010 = 1110
  // finds 1.
  const QueueStatsRecorder q = queues_of(R"(num_ranks 3
rank 0 {
l0: send 8b to 2 tag 0
}
rank 1 {
l0: calc 100
l1: send 8b to 2 tag 0
l1 requires l0
}
rank 2 {
l0: recv 8b from -1 tag 0
l1: recv 8b from -1 tag -1
}
)");
  const auto& r2 = q.result()[2];
  CHECK(r2.posted.histogram == Counts{0, 1, 1});
  CHECK(r2.posted.max() == 2);
  CHECK(r2.posted.mean() == 1.5);
  CHECK(r2.unexpected.histogram == Counts{2});
  CHECK(r2.unexpected.mean() == 0.0);
}

TEST_CASE("queue statistics by hand: several messages queued") {
  // Rank 3 waits for rank 4's late message (posted at 0: unexpected 0) before it posts its
  // receives from ranks 0 to 2. Their messages arrive at 1010, 1110 and 1210, each finding the
  // one posted receive (sample 1) and joining the unexpected queue (1, 2, 3 entries). Rank 4's
  // arrives at 5000 + 1010 = 6010: posted 1, matched. The three receives then find 3, 2 and 1
  // messages waiting.
  const QueueStatsRecorder q = queues_of(R"(num_ranks 5
rank 0 {
l0: send 8b to 3 tag 0
}
rank 1 {
l0: calc 100
l1: send 8b to 3 tag 1
l1 requires l0
}
rank 2 {
l0: calc 200
l1: send 8b to 3 tag 2
l1 requires l0
}
rank 3 {
l0: recv 8b from 4 tag 9
l1: recv 8b from 0 tag 0
l2: recv 8b from 1 tag 1
l3: recv 8b from 2 tag 2
l1 requires l0
l2 requires l0
l3 requires l0
}
rank 4 {
l0: calc 5000
l1: send 8b to 3 tag 9
l1 requires l0
}
)");
  const auto& r3 = q.result()[3];
  CHECK(r3.posted.histogram == Counts{0, 4});
  CHECK(r3.posted.mean() == 1.0);
  CHECK(r3.unexpected.histogram == Counts{1, 1, 1, 1});
  CHECK(r3.unexpected.max() == 3);
  CHECK(r3.unexpected.mean() == 1.5);
  for (const std::uint32_t r : {0U, 1U, 2U, 4U}) {
    CHECK(q.result()[r].posted.samples() == 0);
    CHECK(q.result()[r].unexpected.samples() == 0);
  }
}

TEST_CASE("queue statistics by hand: a rendezvous message is sampled once, when taken in") {
  // 100000 bytes: rendezvous. The receive, posted at 0, finds no message; the message arrives
  // at 1010 and finds it posted.
  const QueueStatsRecorder q = queues_of(R"(num_ranks 2
rank 0 {
l0: send 100000b to 1 tag 0
}
rank 1 {
l0: recv 100000b from 0 tag 0
}
)");
  CHECK(q.result()[1].posted.histogram == Counts{0, 1});
  CHECK(q.result()[1].unexpected.histogram == Counts{1});
}

TEST_CASE("queue statistics: a sample per message and per receive on every algorithm") {
  for_each_small_schedule([](const Schedule& s, std::uint32_t ranks) {
    const QueueStatsRecorder q = queues_of(s);
    std::uint64_t messages = 0, receives = 0;
    for (std::uint32_t r = 0; r < ranks; ++r) {
      const RankQueueLengths& x = q.result()[r];
      messages += x.posted.samples();
      receives += x.unexpected.samples();
      // The histogram's lengths end at the largest seen.
      if (!x.posted.histogram.empty()) CHECK(x.posted.histogram.back() > 0);
      if (!x.unexpected.histogram.empty()) CHECK(x.unexpected.histogram.back() > 0);
    }
    std::uint64_t recv_ops = 0;
    for (std::uint32_t r = 0; r < ranks; ++r)
      for (std::uint64_t op = s.view(r).first(); op < s.view(r).first() + s.view(r).count(); ++op)
        if (s.view(r).kind(op) == OpKind::kRecv) ++recv_ops;
    CHECK(receives == recv_ops);
    CHECK(messages == recv_ops);  // (a complete run: every message matched one receive)
  });
}
