// collnoise calibrate (docs/calibration.md) on a Netgauge folder generated here: the machine file
// it writes holds the regime fit worked by hand, reads back in a run, and never replaces an
// input or an existing machine file without --force.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "runs/run_file.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/netgauge_switch_rows.hpp"

namespace fs = std::filesystem;
using namespace collnoise;
using Catch::Matchers::Contains;
using collnoise::testing::replace_text;
using collnoise::testing::run_command_line;
using collnoise::testing::write_text;

namespace {

// Eager rows: o = 1 + x/4096 us (x = s - 1), the file's L 3 us; rendezvous rows from 4097
// bytes, o 12 + ... us less the 6 us handshake (the regime fit's own test works them out).
const std::string kLogGP =
    "# size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s) L o_s o_r g G lsqu(g,G)\n" +
    std::string(collnoise::testing::kSwitchRows);

const char* kCalibration = R"(name = "hand"
seed = 4
netgauge = "ng"
[measurements]
draws = 20
[model.latency]
warmup = 0
block = 2
)";

// A run of 4 samples that includes the machine file beside it.
const char* kIncludingRun = R"(name = "r"
seed = 1
samples = 4
machine = "hand.machine.toml"
[collective]
kind = "schedule"
algorithm = "nway_dissemination"
N = 4
message_bytes = 16
)";

}  // namespace

TEST_CASE("calibrate writes the measurements' machine file, which a run includes") {
  fs::create_directories("calibrate-cmd/ng");
  fs::create_directories("calibrate-cmd/out");
  write_text("calibrate-cmd/ng/ng_loggp.out", kLogGP);
  write_text("calibrate-cmd/ng/ng_netnoise_mpi_lat.out", "#size\trtt\n1\t6\n1\t6\n");
  write_text("calibrate-cmd/hand.toml", kCalibration);
  const auto made = run_command_line(
      "calibrate calibrate-cmd/hand.toml --out calibrate-cmd/out/hand.machine.toml --force");
  INFO(made.output);
  REQUIRE(made.code == 0);
  CHECK_THAT(made.output, Contains("protocol switch at 4097 bytes"));
  CHECK_THAT(made.output, Contains("ng_osnoise.out: absent or empty"));
  // A run in another folder includes it: its paths are the machine file's folder's.
  write_text("calibrate-cmd/out/run.toml", kIncludingRun);
  const RunSpec run = load_run_file("calibrate-cmd/out/run.toml");
  REQUIRE(run.machine);
  const ParamMap& keys = run.points[0].params;
  // The eager o is 1 us, L the file's 3 us less 2o, S the switch less one byte; the rendezvous
  // o 5 us (12 - 6 + x/4096 at x = 4096... fitted as the test of the regimes shows).
  CHECK(std::get<double>(keys.at("loggops.o")) == Approx(1e-6).epsilon(1e-12));
  CHECK(std::get<double>(keys.at("loggops.L")) == Approx(1e-6).epsilon(1e-12));
  CHECK(std::get<std::int64_t>(keys.at("loggops.S")) == 4096);
  CHECK(std::get<double>(keys.at("loggops.rendezvous_regime.o")) == Approx(5e-6).epsilon(1e-12));
  CHECK(std::get<std::int64_t>(keys.at("latency.warmup")) == 0);  // the [model] constant
  CHECK(std::get<TextList>(keys.at("latency.file")) == TextList{"../ng/ng_netnoise_mpi_lat.out"});
  REQUIRE(run.machine->fitted.size() == 9);
  CHECK(run.machine->draws.size() == 20);
  for (const auto& f : run.machine->fitted) {
    CHECK(f.stage == "measurements");
    CHECK(f.low <= f.value);
    CHECK(f.value <= f.high);
  }
  const auto ran = run_command_line(
      "run calibrate-cmd/out/run.toml --out calibrate-cmd/r.h5 "
      "--force --quiet --no-checkpoint");
  INFO(ran.output);
  CHECK(ran.code == 0);

  // An existing machine file is kept without --force; the calibration file is never an output.
  const auto kept = run_command_line(
      "calibrate calibrate-cmd/hand.toml --out calibrate-cmd/out/hand.machine.toml");
  CHECK(kept.code == 2);
  const auto over =
      run_command_line("calibrate calibrate-cmd/hand.toml --out calibrate-cmd/hand.toml --force");
  CHECK(over.code == 2);
  CHECK_THAT(over.output, Contains("calibration file"));
  // An input changed since: the run refuses the machine file.
  write_text("calibrate-cmd/ng/ng_loggp.out", kLogGP + "\n");
  CHECK_THROWS_WITH(load_run_file("calibrate-cmd/out/run.toml"),
                    Contains("has changed since the calibration"));
}

