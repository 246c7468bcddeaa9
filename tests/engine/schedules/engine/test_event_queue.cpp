// The schedule engine's radix heap (engine/schedules/engine/event_queue.hpp) against a reference
// priority queue: events leave in order of (time, stamp) whatever the spread of their times,
// through the window of bucket 0 widening and narrowing, ties, and events pushed before the last
// one popped.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "engine/schedules/engine/event_queue.hpp"

namespace {

struct TestEvent {
  double time;
  std::uint64_t stamp;
};

// The queue beside a reference (an ordered set of (time, stamp)): every pop must give the
// reference's first.
struct CheckedQueue {
  collnoise::RadixEventQueue<TestEvent> queue;
  std::set<std::pair<double, std::uint64_t>> reference;

  void push(double t, std::uint64_t stamp) {
    queue.push(TestEvent{t, stamp});
    reference.emplace(t, stamp);
  }
  bool empty() const { return queue.empty(); }
  TestEvent pop() {
    REQUIRE(!reference.empty());
    const TestEvent e = queue.pop();
    const auto expected = *reference.begin();
    reference.erase(reference.begin());
    REQUIRE(e.time == expected.first);
    REQUIRE(e.stamp == expected.second);
    return e;
  }
};

// Pops everything while pushing new events after some pops; `spread` scales the gaps.
void check_against_reference(std::uint64_t seed, double spread, double tie_chance,
                             double past_chance) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  CheckedQueue checked;
  std::uint64_t stamp = 0;
  const auto push = [&](double t) { checked.push(t, stamp++); };
  for (int i = 0; i < 2000; ++i) push(spread * unit(rng));
  double now = 0.0;
  std::size_t popped = 0;
  while (!checked.empty()) {
    const TestEvent e = checked.pop();
    now = e.time;
    if (++popped < 60000) {
      // Mostly later events (as the engine makes), some at the same time, a few earlier.
      const double u = unit(rng);
      if (u < tie_chance)
        push(now);
      else if (u < tie_chance + past_chance)
        push(now * unit(rng));
      else
        push(now + spread * unit(rng) * unit(rng));
      if (unit(rng) < 0.3) push(now + spread * unit(rng));
    }
  }
  CHECK(checked.reference.empty());
  CHECK(popped > 60000);
}

}  // namespace

TEST_CASE("event queue: events leave in (time, stamp) order as a reference queue gives them") {
  SECTION("spread out in time (the window widens)") {
    check_against_reference(1, 1e5, 0.0, 0.0);
  }
  SECTION("many ties (the window stays one time)") {
    check_against_reference(2, 1.0, 0.5, 0.0);
  }
  SECTION("tiny gaps near large times") {
    check_against_reference(3, 1e-9, 0.1, 0.0);
  }
  SECTION("some events earlier than the last popped") {
    check_against_reference(4, 1e3, 0.1, 0.01);
  }
}

TEST_CASE("event queue: a lockstep round of equal times leaves in stamp order") {
  collnoise::RadixEventQueue<TestEvent> queue;
  std::uint64_t stamp = 0;
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 3000; ++i) queue.push(TestEvent{1000.0 * round + 7.0, stamp++});
  }
  std::uint64_t expected = 0;
  while (!queue.empty()) {
    const TestEvent e = queue.pop();
    REQUIRE(e.stamp == expected);
    REQUIRE(e.time == 1000.0 * static_cast<double>(expected / 3000) + 7.0);
    ++expected;
  }
  CHECK(expected == 15000);
}

TEST_CASE("event queue: a round read in place takes events of its time, fresh and old stamps") {
  // Rounds of a few thousand events at one time (read from the queue's blocks as they stand),
  // while popping: events of the same time with fresh stamps (appended to the round, across
  // block boundaries), sometimes one with an older stamp (the round is sorted again), and later
  // events. Checked against the reference order.
  std::mt19937_64 rng(11);
  CheckedQueue checked;
  std::uint64_t stamp = 0;
  const auto push = [&](double t, std::uint64_t st) { checked.push(t, st); };
  for (int round = 0; round < 4; ++round)
    for (int i = 0; i < 2500; ++i) push(100.0 * round, stamp += 2);
  std::size_t popped = 0;
  while (!checked.empty()) {
    const TestEvent e = checked.pop();
    if (++popped > 40000) continue;
    const auto u = rng() % 1000;
    // Fresh stamps are even; an older one is odd, just after the popped event's (unique).
    if (u < 300)
      push(e.time, stamp += 2);  // same time, fresh stamp
    else if (u < 302 && e.stamp % 2 == 0)
      push(e.time, e.stamp + 1);  // same time, an older stamp than the newest
    else if (u < 600)
      push(e.time + 100.0, stamp += 2);
  }
  CHECK(checked.reference.empty());
}

