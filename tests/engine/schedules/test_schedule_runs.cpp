// Schedule points run from run files (docs/models/schedules.md): any thread count gives the same
// bits, GOAL files next to the run file, network noise and measured LogGP parameters, a sample's
// finishing times on request, per-rank measurements and the estimate of matching.
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
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/same_operations.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;
using collnoise::test::hand_net;

TEST_CASE("schedule runs: any thread count, same bits, and GOAL files next to the run file") {
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  std::filesystem::create_directories("sched-dir");
  REQUIRE(run_command_line(
              "schedule bruck_allgather --ranks 12 --bytes 64 --goal sched-dir/b.goal --force")
              .code == 0);
  write_text("sched-dir/s.toml", R"(name = "s"
seed = 4
samples = 12
[collective]
kind = "schedule"
goal = "b.goal"
[[case]]
"noise.law" = "periodic"
"noise.P" = 1.0e-4
"noise.D" = 5.0e-6
"noise.semantics" = "preempt"
[[case]]
"noise.law" = "periodic"
"noise.P" = 1.0e-4
"noise.D" = 5.0e-6
"noise.semantics" = "loggopsim"
[[case]]
"noise.law" = "pareto"
"noise.a" = 2.5
"noise.f" = 0.1
)");
  std::filesystem::remove("s1.h5");
  std::filesystem::remove("s3.h5");
  const auto one = run_command_line("run sched-dir/s.toml --out s1.h5 --threads 1 --quiet");
  INFO(one.output);
  REQUIRE(one.code == 0);
  REQUIRE(run_command_line("run sched-dir/s.toml --out s3.h5 --threads 3 --quiet").code == 0);
  // Every replication's progress in flight was taken back once its chunk was counted.
  CHECK(work_in_flight().units() == 0.0);
  const auto a = run_command_line("summary s1.h5 --json").output;
  CHECK(a == run_command_line("summary s3.h5 --json").output);
  CHECK(a.find("\"completion_mean\"") != std::string::npos);
  CHECK(a.find("\"noiseless_finish\"") != std::string::npos);
  CHECK(a.find("tail index 2.5 <= 4") != std::string::npos);
  // Refusals name the culprit.
  write_text("sched-bad.toml", R"(name = "b"
seed = 4
samples = 3
[collective]
kind = "schedule"
algorithm = "ring"
N = 8
)");
  const auto bad = run_command_line("run sched-bad.toml --validate-only");
  CHECK(bad.code == 2);
  CHECK(bad.output.find("collective.algorithm") != std::string::npos);
}

TEST_CASE("network noise and measured LogGP parameters from run files") {
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  std::filesystem::create_directories("net-dir");
  write_text(
      "net-dir/two.goal",
      "num_ranks 2\nrank 0 {\nl1: send 1b to 1 tag 0\n}\nrank 1 {\nl1: recv 1b from 0 tag 0\n}\n");
  // A Netgauge LogGP file (us): at 1 byte L = 3, o_s = 0.4, o_r = 0.6 (o = 0.5), g = 1, G = 0.
  write_text("net-dir/ng_loggp.out",
             "# size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s) L o_s o_r g G lsqu(g,G)\n"
             "1 16 6 30 120 3 0.4 0.6 -nan -nan 0\n"
             "1025 16 6 40 130 3 0.9 1.1 1 0 0\n");
  // Latencies (rtt, us): 10 and 14, one way 5 and 7: the excess is 0 or 2 us.
  write_text("net-dir/lat.out", "#size\trtt\n1\t10\n1\t14\n#size\trtt\n1\t10\n");
  write_text("net-dir/n.toml", R"(name = "n"
seed = 5
samples = 40
[collective]
kind = "schedule"
goal = "two.goal"
[loggops]
file = "ng_loggp.out"
[latency]
file = "lat.out"
)");
  std::filesystem::remove("n.h5");
  const auto run = run_command_line("run net-dir/n.toml --out n.h5 --quiet");
  INFO(run.output);
  REQUIRE(run.code == 0);
  const auto json = run_command_line("summary n.h5 --json").output;
  INFO(json);
  // Noiseless: o + (L - 2 o) + o = L = 3 us (Netgauge's L is the whole small-message one-way
  // time), g = 1 us from the nearest usable gap row.
  const auto number_after = [&](const std::string& key) {
    const auto at = json.find("\"" + key + "\": ");
    REQUIRE(at != std::string::npos);
    return std::stod(json.substr(at + key.size() + 4));
  };
  CHECK(number_after("noiseless_completion") == Approx(3e-6).epsilon(1e-12));
  // Each sample is 3 or 5 us: the mean lies strictly between.
  const double mean = number_after("completion_mean");
  CHECK(mean > 3e-6);
  CHECK(mean < 5e-6);
  // Both L and the file: refused, naming the key.
  write_text("net-dir/bad.toml", R"(name = "b"
seed = 1
samples = 2
[collective]
kind = "schedule"
goal = "two.goal"
[loggops]
file = "ng_loggp.out"
L = 1e-6
)");
  const auto bad = run_command_line("run net-dir/bad.toml --validate-only");
  INFO(bad.output);
  CHECK(bad.code == 2);
  CHECK(bad.output.find("loggops.L") != std::string::npos);
}

