// The benchmark loop of a schedule point (loop.*, docs/models/schedules.md, "The benchmark
// loop"): each rank starts an iteration from its own finish of the previous one and its pause,
// warm-ups go unrecorded, a barrier may precede each timed collective, and the time-based noise
// goes on in time from one iteration to the next. Small cases worked by hand.
#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "distributions/detour_pattern.hpp"
#include "distributions/law_kind.hpp"
#include "engine/schedules/engine/message_delays.hpp"
#include "engine/schedules/entry_keys.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/schedule_study.hpp"
#include "engine/schedules/simulate.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/hand_goals.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;

namespace {

ScheduleSource source_of(const std::string& goal, std::uint32_t ranks, double operations) {
  ScheduleSource source;
  source.built = std::make_shared<const AnySchedule>(read_goal_text(goal, "loop.goal"));
  source.ranks = ranks;
  source.operations = operations;
  source.description = "loop";
  return source;
}

// Rank 0 sends 8 bytes to rank 1.
const char* const kPair =
    "num_ranks 2\nrank 0 {\nl0: send 8b to 1 tag 0\n}\nrank 1 {\nl0: recv 8b from 0 tag 0\n}\n";

// A study of `source` on LogGOPSim's hand values (L = 1000, o = 100, g = 50, G = 1 ns) under
// `noise`, with the entry, timing and loop keys `keys`.
std::unique_ptr<ScheduleStudy> study_of(const ScheduleSource& source, ParamMap keys,
                                        ScheduleNoiseSpec noise = {}) {
  ParamReader reader(std::move(keys));
  EntrySpec entry = read_entry(reader);
  auto study =
      std::make_unique<ScheduleStudy>(source, collnoise::test::hand_net(), std::move(noise));
  if (entry.barrier_each_iteration()) study->set_barrier(entry_barrier(entry, source.ranks));
  study->set_entry(std::move(entry));
  study->set_stream_key(42);
  return study;
}

// Every rank's start of each recorded iteration of loop `loop`, ns.
std::vector<std::vector<double>> loop_starts(const ScheduleStudy& study, std::uint64_t loop,
                                             std::uint64_t through) {
  std::vector<std::vector<double>> starts;
  study.run_loop(loop, through, [&](std::uint64_t, const ScheduleRun&, std::span<const double> s) {
    starts.emplace_back(s.begin(), s.end());
  });
  return starts;
}

}  // namespace

TEST_CASE("benchmark loop: each rank starts from its own last finish, warm-ups unrecorded") {
  // Pair, no noise. Iteration k from starts s0, s1: rank 0 ends at s0 + o, rank 1 at
  // max(s0 + o + L, s1) + o + 7 G = max(s0 + 1100, s1) + 107. From 0: (100, 1207); then
  // s = (100, 1207): rank 1 at 1314; s = (200, 1314): 1421; s = (300, 1421): 1528. Rank 0 runs
  // ahead and its messages wait: each rank's own time is 107 after the first iteration, the
  // completion (last finish less first start) 1214, 1221, 1228.
  const ScheduleSource pair = source_of(kPair, 2, 2);
  const auto warmed = study_of(pair, {{"loop.iterations", std::int64_t{3}},
                                      {"loop.warmups", std::int64_t{1}},
                                      {"timing.measure", std::string("per_rank")}});
  const auto whole =
      study_of(pair, {{"loop.iterations", std::int64_t{3}}, {"loop.warmups", std::int64_t{1}}});
  const auto cold = study_of(
      pair, {{"loop.iterations", std::int64_t{3}}, {"timing.measure", std::string("per_rank")}});
  CHECK(warmed->entry().loop_text() == "3 iterations after 1 warm-ups, pause 0 s");
  const double completion[] = {1214.0, 1221.0, 1228.0};
  for (std::uint64_t j = 0; j < 3; ++j) {
    INFO("recorded iteration " << j);
    CHECK(warmed->replicate(j) * 1e9 == Approx(107.0).epsilon(1e-12));
    CHECK(whole->replicate(j) * 1e9 == Approx(completion[j]).epsilon(1e-12));
    // Sample 3 + j is iteration j of the next loop: the same without noise.
    CHECK(whole->replicate(3 + j) == whole->replicate(j));
  }
  // Without warm-ups the first iteration is recorded: both ranks from 0, 1207.
  CHECK(cold->replicate(0) * 1e9 == Approx(1207.0).epsilon(1e-12));
  CHECK(cold->replicate(1) * 1e9 == Approx(107.0).epsilon(1e-12));
  const auto starts = loop_starts(*warmed, 0, 2);
  REQUIRE(starts.size() == 3);
  CHECK(starts[2] == std::vector<double>{300.0, 1421.0});
  // Each rank's own time in recorded iteration 1 (sample_finish, compare --mode ranks).
  const std::vector<double> own = warmed->rank_finishes(1);
  CHECK(own[0] * 1e9 == Approx(100.0).epsilon(1e-12));
  CHECK(own[1] * 1e9 == Approx(107.0).epsilon(1e-12));
}

