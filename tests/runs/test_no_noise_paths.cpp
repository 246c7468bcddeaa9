// Every way of saying "no noise" (law "none", an f-law with f = 0, no [noise] table where the
// model allows it) gives the noiseless answer through the noiseless path: the same numbers, bit
// for bit, without simulating every sample (bench/RESULTS.md measures the time).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/fixtures/command_line.hpp"

using namespace collnoise::testing;

namespace {

nlohmann::json point_of(const std::string& name, const std::string& text) {
  const std::string file = write_text(name + ".toml", text);
  const CommandResult r =
      run_command_line("run " + file + " --out " + name + ".h5 --force --quiet");
  INFO(r.output);
  REQUIRE(r.code == 0);
  const CommandResult s = run_command_line("summary " + name + ".h5 --json");
  REQUIRE(s.code == 0);
  nlohmann::json p = nlohmann::json::parse(s.output)["points"][0];
  p.erase("params");
  return p;
}

}  // namespace

TEST_CASE("no noise, said any way, is the noiseless run: schedules", "[no_noise]") {
  const std::string base = R"(name = "nn"
seed = 3
samples = 6
[collective]
kind = "schedule"
algorithm = "recursive_doubling_allreduce"
N = 64
message_bytes = 8
[loggops]
L = 1.0e-6
o = 1.0e-8
g = 0.0
G = 1.0e-9
)";
  const auto plain = point_of("nn_schedule_plain", base);
  const auto none = point_of("nn_schedule_none", base + "[noise]\nlaw = \"none\"\n");
  const auto f0 =
      point_of("nn_schedule_f0", base + "[noise]\nlaw = \"pareto\"\na = 3.0\nf = 0.0\n");
  CHECK(none == plain);
  CHECK(f0 == plain);
  CHECK(plain["completion_mean"] == plain["noiseless_completion"]);
}

TEST_CASE("no noise, said any way, is the noiseless run: tree barrier and cycles", "[no_noise]") {
  const std::string tree = R"(name = "nt"
seed = 3
samples = 3000
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 1.0e-6
levels = 12
sampling = "per_rank"
[output]
raw_samples = true
)";
  const auto none = point_of("nn_tree_none", tree + "[noise]\nlaw = \"none\"\n");
  const auto f0 = point_of("nn_tree_f0", tree + "[noise]\nlaw = \"exponential\"\nf = 0.0\n");
  // The sampled fields agree (the theory columns are the law's own).
  for (const char* key : {"mean", "ci_low", "ci_high", "sd", "min", "max", "median", "p99"})
    CHECK(none[key] == f0[key]);
  CHECK(none["mean"] == none["noiseless_time"]);
  CHECK(none["min"] == none["max"]);

  const std::string cycles = R"(name = "nc"
seed = 3
samples = 6
[collective]
kind = "butterfly"
log2_N = 8
cycles = 20
[loggops]
L = 1.0e-6
o = 1.0e-7
g = 0.0
G = 0.0
)";
  const auto cnone = point_of("nn_cycles_none", cycles + "[noise]\nlaw = \"none\"\n");
  const auto cf0 =
      point_of("nn_cycles_f0", cycles + "[noise]\nlaw = \"weibull\"\nk = 0.5\nf = 0.0\n");
  for (const char* key : {"conventional_mean", "conventional_ci_low", "redundant_mean",
                          "quiet_mean", "noiseless_closed_form"})
    CHECK(cnone[key] == cf0[key]);
  CHECK(cnone["conventional_mean"] == cnone["quiet_mean"]);
}