TEST_CASE("a calibration file at fault is refused in one line") {
  fs::create_directories("calibrate-bad");
  const auto refused = [](const std::string& text, const std::string& message) {
    write_text("calibrate-bad/c.toml", text);
    const auto r = run_command_line("calibrate calibrate-bad/c.toml --out calibrate-bad/m.toml");
    INFO(r.output);
    CHECK(r.code == 2);
    CHECK_THAT(r.output, Contains(message));
  };
  refused("name = \"x\"\nseed = 1\n", "netgauge is missing");
  refused("colour = 1\n" + std::string(kCalibration), "unknown key 'colour'");
  refused(std::string(kCalibration) + "[fit.keys]\n\"loggops.o\" = [0, 1e-6]\n",
          "[fit] needs [[table]] tables");
  refused(std::string(kCalibration) + "[fit.keys]\n\"loggops.o\" = [1e-6, 0]\n",
          "fit.keys.loggops.o: its range");
  refused(std::string(kCalibration) + "[fit.keys]\n\"loggops.S\" = [1, 2]\n",
          "loggops.S is not a number key");
  refused(std::string(kCalibration) + "[model.collective]\nN = 4\n",
          "collective.N is not a machine key");
  refused(replace_text(kCalibration, "netgauge = \"ng\"", "netgauge = \"absent\""),
          "has no ng_loggp.out");
}

TEST_CASE("calibrate with tails = gpd splices the pools and the detours, and says each fit") {
  fs::create_directories("calibrate-tails/ng");
  write_text("calibrate-tails/ng/ng_loggp.out", kLogGP);
  std::string latencies = "#size\trtt\n", trace;
  for (int i = 0; i < 400; ++i) {
    latencies += "1\t" + std::to_string(6 + (i * 37) % 50 * 0.01) + "\n";
    trace += std::to_string(100000 * i) + "\t" + std::to_string(1000 + (i * 7919) % 997) + "\n";
  }
  write_text("calibrate-tails/ng/ng_netnoise_mpi_lat.out", latencies);
  write_text("calibrate-tails/ng/ng_osnoise.out", trace);
  const std::string calibration =
      replace_text(replace_text(kCalibration, "draws = 20\n", "draws = 20\ntails = \"gpd\"\n"),
                   "block = 2\n", "block = 1000\n");
  write_text("calibrate-tails/hand.toml", calibration);
  const auto made = run_command_line(
      "calibrate calibrate-tails/hand.toml --out calibrate-tails/hand.machine.toml --force");
  INFO(made.output);
  REQUIRE(made.code == 0);
  // One fit per pool and one of the detours, each with its shape's interval.
  CHECK_THAT(made.output, Contains("pool of 1 B, seconds: GPD above") &&
                              Contains("ng_osnoise.out detour durations, seconds: GPD above"));
  write_text("calibrate-tails/run.toml", kIncludingRun);
  const RunSpec run = load_run_file("calibrate-tails/run.toml");
  const ParamMap& keys = run.points[0].params;
  CHECK(std::get<std::string>(keys.at("latency.tail")) == "gpd");
  CHECK(std::get<std::string>(keys.at("noise.replay")) == "poisson");
  CHECK(std::get<std::string>(keys.at("noise.tail")) == "gpd");
  const auto ran = run_command_line(
      "run calibrate-tails/run.toml --out calibrate-tails/r.h5 --force --quiet --no-checkpoint");
  INFO(ran.output);
  CHECK(ran.code == 0);
  write_text("calibrate-tails/bad.toml",
             replace_text(calibration, "tails = \"gpd\"", "tails = \"pareto\""));
  const auto bad = run_command_line("calibrate calibrate-tails/bad.toml --force");
  CHECK(bad.code == 2);
  CHECK_THAT(bad.output, Contains("measurements.tails = \"pareto\" is invalid"));
}
