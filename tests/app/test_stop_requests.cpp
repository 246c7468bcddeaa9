// A stop request (SIGTERM, SIGINT) ends every phase of `collnoise run` within seconds with
// exit 3, saying what was kept: sampling with and without checkpoints, chunked phases, analyses and
// sweeps.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

namespace fs = std::filesystem;

namespace {

using namespace collnoise::testing;

const std::string kSmall = small_tree_sweep_run("hard", "law = \"pareto\"\na = 2.5\nf = 0.01\n");

// A run of a few seconds, for locks and signals.
const std::string kLong = long_tree_run("hard-long");

}  // namespace

TEST_CASE("a stop request ends every phase within seconds, exit 3") {
  // Sampling, with a checkpoint.
  write_text("h8.toml", kLong);
  fs::remove("h8.h5");
  fs::remove("h8.h5.ckpt");
  const auto sampling = stop_after("run h8.toml --out h8.h5 --quiet", 1.0);
  INFO(sampling.result.output);
  CHECK(sampling.result.output.find("exit=3") != std::string::npos);
  CHECK(sampling.result.output.find("resume with") != std::string::npos);
  CHECK(sampling.seconds_after_signal < 5.0);
  // Without checkpoints: exit 3, saying nothing was kept.
  const auto nothing = stop_after("run h8.toml --out h8.h5 --quiet --no-checkpoint", 1.0, "INT");
  INFO(nothing.result.output);
  CHECK(nothing.result.output.find("exit=3") != std::string::npos);
  CHECK(nothing.result.output.find("nothing was kept") != std::string::npos);
  // A long single chunk (one sample of 2^30 ranks takes about a second): abandoned.
  write_text("h8-chunk.toml", replace_text(replace_text(kLong, "log2_N = 20", "log2_N = 31"),
                                           "chunk_size = 16", "chunk_size = 64"));
  const auto chunk = stop_after("run h8-chunk.toml --out h8c.h5 --quiet --threads 1", 1.0);
  INFO(chunk.result.output);
  CHECK(chunk.result.output.find("exit=3") != std::string::npos);
  CHECK(chunk.seconds_after_signal < 5.0);
  // An analysis (N_1/2 with a long simulated check).
  write_text("h8-nhalf.toml", R"(name = "h8n"
kind = "nhalf"
seed = 4
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
sampling = "per_level"
[nhalf]
check_samples = 100000000
[noise]
law = "exponential"
f = 0.1
)");
  const auto analysis = stop_after("run h8-nhalf.toml --out h8n.h5 --quiet", 1.0);
  INFO(analysis.result.output);
  CHECK(analysis.result.output.find("exit=3") != std::string::npos);
  CHECK(analysis.result.output.find("nothing was kept") != std::string::npos);
  CHECK(analysis.seconds_after_signal < 5.0);
  // An isoefficiency curve of granularity imbalance (many samples of many jobs).
  write_text("h8-iso.toml", R"(name = "h8i"
kind = "isoefficiency"
seed = 3
samples = 100000
[isoefficiency]
efficiency = 0.8
imbalance = "granularity"
job_mean = 1.0
log2_m = [4, 8, 12, 16]
)");
  const auto iso = stop_after("run h8-iso.toml --out h8i.h5 --quiet", 1.0);
  INFO(iso.result.output);
  CHECK(iso.result.output.find("exit=3") != std::string::npos);
  CHECK(iso.seconds_after_signal < 5.0);
  // Preparing a sweep of many points.
  std::string sweep = replace_text(kSmall, "N = [7, 300]", "N = [");
  for (int n = 1; n <= 200000; ++n) sweep += std::to_string(n) + (n < 200000 ? ", " : "]\n");
  write_text("h8-sweep.toml", sweep);
  const auto prepare =
      stop_after("run h8-sweep.toml --out h8s.h5 --quiet --max-core-hours 1e6", 1.0);
  INFO(prepare.result.output);
  CHECK(prepare.result.output.find("exit=3") != std::string::npos);
  CHECK(prepare.seconds_after_signal < 5.0);
}