TEST_CASE("measured pools from run files: several files, LogGP per block, records, refusals") {
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  std::filesystem::create_directories("pools-dir");
  write_text("pools-dir/ping.goal",
             "num_ranks 2\nrank 0 {\nl1: send 4097b to 1 tag 0\n}\n"
             "rank 1 {\nl1: recv 4097b from 0 tag 0\n}\n");
  // One-way 1-byte samples (the first of each block of 2 a slow warm-up), and 4096-byte
  // samples of 1 and 2 ns per byte.
  write_text("pools-dir/lat.out", "#size\trtt\n1\t50\n1\t2\n#size\trtt\n1\t60\n1\t2\n");
  write_text("pools-dir/bw.out", "#size\trtt\n4096\t4.096\n4096\t8.192\n");
  const std::string head = R"(name = "p"
seed = 3
samples = 30
[collective]
kind = "schedule"
goal = "ping.goal"
[loggops]
L = "1us"
o = "100ns"
G = "1ns/B"
[latency]
column = "one_way"
use = "whole"
)";
  write_text("pools-dir/p.toml", head + R"(file = ["lat.out", "bw.out"]
draw = "loggp"
G_draw = "block"
G_block = 1024
warmup = 1
block = 2
)");
  const auto run = run_command_line("run pools-dir/p.toml --out pools.h5 --force --quiet");
  INFO(run.output);
  REQUIRE(run.code == 0);
  const auto json = run_command_line("summary pools.h5 --json").output;
  INFO(json);
  const auto number_after = [&](const std::string& key) {
    const auto at = json.find("\"" + key + "\": ");
    REQUIRE(at != std::string::npos);
    return std::stod(json.substr(at + key.size() + 4));
  };
  // Noiseless: o + L + o + 4096 G = 5296 ns. Each sample: L = 2 us (the warm-ups dropped) less
  // 2o on the wire, then 4 blocks of 1024 bytes at 1 or 2 ns: 6096 to 10192 ns.
  CHECK(number_after("noiseless_completion") == Approx(5.296e-6).epsilon(1e-12));
  CHECK(number_after("completion_mean") >= 6.096e-6 - 1e-15);
  CHECK(number_after("completion_mean") <= 10.192e-6 + 1e-15);
  CHECK(number_after("latency_floored_share") == 0.0);
  // Per pool: the file, its kind, its checksum, its size, samples read and kept; the transform.
  CHECK(json.find("lat.out (latency file, xxh3:") != std::string::npos);
  CHECK(json.find("1 bytes, 4 samples read, 2 kept") != std::string::npos);
  CHECK(json.find("bw.out (bandwidth file, xxh3:") != std::string::npos);
  CHECK(json.find("transform: warm-up 1 of each 2") != std::string::npos);
  CHECK(json.find("latency_pool_bytes") != std::string::npos);
  // A damaged file among them: refused, naming the file and line.
  write_text("pools-dir/bad.out", "#size\trtt\n1\t2\n1 bytes -> 1.90 us\n");
  write_text("pools-dir/bad.toml", head + "file = [\"lat.out\", \"bad.out\"]\n");
  const auto bad = run_command_line("run pools-dir/bad.toml --validate-only");
  INFO(bad.output);
  CHECK(bad.code == 2);
  CHECK(bad.output.find("bad.out:3") != std::string::npos);
  // LogGP without a bandwidth file: refused, naming the key.
  write_text("pools-dir/nobw.toml", head + "file = [\"lat.out\"]\ndraw = \"loggp\"\n");
  const auto nobw = run_command_line("run pools-dir/nobw.toml --validate-only");
  INFO(nobw.output);
  CHECK(nobw.code == 2);
  CHECK(nobw.output.find("latency.draw") != std::string::npos);
}

