// Beyond one process and one sitting: job-array parts and their merge, checkpoints
// and resume, precision targets, and (when built in) MPI. Every split must give the bits of the
// plain run: compared on the summaries and on the tallies themselves (per-chunk accumulators,
// histogram counts, top values, raw samples).
#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <string>

#include "estimators/tally_codec.hpp"
#include "outputs/result_file.hpp"
#include "runs/point_factory.hpp"
#include "runs/run_file.hpp"
#include "runs/sampling_driver.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/points_table_reader.hpp"
#include "tests/fixtures/result_tallies.hpp"

namespace fs = std::filesystem;
using namespace collnoise;
using collnoise::testing::CommandResult;
using collnoise::testing::replace_text;
using collnoise::testing::tally_bytes;
using collnoise::testing::write_text;

namespace {

CommandResult cli(const std::string& args, const std::string& prefix = "") {
  return collnoise::testing::run_command_line(args, prefix);
}

// Two models with every kind of tally content: a tree barrier (histogram, top values, raw
// samples) and a butterfly (co-moment pairs, per-rank finishing-time histograms).
const char* kTree = R"(name = "split-tree"
seed = 11
samples = 12000
chunk_size = 1000
output.raw_samples = true
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
[noise]
law = "pareto"
a = 2.5
f = 0.01
[sweep]
N = [7, 5000]
)";

const char* kButterfly = R"(name = "split-butterfly"
seed = 5
replications = 24
chunk_size = 4
[collective]
kind = "butterfly"
N = 64
cycles = 3
W = 1.0e-4
[noise]
law = "periodic"
P = 1.0e-3
D = 5.0e-5
)";

// A schedule on a shared network whose samples each draw their placement and background: the
// flow model, its draws and its rates the same whatever process a sample falls on.
const char* kContention = R"toml(name = "split-contention"
seed = 9
samples = 12
chunk_size = 3
[collective]
kind = "schedule"
algorithm = "recursive_doubling_allreduce"
N = 16
message_bytes = 65536
[loggops]
L = 1.0e-6
o = 1.0e-7
g = 5.0e-8
G = 1.0e-10
[network]
topology = "xgft(2; 4,8; 1,4)"
contention = "flows"
placement = "random"
rho = 0.25
[noise]
law = "periodic"
P = 1.0e-4
D = 5.0e-6
)toml";

std::string summary_json(const std::string& result) {
  const auto r = cli("summary " + result + " --json");
  REQUIRE(r.code == 0);
  return r.output;
}

// `result` holds exactly the bits of `reference`, both written from `runfile`.
void expect_same_result(const std::string& runfile, const std::string& reference,
                        const std::string& result) {
  CHECK(summary_json(result) == summary_json(reference));
  CHECK(tally_bytes(runfile, result) == tally_bytes(runfile, reference));
  CHECK(testing::PointsTableReader(result).bytes() ==
        testing::PointsTableReader(reference).bytes());
}

void expect_refused(const CommandResult& r, const std::string& culprit) {
  INFO(r.output);
  CHECK(r.code == 2);
  CHECK(r.output.find(culprit) != std::string::npos);
}

double number_in(const std::string& json, const std::string& key, std::size_t nth = 0) {
  std::size_t at = 0;
  for (std::size_t k = 0; k <= nth; ++k) {
    at = json.find("\"" + key + "\": ", at);
    REQUIRE(at != std::string::npos);
    at += key.size() + 4;
  }
  return std::stod(json.substr(at));
}

}  // namespace

TEST_CASE("job-array parts merge to the bits of the unsplit run") {
  for (const char* text : {kTree, kButterfly}) {
    const std::string runfile = write_text("split.toml", text);
    REQUIRE(cli("run split.toml --out whole.h5 --force --quiet --threads 2").code == 0);
    // Three parts with different thread counts, merged in any order.
    for (int i = 1; i <= 3; ++i)
      REQUIRE(cli(fmt::format("run split.toml --part {}/3 --out part{}.h5 --force --quiet "
                              "--threads {}",
                              i, i, i))
                  .code == 0);
    const auto merged = cli("merge part3.h5 part1.h5 part2.h5 --out merged.h5 --force --quiet");
    INFO(merged.output);
    REQUIRE(merged.code == 0);
    expect_same_result(runfile, "whole.h5", "merged.h5");
  }
}