TEST_CASE("event queue: a widened window flooded by a burst narrows and keeps the order") {
  // Sparse events first (the window widens to catch a few dozen of them), then a burst: thousands
  // of events close together, two thousand of them at one time (a round that noise left alone).
  // The next window catches them all and narrows at once; the order must not change.
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  CheckedQueue checked;
  std::uint64_t stamp = 0;
  const auto push = [&](double t) { checked.push(t, stamp++); };
  const auto pop_checked = [&] { return checked.pop().time; };
  for (int burst = 0; burst < 3; ++burst) {
    const double base = 1e7 * burst;
    for (int i = 0; i < 400; ++i) push(base + 1e6 * unit(rng));
    double now = base;
    for (int i = 0; i < 200; ++i) now = pop_checked();
    for (int i = 0; i < 3000; ++i) push(now + 50.0 * unit(rng));
    for (int i = 0; i < 2000; ++i) push(now + 10.0);
    while (!checked.empty()) {
      now = pop_checked();
      if (unit(rng) < 0.2) push(now + 20.0 * unit(rng));
    }
  }
  CHECK(checked.reference.empty());
}

TEST_CASE(
    "event queue: a burst into a window widened while events were sparse narrows it at once") {
  // As a tree barrier under noise: the root waits for one late child (few events, far apart: the
  // window widens to the microseconds between them), then the whole tree moves (thousands of
  // events pushed into that window, each between the others). Bucket 0 must narrow as they come,
  // not hold them all sorted (each insertion moved the events behind it: quadratic), and the
  // order must not change.
  std::mt19937_64 rng(6);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  CheckedQueue checked;
  std::uint64_t stamp = 0;
  const auto push = [&](double t) { checked.push(t, stamp++); };
  double now = 0.0;
  for (int i = 0; i < 300; ++i) {  // sparse: one event pending at a time, 1e4 to 2e4 apart
    push(now + 1e4 + 1e4 * unit(rng));
    now = checked.pop().time;
  }
  for (int i = 0; i < 50; ++i) push(now + 1e6 * unit(rng));
  std::size_t most = 0;
  for (int i = 0; i < 5000; ++i) {
    push(now + 1e4 * unit(rng));
    most = std::max(most, checked.queue.window_events());
  }
  CHECK(most < 2000);
  while (!checked.empty()) checked.pop();
  CHECK(checked.reference.empty());
}

TEST_CASE("event queue: events of a few fixed delays, interleaved, leave in order through lanes") {
  // As an engine's rounds: each event popped pushes events a fixed delay later (a message o + L
  // after its send, a receive o after it, a send after a receive's overhead), interleaved, with
  // now and then a scattered one (a detour's end), an older stamp at a lane's delay (a wait
  // queued again), and ties. The lanes take the fixed delays; the order must stay the
  // reference's.
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  CheckedQueue checked;
  std::uint64_t stamp = 0;
  const auto push = [&](double t, std::uint64_t st) { checked.push(t, st); };
  // Fresh stamps are even; an older one is odd, just after the popped event's (unique).
  for (int i = 0; i < 3000; ++i) push(0.0, stamp += 2);
  constexpr std::array<double, 5> kDelays{1001.0, 1.0, 8.0, 0.0, 57.5};
  std::size_t popped = 0;
  while (!checked.empty()) {
    const TestEvent e = checked.pop();
    if (++popped > 150000) continue;
    const double u = unit(rng);
    if (u < 0.9) push(e.time + kDelays[rng() % kDelays.size()], stamp += 2);
    if (u < 0.02) push(e.time + 1e5 * unit(rng), stamp += 2);           // scattered
    if (u > 0.97 && e.stamp % 2 == 0) push(e.time + 8.0, e.stamp + 1);  // an older stamp
    if (u > 0.5 && u < 0.55) push(e.time + 1001.0 * unit(rng), stamp += 2);
  }
  CHECK(checked.reference.empty());
  CHECK(popped > 150000);
}