TEST_CASE("benchmark loop: a pause before each iteration, constant or drawn per rank") {
  // A pause of 1 us: iteration 0 from (1000, 1000) ends at (1100, 2207); iteration 1 from
  // (2100, 3207): rank 1 at max(3200, 3207) + 107 = 3314, completion 3314 - 2100 = 1214.
  const ScheduleSource pair = source_of(kPair, 2, 2);
  const auto paused =
      study_of(pair, {{"loop.iterations", std::int64_t{2}}, {"loop.pause", 1.0e-6}});
  CHECK(paused->replicate(0) * 1e9 == Approx(1207.0).epsilon(1e-12));
  CHECK(paused->replicate(1) * 1e9 == Approx(1214.0).epsilon(1e-12));
  CHECK(loop_starts(*paused, 0, 1)[1] == std::vector<double>{2100.0, 3207.0});
  // Drawn: uniform(0, 2) of mean 2 us, 4000 (1 - u) ns, u from the stream of (loop, iteration,
  // rank) in the pause part of the iteration's key (docs/models/streams.md).
  const auto drawn = study_of(pair, {{"loop.iterations", std::int64_t{4}},
                                     {"loop.pause.law", std::string("uniform")},
                                     {"loop.pause.mean", 2.0e-6}});
  CHECK(drawn->entry().loop_text() ==
        "4 iterations after 0 warm-ups, pause uniform of mean 2e-06 s");
  for (std::uint64_t loop = 0; loop < 3; ++loop) {
    const std::uint64_t loop_key = stream_key(42, StreamPurpose::kLoop, loop);
    const auto starts = loop_starts(*drawn, loop, 3);
    REQUIRE(starts.size() == 4);
    std::vector<double> ready{0.0, 0.0};
    for (std::uint64_t i = 0; i < 4; ++i) {
      std::vector<double> expected(2);
      for (std::uint64_t r = 0; r < 2; ++r) {
        const std::uint64_t part = hash_combine(hash_combine(loop_key, i), 2);
        const double u = make_stream(hash_combine(part, r)).next_uniform();
        expected[r] = ready[r] + 4000.0 * (1.0 - u);
      }
      INFO("loop " << loop << ", iteration " << i);
      CHECK(starts[i][0] == Approx(expected[0]).epsilon(1e-14));
      CHECK(starts[i][1] == Approx(expected[1]).epsilon(1e-14));
      ready = {starts[i][0] + 100.0, std::max(starts[i][0] + 1100.0, starts[i][1]) + 107.0};
    }
  }
}