TEST_CASE("merges that cannot be one run are refused, and --part is checked") {
  write_text("split.toml", kTree);
  for (int i = 1; i <= 2; ++i)
    REQUIRE(
        cli(fmt::format("run split.toml --part {}/2 --out half{}.h5 --force --quiet", i, i)).code ==
        0);
  expect_refused(cli("merge half1.h5 half1.h5 --out m.h5 --force"), "overlap");
  expect_refused(cli("merge half1.h5 --out m.h5 --force"), "part 2/2 is missing");
  REQUIRE(cli("run split.toml --part 2/2 --seed 12 --out seed12.h5 --force --quiet").code == 0);
  expect_refused(cli("merge half1.h5 seed12.h5 --out m.h5 --force"), "different seeds");
  write_text("other.toml", replace_text(kTree, "a = 2.5", "a = 3.0"));
  REQUIRE(cli("run other.toml --part 2/2 --out other2.h5 --force --quiet").code == 0);
  expect_refused(cli("merge half1.h5 other2.h5 --out m.h5 --force"), "different run files");
  CHECK_FALSE(fs::exists("m.h5"));
  expect_refused(cli("run split.toml --part 0/2 --out x.h5"), "--part '0/2'");
  expect_refused(cli("run split.toml --part 3/2 --out x.h5"), "1 <= i <= n");
}

TEST_CASE("an interrupted run resumes to the bits of an uninterrupted one") {
  for (const char* text : {kTree, kButterfly}) {
    const std::string runfile = write_text("long.toml", text);
    REQUIRE(cli("run long.toml --out plain.h5 --force --quiet").code == 0);
    fs::remove("stopped.h5");
    // Stopped twice (a signal after 2 chunks of each sitting), then finished; periodic
    // checkpoints on every round in the second sitting.
    const auto first = cli("run long.toml --out stopped.h5 --quiet --interrupt-after-chunks 2");
    INFO(first.output);
    REQUIRE(first.code == 3);
    CHECK(first.output.find("--resume stopped.h5.ckpt") != std::string::npos);
    CHECK_FALSE(fs::exists("stopped.h5"));
    REQUIRE(fs::exists("stopped.h5.ckpt"));
    const auto second =
        cli("run long.toml --out stopped.h5 --quiet --resume stopped.h5.ckpt "
            "--checkpoint-every 0 --interrupt-after-chunks 2");
    REQUIRE(second.code == 3);
    const auto third = cli("run long.toml --out stopped.h5 --quiet --resume stopped.h5.ckpt");
    INFO(third.output);
    REQUIRE(third.code == 0);
    CHECK_FALSE(fs::exists("stopped.h5.ckpt"));  // done with: removed
    expect_same_result(runfile, "plain.h5", "stopped.h5");
  }
}

TEST_CASE("corrupt or foreign checkpoints are refused, and nothing is lost") {
  write_text("long.toml", kTree);
  fs::remove("c.h5");
  REQUIRE(cli("run long.toml --out c.h5 --quiet --interrupt-after-chunks 3").code == 3);
  const auto size = fs::file_size("c.h5.ckpt");
  write_text("garbage.ckpt", "not a checkpoint\n");
  // (Another checkpoint path: c.h5.ckpt holds this run's own, which resuming another would
  // replace, and that alone is refused.)
  expect_refused(cli("run long.toml --out c.h5 --resume garbage.ckpt --checkpoint g.ckpt"),
                 "'garbage.ckpt' is neither");
  expect_refused(cli("run long.toml --out c.h5 --resume missing.ckpt"), "does not exist");
  expect_refused(cli("run long.toml --out c.h5 --resume c.h5.ckpt --seed 99"), "seed");
  write_text("other.toml", replace_text(kTree, "a = 2.5", "a = 3.0"));
  expect_refused(cli("run other.toml --out c.h5 --resume c.h5.ckpt"), "another run");
  expect_refused(cli("run long.toml --out c.h5 --resume c.h5.ckpt --part 1/2"), "part");
  // A checkpoint truncated half-way (a crash while copying it, say).
  fs::copy_file("c.h5.ckpt", "truncated.ckpt", fs::copy_options::overwrite_existing);
  fs::resize_file("truncated.ckpt", size / 2);
  expect_refused(cli("run long.toml --out c.h5 --resume truncated.ckpt --checkpoint t.ckpt"),
                 "'truncated.ckpt'");
  // Without another path, resuming another checkpoint over this run's own is refused first.
  expect_refused(cli("run long.toml --out c.h5 --resume truncated.ckpt"),
                 "which resuming 'truncated.ckpt' would replace");
  // The refusals left the real checkpoint as it was: it still resumes.
  CHECK(fs::file_size("c.h5.ckpt") == size);
  REQUIRE(cli("run long.toml --out c.h5 --quiet --resume c.h5.ckpt").code == 0);
}