TEST_CASE("a sample's finishing times on request: their maxima are the samples' completions") {
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  const auto run_with = [&](int index) {
    write_text("finish.toml", fmt::format(R"(name = "f"
seed = 9
samples = 2
[collective]
kind = "schedule"
algorithm = "dissemination_barrier"
N = 12
finish_sample = {}
[noise]
law = "periodic"
P = 1.0e-5
D = 1.0e-6
)",
                                          index));
    std::filesystem::remove("finish.h5");
    const auto done = run_command_line("run finish.toml --out finish.h5 --quiet");
    REQUIRE(done.code == 0);
    return run_command_line("summary finish.h5 --json").output;
  };
  const auto numbers_of = [](const std::string& json, const std::string& key) {
    const auto at = json.find("\"" + key + "\": ");
    REQUIRE(at != std::string::npos);
    std::vector<double> out;
    std::size_t i = json.find_first_of("[0123456789", at + key.size() + 3);
    const bool list = json[i] == '[';
    const std::size_t end = list ? json.find(']', i) : json.find_first_of(",\n}", i);
    std::stringstream text(json.substr(list ? i + 1 : i, end - (list ? i + 1 : i)));
    for (std::string item; std::getline(text, item, ',');) out.push_back(std::stod(item));
    return out;
  };
  const std::string first = run_with(0), second = run_with(1);
  const auto f0 = numbers_of(first, "sample_finish");
  const auto f1 = numbers_of(second, "sample_finish");
  REQUIRE(f0.size() == 12);
  REQUIRE(f1.size() == 12);
  const double mean = numbers_of(first, "completion_mean").at(0);
  CHECK(*std::max_element(f0.begin(), f0.end()) + *std::max_element(f1.begin(), f1.end()) ==
        Approx(2.0 * mean).epsilon(1e-14));
  CHECK(numbers_of(second, "completion_mean").at(0) == mean);  // not part of the identity
  // Beyond the samples: refused.
  write_text("finish-bad.toml", R"(name = "f"
seed = 9
samples = 2
[collective]
kind = "schedule"
algorithm = "dissemination_barrier"
N = 12
finish_sample = 2
)");
  const auto bad = run_command_line("run finish-bad.toml --validate-only");
  CHECK(bad.code == 2);
  CHECK(bad.output.find("collective.finish_sample") != std::string::npos);
}

TEST_CASE("noise.measurements = per_rank from a run file, and its conflicts") {
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  write_text("two-measurements.txt", "# one\n0\t100\n5000\t100\n# two\n0\t2000\n9000\t50\n");
  const std::string head = R"(name = "m"
seed = 3
samples = 4
[collective]
kind = "schedule"
algorithm = "dissemination_barrier"
N = 6
[noise]
law = "trace"
file = "two-measurements.txt"
measurements = "per_rank"
)";
  write_text("per-rank.toml", head);
  std::filesystem::remove("per-rank.h5");
  const auto ok = run_command_line("run per-rank.toml --out per-rank.h5 --quiet");
  INFO(ok.output);
  CHECK(ok.code == 0);
  write_text("per-rank-bad.toml", head + "measurement = 1\n");
  const auto bad = run_command_line("run per-rank-bad.toml --validate-only");
  CHECK(bad.code == 2);
  CHECK(bad.output.find("noise.measurement") != std::string::npos);
}

TEST_CASE("the estimate counts a linear gather's searches of its posted receives") {
  // Under noise the messages reach the root of a linear gather in any order, and each searches
  // half the receives still posted: (N - 1)^2 / 4 entries, 1.7e10 at 2^18 ranks, about 17 s a
  // sample at 1 ns each (15 s measured), where a binomial reduce of as many operations costs a
  // tenth of a second. Beyond 2^46 entries (2^25 ranks) a point is refused.
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  const auto estimate = [](const std::string& algorithm, int log2_n) {
    write_text("linear-estimate.toml", fmt::format(R"(name = "e"
seed = 1
samples = 2
[collective]
kind = "schedule"
algorithm = "{}"
log2_N = {}
[noise]
law = "periodic"
P = 1.0e-3
D = 2.5e-5
)",
                                                   algorithm, log2_n));
    return run_command_line("run linear-estimate.toml --validate-only --threads 1");
  };
  const auto gather = estimate("linear_gather", 18);
  REQUIRE(gather.code == 0);
  // Two noisy samples: 2 x 1.7e10 x 1 ns, 34 s.
  CHECK_THAT(gather.output, Contains("estimated work 34"));
  CHECK_THAT(gather.output, Contains("core-seconds"));
  const auto reduce = estimate("binomial_reduce", 18);
  REQUIRE(reduce.code == 0);
  CHECK_THAT(reduce.output, Contains("estimated work 0."));
  const auto refused = estimate("linear_gather", 25);
  CHECK(refused.code != 0);
  CHECK_THAT(refused.output, Contains("linear_gather on 33554432 ranks"));
  CHECK_THAT(refused.output, Contains("entries per sample"));
}
