// The schedule engine's queue under noise (engine/schedules/engine/event_queue.hpp): events pushed
// just behind the read position (an operation released at the current time plus an overhead, most
// of a noisy GOAL barrier's insertions) leave in order of (time, stamp).
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <set>
#include <utility>

#include "engine/schedules/engine/event_queue.hpp"

namespace {

struct NoisyEvent {
  double time;
  std::uint64_t stamp;
};

}  // namespace

TEST_CASE("Events pushed just behind the read position leave in time order", "[schedules]") {
  collnoise::RadixEventQueue<NoisyEvent> queue;
  std::set<std::pair<double, std::uint64_t>> reference;
  std::mt19937_64 rng(20261127);
  std::uniform_real_distribution<double> spread(0.0, 30.0), overhead(0.5, 1.5);
  std::uint64_t stamp = 0;
  auto push = [&](double t) {
    queue.push(NoisyEvent{t, stamp});
    reference.emplace(t, stamp++);
  };
  for (int i = 0; i < 2000; ++i) push(1000.0 + spread(rng));
  std::uint64_t popped = 0;
  while (!queue.empty()) {
    const NoisyEvent e = queue.pop();
    REQUIRE(e.time == reference.begin()->first);
    REQUIRE(e.stamp == reference.begin()->second);
    reference.erase(reference.begin());
    ++popped;
    // As the engine: a message releases a send one overhead later, a send queues a message one
    // latency later, until a budget of events is spent.
    if (stamp < 200000) {
      push(e.time + overhead(rng));
      if (popped % 3 == 0) push(e.time + 1000.0 + spread(rng));
      if (popped % 7 == 0) push(e.time);
    }
  }
  CHECK(reference.empty());
  CHECK(popped == stamp);
}