TEST_CASE("precision targets: met on a law of known variance, refused where the mean has none") {
  // Exponential noise, f = 1%, N = 1000: the interval's relative half-width at n samples is
  // t sd / (sqrt(n) mean), with the exact sd and mean known, so the stopping count is predictable.
  const std::string text = R"(name = "precision"
seed = 3
chunk_size = 500
[precision]
mean_relative_half_width = 3.0e-4
min_samples = 2000
max_samples = 400000
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
N = 1000
[noise]
law = "exponential"
f = 0.01
)";
  write_text("precision.toml", text);
  const auto r = cli("run precision.toml --out precision.h5 --force --quiet --threads 2");
  INFO(r.output);
  REQUIRE(r.code == 0);
  const std::string json = summary_json("precision.h5");
  CHECK(json.find("\"precision_met\": true") != std::string::npos);
  const double n = number_in(json, "precision_samples");
  const double achieved = number_in(json, "precision_mean_achieved");
  CHECK(achieved <= 3.0e-4);
  const double needed =
      std::pow(1.96 * number_in(json, "exact_sd") / (3.0e-4 * number_in(json, "exact_mean")), 2);
  CHECK(n >= 0.8 * needed);               // not stopped early on a lucky interval
  CHECK(n <= 1.05 * 1.3 * needed + 500);  // nor far beyond the need
  CHECK(number_in(json, "ci_low") <= number_in(json, "exact_mean"));
  CHECK(number_in(json, "exact_mean") <= number_in(json, "ci_high"));
  // The same stop on one thread.
  REQUIRE(cli("run precision.toml --out precision1.h5 --force --quiet --threads 1").code == 0);
  CHECK(summary_json("precision1.h5") == json);

  // Pareto(1.5): infinite variance, no mean target; a quantile target instead.
  const std::string pareto =
      replace_text(replace_text(text, "law = \"exponential\"", "law = \"pareto\"\na = 1.5"),
                   "N = 1000", "N = 100");
  write_text("pareto.toml", pareto);
  expect_refused(cli("run pareto.toml --out p.h5 --force"), "quantile");
  write_text("pareto_q.toml", replace_text(pareto, "mean_relative_half_width = 3.0e-4",
                                           "quantile = 0.99\nquantile_relative_half_width = 0.05"));
  REQUIRE(cli("run pareto_q.toml --out pq.h5 --force --quiet").code == 0);
  const std::string q = summary_json("pq.h5");
  CHECK(q.find("\"precision_met\": true") != std::string::npos);
  CHECK(number_in(q, "precision_quantile_achieved") <= 0.05);

  // A target finer than a histogram bin cannot be met: the point says so and stops.
  write_text("coarse.toml", replace_text(replace_text(pareto, "mean_relative_half_width = 3.0e-4",
                                                      "quantile = 0.5\n"
                                                      "quantile_relative_half_width = 1.0e-4"),
                                         "chunk_size = 500",
                                         "chunk_size = 500\n"
                                         "output.histogram_bins = 20"));
  REQUIRE(cli("run coarse.toml --out coarse.h5 --force --quiet").code == 0);
  const std::string c = summary_json("coarse.h5");
  CHECK(c.find("\"precision_met\": false") != std::string::npos);
  CHECK(c.find("histogram_bins") != std::string::npos);
  CHECK(number_in(c, "precision_samples") < 400000);
  // Parts cannot share a precision target.
  expect_refused(cli("run precision.toml --part 1/2 --out x.h5"), "precision");
}

