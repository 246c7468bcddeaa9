// The entry, timing and loop keys of a schedule point (engine/schedules/entry_keys.hpp): their
// defaults, their conflicts, what this build refuses, and the summary fields that say which was
// simulated.
#include "engine/schedules/entry_keys.hpp"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "engine/schedules/schedule_study.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/hand_goals.hpp"
#include "tests/fixtures/hand_sources.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;

namespace {

// The InputError read_entry raises on `given`, or "" if it raises none.
std::string refusal(ParamMap given) {
  ParamReader reader(std::move(given));
  try {
    read_entry(reader);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool names(const std::string& message, const std::string& part) {
  return message.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("entry keys: the defaults are today's run, together and timed to completion") {
  ParamReader reader({});
  const EntrySpec e = read_entry(reader);
  CHECK(e.entry == RankEntry::kTogether);
  CHECK(e.timing == SampleTiming::kCompletion);
  CHECK(e.iterations == 1);
  CHECK(e.warmups == 0);
  CHECK_FALSE(e.loop_barrier);
  CHECK(e.pause == 0.0);
  CHECK(e.entry_text == "together");
  CHECK(e.timing_text() == "completion");
  CHECK(e.loop_text() == "none");
  // Every key is declared once, with its table.
  for (const KeySpec& k : entry_keys())
    CHECK((k.name.rfind("entry.", 0) == 0 || k.name.rfind("timing.", 0) == 0 ||
           k.name.rfind("loop.", 0) == 0));
}

TEST_CASE("entry keys: per-rank timing of ranks entering together is read") {
  ParamReader reader({{"timing.measure", std::string("per_rank")}});
  const EntrySpec e = read_entry(reader);
  CHECK(e.timing == SampleTiming::kPerRank);
  CHECK(e.timing_text() == "per_rank");
}

TEST_CASE("entry keys: conflicts and what this build does not simulate, one line each") {
  CHECK(names(refusal({{"timing.measure", std::string("each")}}), "timing.measure"));
  CHECK(names(refusal({{"entry.mode", std::string("barrier")},
                       {"entry.barrier", std::string("dissemination_barrier")},
                       {"entry.barrier_goal", std::string("b.goal")}}),
              "entry.barrier and entry.barrier_goal"));
  CHECK(names(refusal({{"entry.barrier", std::string("tree_barrier")}}),
              "entry.barrier applies with"));
  CHECK(names(refusal({{"entry.mean", 1.0e-6}}), "entry.mean applies with entry.mode = \"law\""));
  CHECK(names(
      refusal({{"entry.mode", std::string("law")}, {"entry.law", std::string("exponential")}}),
      "needs entry.law and entry.mean"));
  CHECK(names(refusal({{"loop.pause", 1.0e-6},
                       {"loop.pause.law", std::string("exponential")},
                       {"loop.pause.mean", 1.0e-6}}),
              "loop.pause and loop.pause.law"));
  CHECK(names(refusal({{"loop.pause.mean", 1.0e-6}}), "loop.pause.mean applies with"));
  // Consistent, but not simulated in this build: refused naming the key.
  CHECK(names(refusal({{"loop.iterations", std::int64_t{1000}},
                       {"entry.mode", std::string("law")},
                       {"entry.law", std::string("exponential")},
                       {"entry.mean", 1.0e-6}}),
              "entry.mode = \"law\" with a benchmark loop"));
  // A loop's keys are read.
  ParamReader reader({{"loop.iterations", std::int64_t{1000}},
                      {"loop.warmups", std::int64_t{10}},
                      {"loop.pause", 5.0e-5},
                      {"loop.barrier", true}});
  const EntrySpec e = read_entry(reader);
  CHECK(e.loop());
  CHECK(e.barrier_each_iteration());
  CHECK(e.loop_text() == "1000 iterations after 10 warm-ups, pause 5e-05 s, a barrier before each");
}

TEST_CASE("entry keys in a run: the summary names the entry and timing, samples unchanged") {
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  // A dissemination barrier at N = 3 (2 rounds), L = 1 us, o = 0.1 us, g = G = 0, 1-byte
  // messages: each round is a send (o), the wire (L) and a receive (o), so the noiseless
  // completion is 2 (2o + L) = 2.4 us; every rank finishes then.
  const auto run_with = [&](const std::string& timing) {
    write_text("entry.toml", fmt::format(R"(name = "e"
seed = 3
samples = 4
[collective]
kind = "schedule"
algorithm = "dissemination_barrier"
N = 3
message_bytes = 1
[loggops]
L = 1.0e-6
o = 1.0e-7
g = 0.0
G = 0.0
[noise]
law = "periodic"
P = 1.0e-6
D = 1.0e-7
{})",
                                         timing));
    std::filesystem::remove("entry.h5");
    REQUIRE(run_command_line("run entry.toml --out entry.h5 --quiet").code == 0);
    return run_command_line("summary entry.h5 --json").output;
  };
  const std::string completion = run_with("");
  const std::string per_rank = run_with("[timing]\nmeasure = \"per_rank\"\n");
  CHECK(names(completion, "\"rank_entry\": \"together\""));
  CHECK(names(completion, "\"sample_timing\": \"completion\""));
  CHECK(names(completion, "\"benchmark_loop\": \"none\""));
  CHECK(names(completion, "\"loop_recorded_iterations\": 1"));
  CHECK(names(completion, "\"loop_warmup_iterations\": 0"));
  CHECK(names(per_rank, "\"sample_timing\": \"per_rank\""));
  const auto number = [](const std::string& json, const std::string& key) {
    const auto at = json.find("\"" + key + "\": ");
    REQUIRE(at != std::string::npos);
    return std::stod(json.substr(at + key.size() + 4));
  };
  CHECK(number(completion, "noiseless_completion") == Approx(2.4e-6).epsilon(1e-12));
  // Together, each rank's own time is its finish: the same samples, the same streams
  // (timing.measure is not part of the identity).
  CHECK(number(per_rank, "completion_mean") == number(completion, "completion_mean"));
  CHECK(number(completion, "completion_mean") > 2.4e-6);
  // Refused in a run file, naming the key.
  write_text("entry-bad.toml", R"(name = "e"
seed = 1
samples = 2
[collective]
kind = "schedule"
algorithm = "dissemination_barrier"
N = 3
[loop]
iterations = 1000
[entry]
mode = "law"
law = "exponential"
mean = 1.0e-6
)");
  const auto bad = run_command_line("run entry-bad.toml --validate-only");
  CHECK(bad.code == 2);
  CHECK(names(bad.output, "with a benchmark loop"));
}

TEST_CASE("entry law: each rank's offset drawn per sample, its time from its own start, by hand") {
  // Two ranks, rank 0 sends 8 bytes to rank 1 (L = 1000, o = 100, G = 1 ns), no noise. From
  // starts s0, s1 (ns): rank 0 ends at s0 + o; the message arrives at s0 + o + L and rank 1
  // takes it when both it and rank 1 are there: max(s0 + 1100, s1) + 107.
  const ScheduleSource source = collnoise::test::hand_pair_source();
  const auto study_timed = [&](const std::string& measure) {
    // Uniform(0, 2) of unit mean, mean 2 us: offsets 4000 (1 - u) ns.
    ParamReader reader({{"entry.mode", std::string("law")},
                        {"entry.law", std::string("uniform")},
                        {"entry.mean", 2.0e-6},
                        {"timing.measure", measure}});
    auto study =
        std::make_unique<ScheduleStudy>(source, collnoise::test::hand_net(), ScheduleNoiseSpec{});
    EntrySpec entry = read_entry(reader);
    CHECK(entry.entry_text == "law (uniform, mean 2e-06 s)");
    study->set_entry(std::move(entry));
    study->set_stream_key(42);
    return study;
  };
  const auto per_rank = study_timed("per_rank");
  const auto completion = study_timed("completion");
  CHECK(per_rank->noiseless_completion() * 1e9 == Approx(1207.0).epsilon(1e-12));
  bool later_sender = false, later_receiver = false;
  for (std::uint64_t i = 0; i < 20; ++i) {
    const std::vector<double> starts = per_rank->entry_starts(i);
    REQUIRE(starts.size() == 2);
    for (std::uint64_t r = 0; r < 2; ++r) {
      // The stream of (replication i, rank r) of its own purpose.
      const double u = make_stream(hash_combine(stream_key(42, StreamPurpose::kEntryOffset, i), r))
                           .next_uniform();
      CHECK(starts[r] == Approx(4000.0 * (1.0 - u)).epsilon(1e-14));
    }
    CHECK(completion->entry_starts(i) == starts);  // timing.measure draws nothing
    const double s0 = starts[0], s1 = starts[1];
    const double f0 = s0 + 100.0, f1 = std::max(s0 + 1100.0, s1) + 107.0;
    (s1 > s0 + 1100.0 ? later_receiver : later_sender) = true;
    INFO("sample " << i << ": starts " << s0 << ", " << s1);
    CHECK(per_rank->replicate(i) * 1e9 == Approx(std::max(f0 - s0, f1 - s1)).epsilon(1e-12));
    CHECK(completion->replicate(i) * 1e9 ==
          Approx(std::max(f0, f1) - std::min(s0, s1)).epsilon(1e-12));
    const std::vector<double> own = per_rank->rank_finishes(i);
    CHECK(own[0] * 1e9 == Approx(100.0).epsilon(1e-12));
    CHECK(own[1] * 1e9 == Approx(f1 - s1).epsilon(1e-12));
    const std::vector<double> common = completion->rank_finishes(i);
    CHECK(common[1] * 1e9 == Approx(f1 - std::min(s0, s1)).epsilon(1e-12));
  }
  // The samples met both cases of the max (the message waiting, the receiver waiting).
  CHECK(later_sender);
  CHECK(later_receiver);
}

TEST_CASE("entry barrier: each rank starts the collective as it leaves the barrier, by hand") {
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  // L = 1000, o = 100, g = 50 ns, 1-byte messages. The barrier: ranks 1 and 2 send to rank 0
  // (CPU to 100, arrival 1100), which receives one at 1100-1200 (its NIC free at 1150), the other
  // at 1200-1300, then sends to 1 (1300-1400, arrival 2400) and to 2 (1400-1500, arrival 2500):
  // rank 0 leaves at 1500, rank 1 at 2400 + o = 2500, rank 2 at 2600.
  write_text("bar.goal", collnoise::test::kHandBarrierGoal);
  // The collective: rank 0 sends 8 bytes to rank 2. From the exits, rank 0 sends at 1500 (ends
  // 1600), the message arrives at 2600, when rank 2 leaves the barrier: it takes o + 7 G, 2707.
  // Rank 1, with nothing to do, ends at its start, 2500. Per rank: 100, 0, 107 ns: the sample is
  // 107 ns. Completion: the last finish less the first start, 2707 - 1500 = 1207 ns.
  write_text("coll.goal",
             "num_ranks 3\nrank 0 {\nl0: send 8b to 2 tag 0\n}\nrank 1 {\n}\nrank 2 {\nl0: recv "
             "8b from 0 tag 0\n}\n");
  const auto summary_of = [&](const std::string& measure) {
    write_text("bar.toml", fmt::format(R"(name = "b"
seed = 5
samples = 3
[collective]
kind = "schedule"
goal = "coll.goal"
finish_sample = 1
[loggops]
L = 1.0e-6
o = 1.0e-7
g = 5.0e-8
G = 1.0e-9
[entry]
mode = "barrier"
barrier_goal = "bar.goal"
[timing]
measure = "{}"
)",
                                       measure));
    std::filesystem::remove("bar.h5");
    const auto ran = run_command_line("run bar.toml --out bar.h5 --quiet");
    INFO(ran.output);
    REQUIRE(ran.code == 0);
    return run_command_line("summary bar.h5 --json").output;
  };
  const auto number = [](const std::string& json, const std::string& key) {
    const auto at = json.find("\"" + key + "\": ");
    REQUIRE(at != std::string::npos);
    return std::stod(json.substr(at + key.size() + 4));
  };
  const std::string per_rank = summary_of("per_rank");
  const std::string completion = summary_of("completion");
  INFO(per_rank);
  CHECK(names(per_rank, "\"rank_entry\": \"barrier (GOAL file "));
  CHECK(number(per_rank, "completion_mean") == Approx(107.0e-9).epsilon(1e-9));
  CHECK(number(completion, "completion_mean") == Approx(1207.0e-9).epsilon(1e-9));
  // Together, without the barrier, the collective alone takes 1207 ns too (rank 2 at 0).
  CHECK(number(per_rank, "noiseless_completion") == Approx(1207.0e-9).epsilon(1e-9));
  // Each rank's own time in sample 1, from its own exit.
  const auto at = per_rank.find("\"sample_finish\": [");
  REQUIRE(at != std::string::npos);
  std::string list = per_rank.substr(at + 18);
  list = list.substr(0, list.find(']'));
  std::vector<double> own;
  for (std::size_t from = 0; from < list.size();) {
    const std::size_t comma = list.find(',', from);
    own.push_back(std::stod(list.substr(from, comma - from)));
    from = comma == std::string::npos ? list.size() : comma + 1;
  }
  REQUIRE(own.size() == 3);
  CHECK(own[0] == Approx(100.0e-9).epsilon(1e-9));
  CHECK(own[1] == Approx(0.0).margin(1e-15));
  CHECK(own[2] == Approx(107.0e-9).epsilon(1e-9));
  // The default barrier, the dissemination barrier, is symmetric: at N = 3 without noise every
  // rank leaves it at 2 (2o + L) = 2.4 us (L = 1 us, o = 0.1 us, g = G = 0) and the collective
  // after it, the same barrier, takes 2.4 us from there, timed either way.
  for (const std::string measure : {"per_rank", "completion"}) {
    write_text("dis.toml", fmt::format(R"(name = "d"
seed = 5
samples = 2
[collective]
kind = "schedule"
algorithm = "dissemination_barrier"
N = 3
message_bytes = 1
[loggops]
L = 1.0e-6
o = 1.0e-7
g = 0.0
G = 0.0
[entry]
mode = "barrier"
[timing]
measure = "{}"
)",
                                       measure));
    std::filesystem::remove("dis.h5");
    REQUIRE(run_command_line("run dis.toml --out dis.h5 --quiet").code == 0);
    const std::string dis = run_command_line("summary dis.h5 --json").output;
    CHECK(names(dis, "\"rank_entry\": \"barrier (dissemination_barrier)\""));
    CHECK(number(dis, "completion_mean") == Approx(2.4e-6).epsilon(1e-9));
  }
  // A barrier of other ranks is refused in one line.
  write_text("bar2.goal", "num_ranks 2\nrank 0 {\n}\nrank 1 {\n}\n");
  write_text("bar-bad.toml", R"(name = "b"
seed = 1
samples = 2
[collective]
kind = "schedule"
goal = "coll.goal"
[entry]
mode = "barrier"
barrier_goal = "bar2.goal"
)");
  const auto bad = run_command_line("run bar-bad.toml --validate-only");
  CHECK(bad.code == 2);
  CHECK(names(bad.output, "has 2 ranks, the collective 3"));
  write_text("bar-net.toml", R"(name = "b"
seed = 1
samples = 2
[collective]
kind = "schedule"
goal = "coll.goal"
[entry]
mode = "barrier"
[latency]
law = "exponential"
mean = 1.0e-7
)");
  // Network noise on the barrier: its messages draw their own delays (the barrier part of the
  // replication's key), not those of the collective's sends of the same index.
  const auto net = run_command_line("run bar-net.toml --validate-only");
  INFO(net.output);
  CHECK(net.code == 0);
}
