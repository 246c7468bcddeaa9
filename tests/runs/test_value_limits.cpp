// Values a run file gives are refused with their accepted range before anything runs: time
// values beyond the engines' ranges (extreme valid ones finish), counts whose memory or work
// would be absurd (never bad_alloc), and integers out of range.
#include <catch2/catch.hpp>
#include <string>

#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

namespace {

using namespace collnoise::testing;

const std::string kSmall = small_tree_sweep_run("hard", "law = \"pareto\"\na = 2.5\nf = 0.01\n");

}  // namespace

TEST_CASE("huge time values are refused with their range, extreme valid ones finish") {
  write_text("h6.toml", kSmall);
  const std::string cycles = R"(name = "h6c"
seed = 1
replications = 3
[collective]
kind = "butterfly"
N = 16
cycles = 2
W = 1.0e-3
[noise]
law = "periodic"
P = 0.01
D = 1.0e-4
)";
  expect_refused(
      run_command_line("run " +
                       write_text("h6a.toml", replace_text(cycles, "P = 0.01", "P = 1e300")) +
                       " --validate-only"),
      {"noise.P", "1e+300", "1e+06"});
  expect_refused(
      run_command_line("run " +
                       write_text("h6b.toml", replace_text(cycles, "W = 1.0e-3", "W = 1e308")) +
                       " --validate-only"),
      {"collective.W", "1e+308"});
  expect_refused(
      run_command_line("run " +
                       write_text("h6c.toml", replace_text(kSmall, "w = 1.0e-3", "w = 1e300")) +
                       " --validate-only"),
      {"collective.w"});
  // At the ends of the ranges the engines finish without overflow (UBSan in CI).
  const std::string edge = replace_text(
      replace_text(replace_text(cycles, "P = 0.01", "P = 1.0e6"), "D = 1.0e-4", "D = 9.0e5"),
      "W = 1.0e-3", "W = 1.0e6");
  const auto r = run_command_line("run " + write_text("h6d.toml", edge) +
                                  " --out h6d.h5 --force --quiet --no-checkpoint");
  INFO(r.output);
  CHECK(r.code == 0);
}

TEST_CASE("absurd counts are refused with the key and the estimate, never bad_alloc") {
  expect_refused(
      run_command_line("run " +
                       write_text("h9a.toml", std::string(kSmall) + "[output]\nhistogram_bins = "
                                                                    "100000000000\n") +
                       " --validate-only"),
      {"output.histogram_bins", "100000000000"});
  const std::string raw = replace_text(std::string(kSmall) + "[output]\nraw_samples = true\n",
                                       "samples = 400", "samples = 20000000000");
  expect_refused(run_command_line("run " + write_text("h9b.toml", raw) +
                                  " --validate-only --max-core-hours 1e9"),
                 {"GiB", "memory", "samples", "--max-memory-gib"});
  // A memory limit of the user's.
  expect_refused(run_command_line("run " + write_text("h9c.toml", kSmall) +
                                  " --validate-only --max-memory-gib 0.00001"),
                 {"memory", "limit"});
  // A sweep of more points than a run may hold.
  std::string sweep = replace_text(kSmall, "N = [7, 300]", "N = [1, 2, 3]\n\"noise.f\" = [");
  for (int k = 1; k <= 400000; ++k) sweep += "0.01, ";
  sweep += "0.01]\n";
  expect_refused(run_command_line("run " + write_text("h9d.toml", sweep) + " --validate-only"),
                 {"points", "at most"});
  // A huge sample count in the run file, and a negative one.
  expect_refused(
      run_command_line(
          "run " + write_text("h9e.toml", replace_text(kSmall, "samples = 400", "samples = -5")) +
          " --validate-only"),
      {"samples", "-5"});
}

TEST_CASE("out-of-range integers are refused with the accepted range") {
  write_text("h12.toml", kSmall);
  expect_refused(run_command_line("run h12.toml --seed -1 --validate-only"),
                 {"--seed -1", "18446744073709551615"});
  expect_refused(run_command_line("run h12.toml --seed 18446744073709551616 --validate-only"),
                 {"18446744073709551616", "[0, 18446744073709551615]"});
  expect_refused(
      run_command_line("run " +
                       write_text("h12b.toml", replace_text(kSmall, "seed = 5", "seed = -1")) +
                       " --validate-only"),
      {"seed", "-1"});
  expect_refused(run_command_line("run " +
                                  write_text("h12c.toml", replace_text(kSmall, "chunk_size = 50",
                                                                       "chunk_size = 0")) +
                                  " --validate-only"),
                 {"chunk_size"});
  expect_refused(
      run_command_line("run " +
                       write_text("h12d.toml", replace_text(kSmall, "N = [7, 300]", "N = [-3]")) +
                       " --validate-only"),
      {"N", "-3"});
  expect_refused(run_command_line("run h12.toml --threads -2 --validate-only"), {"--threads"});
}