#ifdef COLLNOISE_WITH_MPI
namespace {
// Open MPI refuses root unless told (CI runs as root); leak checks off for Open MPI's own
// allocations when the suite runs under AddressSanitizer.
const std::string kMpirun =
    "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0 "
    "mpirun --oversubscribe";
}  // namespace

TEST_CASE("MPI: any process count gives the bits of one process", "[mpi]") {
  for (const char* text : {kTree, kButterfly, kContention}) {
    const std::string runfile = write_text("mpi.toml", text);
    REQUIRE(cli("run mpi.toml --out one.h5 --force --quiet --threads 2").code == 0);
    for (const char* np : {"2", "3"}) {
      const auto r =
          cli("run mpi.toml --out many.h5 --force --quiet --threads 1", kMpirun + " -np " + np);
      INFO(r.output);
      REQUIRE(r.code == 0);
      expect_same_result(runfile, "one.h5", "many.h5");
    }
    // A part sampled by two processes, merged with one sampled by one.
    REQUIRE(cli("run mpi.toml --part 1/2 --out a.h5 --force --quiet", kMpirun + " -np 2").code ==
            0);
    REQUIRE(cli("run mpi.toml --part 2/2 --out b.h5 --force --quiet").code == 0);
    REQUIRE(cli("merge a.h5 b.h5 --out ab.h5 --force --quiet").code == 0);
    expect_same_result(runfile, "one.h5", "ab.h5");
  }
}

TEST_CASE("MPI: interrupted under mpirun, resumed on one process", "[mpi]") {
  const std::string runfile = write_text("mpi.toml", kTree);
  REQUIRE(cli("run mpi.toml --out one.h5 --force --quiet").code == 0);
  fs::remove("cut.h5");
  const auto cut = cli("run mpi.toml --out cut.h5 --quiet --threads 1 --interrupt-after-chunks 2",
                       kMpirun + " -np 2");
  INFO(cut.output);
  REQUIRE(fs::exists("cut.h5.ckpt"));
  CHECK_FALSE(fs::exists("cut.h5"));
  REQUIRE(cli("run mpi.toml --out cut.h5 --quiet --resume cut.h5.ckpt").code == 0);
  expect_same_result(runfile, "one.h5", "cut.h5");
  // Bad input stops every process with one message and exit code 2.
  const auto bad = cli("run mpi.toml --out one.h5 --quiet", kMpirun + " -np 2");
  CHECK(bad.output.find("exists") != std::string::npos);
  CHECK(bad.code != 0);
}
#endif

TEST_CASE("a run killed from outside (SIGTERM) resumes to the same bits", "[slow]") {
  // About two seconds of sampling in 64-phase chunks; the signal comes once the first periodic
  // checkpoint shows the run is sampling (its handlers are in place by then).
  const std::string text = R"(name = "killed"
seed = 21
samples = 4000
chunk_size = 64
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
log2_N = 20
sampling = "per_rank"
[noise]
law = "exponential"
f = 0.01
)";
  const std::string runfile = write_text("killed.toml", text);
  REQUIRE(cli("run killed.toml --out whole.h5 --force --quiet --threads 1").code == 0);
  fs::remove("killed.h5");
  const auto killed = collnoise::testing::run_shell(
      fmt::format("sh -c '{} run killed.toml --out killed.h5 --quiet --threads 1 "
                  "--checkpoint-every 0 & pid=$!; "
                  "for k in $(seq 400); do [ -e killed.h5.ckpt ] && break; sleep 0.05; done; "
                  "kill -TERM $pid; wait $pid; echo exit=$?'",
                  COLLNOISE_BINARY));
  INFO(killed.output);
  CHECK(killed.output.find("exit=3") != std::string::npos);
  CHECK(killed.output.find("interrupted by signal 15") != std::string::npos);
  REQUIRE(fs::exists("killed.h5.ckpt"));
  REQUIRE(cli("run killed.toml --out killed.h5 --quiet --resume killed.h5.ckpt").code == 0);
  expect_same_result(runfile, "whole.h5", "killed.h5");
}
