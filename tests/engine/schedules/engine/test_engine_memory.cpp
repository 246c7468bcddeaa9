// The schedule engine's working memory kept between runs (ScheduleEngineMemory,
// engine/schedules/engine/engine_memory.hpp): a run on memory that other runs used (larger,
// smaller, under other noise, or cut short by a stop request) gives every rank the same finishing
// time, bit for bit, as a run on fresh memory.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/stop_request.hpp"
#include "distributions/detour_pattern.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;

namespace {

ScheduleNet net() {
  return test::chen_suda_net();
}

Schedule algorithm(const char* name, std::uint32_t ranks, ReceiveOrder order) {
  AlgorithmParams p;
  p.ranks = ranks;
  p.message_bytes = 8;
  p.receives = order;
  return find_algorithm(name)->generate(p);
}

// 100 us detours every 1 ms, each rank at its own offset.
const DetourPattern& pattern() {
  static const DetourPattern p({{0.0, 1e5}}, 1e6, "test");
  return p;
}

ScheduleRun noisy(const Schedule& s, std::uint64_t key, ScheduleEngineMemory& memory) {
  PatternScheduleNoise noise(pattern(), TimeSemantics::kPreempt, key, s.ranks(), 1);
  return simulate_schedule(s, net(), noise, memory);
}

ScheduleRun noisy(const Schedule& s, std::uint64_t key) {
  ScheduleEngineMemory fresh;
  return noisy(s, key, fresh);
}

void expect_same(const ScheduleRun& a, const ScheduleRun& b) {
  CHECK(a.complete == b.complete);
  CHECK(a.events == b.events);
  CHECK(a.finish == b.finish);  // bit for bit
}

}  // namespace

TEST_CASE("engine memory: runs after larger, smaller and other runs give the same bits") {
  const Schedule big = algorithm("dissemination_barrier", 1024, ReceiveOrder::kPreposted);
  const Schedule small = algorithm("recursive_doubling_allreduce", 37, ReceiveOrder::kInOrder);
  const Schedule gather = algorithm("linear_gather", 200, ReceiveOrder::kInOrder);
  ScheduleEngineMemory memory;
  // Noiseless and noisy runs (the per-rank state holds the noise's slot or not) in turn.
  QuietSchedule quiet;
  const ScheduleRun quiet_big = simulate_schedule(big, net(), quiet, memory);
  expect_same(noisy(small, 3, memory), noisy(small, 3));
  expect_same(simulate_schedule(big, net(), quiet, memory), quiet_big);
  expect_same(noisy(gather, 5, memory), noisy(gather, 5));  // waiting rooms in use
  expect_same(noisy(big, 7, memory), noisy(big, 7));
  expect_same(noisy(small, 3, memory), noisy(small, 3));
  CHECK(simulate_schedule(big, net(), quiet).finish == quiet_big.finish);
}

TEST_CASE("engine memory: a run cut short leaves nothing behind for the next") {
  const Schedule big = algorithm("dissemination_barrier", 4096, ReceiveOrder::kPreposted);
  ScheduleEngineMemory memory;
  // The engine checks for a stop at its first event (and every 2^20 after): stopped there, it
  // leaves every rank's first operations in its queue.
  request_stop(1);
  CHECK_THROWS_AS(noisy(big, 9, memory), StopRequested);
  clear_stop_request();
  expect_same(noisy(big, 9, memory), noisy(big, 9));
}

TEST_CASE("engine memory: the estimate before a run holds what the run takes") {
  // Preposted schedules queue every receive at once; in order, a few events per rank.
  for (const ReceiveOrder order : {ReceiveOrder::kInOrder, ReceiveOrder::kPreposted})
    for (const char* name : {"dissemination_barrier", "recursive_doubling_allreduce",
                             "binomial_broadcast", "linear_gather", "pairwise_alltoall"}) {
      INFO(name);
      const Schedule s = algorithm(name, 2048, order);
      ScheduleEngineMemory memory;
      noisy(s, 1, memory);
      const double estimate = estimated_engine_bytes(s.ranks(), static_cast<double>(s.operations()),
                                                     static_cast<double>(s.ready_at_start()));
      const auto held = static_cast<double>(memory.bytes());
      CHECK(held <= estimate);
      CHECK(held >= estimate / 8);  // and not wildly above it
    }
}

TEST_CASE("engine memory: a long run reports its events as it goes, for progress") {
  // 3 * 65536 * 16 events (sends, receives and messages): reported at 2^20 and 2^21.
  const Schedule s = algorithm("dissemination_barrier", 65536, ReceiveOrder::kPreposted);
  ScheduleEngineMemory memory;
  std::vector<std::uint64_t> reports;
  memory.on_progress([&](std::uint64_t events) { reports.push_back(events); });
  const ScheduleRun run = noisy(s, 2, memory);
  REQUIRE(run.events > std::uint64_t{2} << 20);
  // At the start, then once past every 2^20 events (at the next event, if there is one).
  REQUIRE(reports.size() == 1 + (run.events - 1) / (std::uint64_t{1} << 20));
  for (std::size_t k = 0; k < reports.size(); ++k) {
    CHECK(reports[k] >= k << 20);
    CHECK(reports[k] < (k << 20) + 8);  // (an event adds at most a few)
  }
  memory.on_progress({});
  reports.clear();
  noisy(s, 2, memory);
  CHECK(reports.empty());
}