TEST_CASE("benchmark loop: a barrier before each timed collective, by hand") {
  // The barrier: ranks 1 and 2 send to rank 0, which answers both; the collective: rank 0 sends
  // 8 bytes to rank 2 (as in the entry barrier's test). Iteration 0 from 0: the barrier's exits
  // are (1500, 2500, 2600), the collective ends at (1600, 2500, 2707). Iteration 1 from there:
  // rank 1 sends at 2500 (arrival 3600), rank 2 at 2707 (arrival 3807); rank 0 receives at
  // 3600-3700 and 3807-3907, sends to 1 at 3907-4007 (arrival 5007) and to 2 at 4007-4107
  // (arrival 5107): exits (4107, 5107, 5207). The collective's message arrives at 5207, received
  // by 5314: each rank's own time (100, 0, 107), the completion 5314 - 4107 = 1207.
  const std::string barrier = collnoise::test::kHandBarrierGoal;
  collnoise::testing::write_text("loop-barrier.goal", barrier);
  const ScheduleSource coll = source_of(
      "num_ranks 3\nrank 0 {\nl0: send 8b to 2 tag 0\n}\nrank 1 {\n}\nrank 2 {\nl0: recv 8b from 0 "
      "tag 0\n}\n",
      3, 2);
  for (const ParamMap& keys :
       {ParamMap{{"loop.iterations", std::int64_t{2}},
                 {"loop.barrier", true},
                 {"entry.barrier_goal", std::string("loop-barrier.goal")}},
        ParamMap{{"loop.iterations", std::int64_t{2}},
                 {"entry.mode", std::string("barrier")},
                 {"entry.barrier_goal", std::string("loop-barrier.goal")}}}) {
    const auto study = study_of(coll, keys);
    CHECK(study->entry().loop_text() ==
          "2 iterations after 0 warm-ups, pause 0 s, a barrier before each");
    const auto starts = loop_starts(*study, 0, 1);
    REQUIRE(starts.size() == 2);
    CHECK(starts[0] == std::vector<double>{1500.0, 2500.0, 2600.0});
    CHECK(starts[1] == std::vector<double>{4107.0, 5107.0, 5207.0});
    CHECK(study->replicate(1) * 1e9 == Approx(1207.0).epsilon(1e-12));
  }
}

TEST_CASE("benchmark loop: the time-based noise goes on in time across iterations") {
  // One rank computing 300 ns per iteration under a periodic detour of 500 ns every 1000 ns
  // (preemption: half of the time lost). The loop's iterations follow one another, so the sum of
  // their times is the time of 5 x 300 ns of work from 0 at the loop's offset: 1500 ns of work
  // in three windows of 500 ns, between 2500 and 3000 ns; the same as one run of five chained
  // calcs under the loop's time key. Were the noise restarted in each iteration, every
  // iteration would take the same time.
  ScheduleNoiseSpec noise;
  noise.cpu = PatternCpuNoise{
      std::make_shared<const DetourPattern>(std::vector<Detour>{{0.0, 500.0}}, 1000.0, "periodic"),
      TimeSemantics::kPreempt, 1};
  const ScheduleSource one = source_of("num_ranks 1\nrank 0 {\nl0: calc 300\n}\n", 1, 1);
  const auto loop = study_of(
      one, {{"loop.iterations", std::int64_t{5}}, {"timing.measure", std::string("per_rank")}},
      noise);
  const ScheduleSource chained = source_of(
      "num_ranks 1\nrank 0 {\nl0: calc 300\nl1: calc 300\nl2: calc 300\nl3: calc 300\nl4: calc "
      "300\nl1 requires l0\nl2 requires l1\nl3 requires l2\nl4 requires l3\n}\n",
      1, 5);
  bool unequal = false;
  for (std::uint64_t n = 0; n < 4; ++n) {
    double sum = 0.0, first = 0.0;
    for (std::uint64_t j = 0; j < 5; ++j) {
      const double t = loop->replicate(5 * n + j) * 1e9;
      if (j == 0) first = t;
      unequal = unequal || t != first;
      CHECK(t >= 300.0 - 1e-9);
      CHECK(t <= 800.0 + 1e-9);
      sum += t;
    }
    INFO("loop " << n);
    CHECK(sum >= 2500.0 - 1e-9);
    CHECK(sum <= 3000.0 + 1e-9);
    ScheduleEngineMemory memory;
    const ScheduleRun run =
        run_schedule(*chained.built, collnoise::test::hand_net(), noise,
                     NoiseKeys(stream_key(42, StreamPurpose::kLoop, n)), memory);
    CHECK(sum == Approx(run.finish[0]).epsilon(1e-12));
  }
  CHECK(unequal);
}

TEST_CASE("benchmark loop: what it cannot be combined with is refused in one line") {
  ParamReader reader({{"loop.iterations", std::int64_t{10}},
                      {"entry.mode", std::string("law")},
                      {"entry.law", std::string("exponential")},
                      {"entry.mean", 1.0e-6}});
  CHECK_THROWS_WITH(read_entry(reader),
                    Catch::Contains("entry.mode = \"law\" with a benchmark loop (loop.*)"));
}

TEST_CASE("entry barrier with network noise: the barrier's messages draw their own delays") {
  // Exponential delays of mean 1 us on every message. The barrier's run draws from the barrier
  // part of the replication's key (docs/models/streams.md), the collective's sends from the key
  // itself: sends of the same index in both no longer share a delay.
  ScheduleNoiseSpec noise;
  ParamReader law({{"delay.law", std::string("exponential")}});
  noise.delays = MessageDelays(read_unit_law(law, "delay"), 1000.0);
  const ScheduleSource pair = source_of(kPair, 2, 2);
  const auto study = study_of(pair, {{"entry.mode", std::string("barrier")}}, noise);
  ParamReader keys({{"entry.mode", std::string("barrier")}});
  const AnySchedule barrier = entry_barrier(read_entry(keys), 2);
  ScheduleEngineMemory memory;
  bool shared_differs = false;
  for (std::uint64_t i = 0; i < 10; ++i) {
    const std::uint64_t key = stream_key(42, StreamPurpose::kReplication, i);
    const ScheduleRun own = run_schedule(barrier, collnoise::test::hand_net(), noise,
                                         NoiseKeys(key, hash_combine(key, 1)), memory);
    const std::vector<double> starts = study->entry_starts(i);
    CHECK(starts == own.finish);
    // Noisy: the exits are later than the noiseless 2o + L = 1200 ns of the 2-rank barrier.
    CHECK(starts[0] > 1200.0);
    const ScheduleRun shared =
        run_schedule(barrier, collnoise::test::hand_net(), noise, NoiseKeys(key), memory);
    shared_differs = shared_differs || shared.finish != starts;
  }
  CHECK(shared_differs);
}

TEST_CASE("benchmark loop in a run: the summary says so, samples the same for any split") {
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  // A dissemination barrier at N = 4 timed in a loop of 3 recorded iterations after 2 warm-ups,
  // a barrier before each, a pause of 2 us, under periodic detours and exponential message
  // delays. 10 samples: three whole loops and the first iteration of a fourth.
  const auto run_with = [&](const std::string& extra, const std::string& threads) {
    write_text("loop.toml", fmt::format(R"(name = "l"
seed = 7
samples = 10
{}
[collective]
kind = "schedule"
algorithm = "dissemination_barrier"
N = 4
message_bytes = 1
[loggops]
L = 1.0e-6
o = 1.0e-7
g = 0.0
G = 0.0
[noise]
law = "periodic"
P = 1.0e-5
D = 1.0e-6
[latency]
law = "exponential"
mean = 2.0e-7
[timing]
measure = "per_rank"
[loop]
iterations = 3
warmups = 2
pause = 2.0e-6
barrier = true
)",
                                        extra));
    std::filesystem::remove("loop.h5");
    const auto ran = run_command_line("run loop.toml --out loop.h5 --quiet --threads " + threads);
    INFO(ran.output);
    REQUIRE(ran.code == 0);
    return run_command_line("summary loop.h5 --json").output;
  };
  const auto value = [](const std::string& json, const std::string& key) {
    const auto at = json.find("\"" + key + "\": ");
    REQUIRE(at != std::string::npos);
    return json.substr(at + key.size() + 4,
                       json.find_first_of(",\n}", at + key.size() + 4) - (at + key.size() + 4));
  };
  const std::string one = run_with("", "1");
  const std::string two = run_with("", "2");
  const std::string cut = run_with("chunk_size = 5", "2");
  INFO(one);
  CHECK(one.find("\"benchmark_loop\": \"3 iterations after 2 warm-ups, pause 2e-06 s, a barrier "
                 "before each\"") != std::string::npos);
  CHECK(value(one, "loop_recorded_iterations") == "3");
  CHECK(value(one, "loop_warmup_iterations") == "2");
  CHECK(value(one, "completion_mean") == value(two, "completion_mean"));
  CHECK(value(one, "completion_sd") == value(two, "completion_sd"));
  // Chunks that cut loops simulate their first iterations again: the same samples.
  CHECK(std::stod(value(cut, "completion_mean")) ==
        Approx(std::stod(value(one, "completion_mean"))).epsilon(1e-12));
  // Every iteration of the barrier-then-barrier loop takes at least the noiseless 2 (2o + L).
  CHECK(std::stod(value(one, "completion_mean")) > 2.4e-6);
}
