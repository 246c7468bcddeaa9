// End-to-end tests of the collnoise command: every bad input exits non-zero, names the culprit
// and leaves no output file; results round-trip through HDF5 and do not depend on threads.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/fixtures/command_line.hpp"

namespace fs = std::filesystem;

namespace {

using Result = collnoise::testing::CommandResult;

Result run(const std::string& args) {
  return collnoise::testing::run_command_line(args);
}

const char* kGood = R"(name = "cli-test"
seed = 7
samples = 3000
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
sampling = "per_rank"
[noise]
law = "exponential"
f = 0.01
[sweep]
N = [1, 7, 100000]
"noise.f" = [0.01, 0.1]
)";

std::string write(const std::string& name, const std::string& text) {
  return collnoise::testing::write_text(name, text);
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  return collnoise::testing::replace_text(std::move(text), from, to);
}

void expect_rejected(const std::string& runfile_text, const std::string& culprit) {
  const std::string out = "cli_rejected.h5";
  fs::remove(out);
  const auto r = run("run " + write("cli_bad.toml", runfile_text) + " --out " + out + " --quiet");
  INFO(r.output);
  CHECK(r.code != 0);
  CHECK(r.output.find(culprit) != std::string::npos);
  CHECK_FALSE(fs::exists(out));
}

}  // namespace

TEST_CASE("bad inputs: non-zero exit, a message naming the culprit, no output") {
  expect_rejected(std::string("name = \"x\"\nseed = [\n"), "malformed TOML");
  expect_rejected(replace(kGood, "samples = 3000", "samples = 3000\nbogus = 1"), "bogus");
  expect_rejected(replace(kGood, "law = \"exponential\"", "law = \"cauchy\""), "cauchy");
  expect_rejected(replace(kGood, "kind = \"tree_barrier\"", "kind = \"ring\""), "ring");
  expect_rejected(
      replace(kGood, "law = \"exponential\"\nf = 0.01", "law = \"pareto\"\na = 1.0\nf = 0.01"),
      "noise.a");
  expect_rejected(replace(kGood, "\"noise.f\" = [0.01, 0.1]", "\"noise.f\" = [1.5]"), "noise.f");
  expect_rejected(replace(kGood, "tau = 2.0e-6", "tau = -1.0"), "collective.tau");
  expect_rejected(replace(kGood, "N = [1, 7, 100000]", "N = [0]"), "N");
  expect_rejected(replace(kGood, "law = \"exponential\"\nf = 0.01",
                          "law = \"empirical\"\nfile = \"missing_trace.txt\""),
                  "missing_trace.txt");
}

TEST_CASE("bad command lines and paths") {
  fs::remove("cli_unwritable.h5");
  const auto missing = run("run no_such_runfile.toml --quiet");
  CHECK(missing.code == 2);
  CHECK(missing.output.find("no_such_runfile.toml") != std::string::npos);
  const auto unwritable =
      run("run " + write("cli_ok.toml", kGood) + " --out /nonexistent_dir/x.h5 --quiet");
  CHECK(unwritable.code != 0);
  CHECK(unwritable.output.find("/nonexistent_dir/x.h5") != std::string::npos);
  const auto not_h5 = run("summary cli_ok.toml");
  CHECK(not_h5.code != 0);
  CHECK(not_h5.output.find("cli_ok.toml") != std::string::npos);
}

TEST_CASE("results round-trip through HDF5 and do not depend on thread count") {
  write("cli_ok.toml", kGood);
  fs::remove("cli_t1.h5");
  fs::remove("cli_t3.h5");
  REQUIRE(run("run cli_ok.toml --out cli_t1.h5 --threads 1 --quiet").code == 0);
  REQUIRE(run("run cli_ok.toml --out cli_t3.h5 --threads 3 --quiet").code == 0);
  const auto refuse = run("run cli_ok.toml --out cli_t1.h5 --quiet");
  CHECK(refuse.code == 2);
  CHECK(refuse.output.find("--force") != std::string::npos);
  const auto a = run("summary cli_t1.h5 --json");
  const auto b = run("summary cli_t3.h5 --json");
  REQUIRE(a.code == 0);
  CHECK(a.output == b.output);
  CHECK(a.output.find("\"format_version\": 2") != std::string::npos);
  CHECK(a.output.find("\"kind\": \"tree_barrier\"") != std::string::npos);
  CHECK(a.output.find("\"collective.N\": 100000") != std::string::npos);
  CHECK(a.output.find("\"noise.law\": \"exponential\"") != std::string::npos);
  CHECK(a.output.find("\"theorem1_lower_reason\"") != std::string::npos);  // N = 100000 is not full
  CHECK(a.output.find("NaN") == std::string::npos);
  // Adding a sweep value changes no other point.
  write("cli_more.toml", replace(kGood, "N = [1, 7, 100000]", "N = [1, 3, 7, 100000]"));
  fs::remove("cli_more.h5");
  REQUIRE(run("run cli_more.toml --out cli_more.h5 --quiet").code == 0);
  const auto c = run("summary cli_more.h5 --json");
  const auto mean_of_n7 = [](const std::string& json) {
    const auto at = json.find("\"collective.N\": 7.0,");  // a double
    const auto m = json.find("\"mean\":", at);
    return json.substr(m, json.find(',', m) - m);
  };
  CHECK(mean_of_n7(a.output) == mean_of_n7(c.output));
}

namespace {

// The run file of the LogGOPS cycle models' first specification, as written there (fewer
// replications keep the suite quick).
const char* kButterfly = R"(name = "butterfly-periodic"
seed = 7
replications = 40          # independent replications (fresh noise offsets)
confidence = 0.95

[collective]
kind = "butterfly"         # also "dissemination"
N = 256                    # ranks, a power of two
cycles = 10                # M
W = 6.66667e-3             # seconds of compute per cycle

[loggops]
L = 1.0e-6
o = 1.0e-9
g = 0.0
G = 1.0e-9
O = 0.0
message_bytes = 8

[noise]
law = "periodic"
P = 0.01
D = 1.0e-4

[sweep]
N = [2, 16, 256]
)";

// The number after "key": in the n-th point of a summary --json document.
double json_number(const std::string& json, const std::string& key, int point) {
  std::size_t at = 0;
  for (int p = 0; p <= point; ++p) at = json.find("\"params\"", at + 1);
  const auto k = json.find("\"" + key + "\":", at);
  REQUIRE(k != std::string::npos);
  return std::stod(json.substr(k + key.size() + 3));
}

}  // namespace

TEST_CASE("butterfly run file: three paired cases, recovery ratio, closed form, threads") {
  write("cli_bfly.toml", kButterfly);
  fs::remove("cli_bfly1.h5");
  fs::remove("cli_bfly2.h5");
  REQUIRE(run("run cli_bfly.toml --out cli_bfly1.h5 --threads 1 --quiet").code == 0);
  REQUIRE(run("run cli_bfly.toml --out cli_bfly2.h5 --threads 2 --quiet").code == 0);
  const auto a = run("summary cli_bfly1.h5 --json");
  const auto b = run("summary cli_bfly2.h5 --json");
  REQUIRE(a.code == 0);
  CHECK(a.output == b.output);
  for (const char* key :
       {"quiet_mean", "quiet_ci_low", "quiet_ci_high", "conventional_mean", "conventional_ci_low",
        "conventional_ci_high", "redundant_mean", "redundant_ci_low", "redundant_ci_high",
        "recovery_ratio", "recovery_ratio_ci_low", "recovery_ratio_ci_high",
        "noiseless_closed_form"})
    CHECK(a.output.find(std::string("\"") + key + "\"") != std::string::npos);
  // Closed form: 10 cycles of W + K rounds of 1.009 us.
  CHECK(json_number(a.output, "noiseless_closed_form", 2) ==
        Approx(10 * (6.66667e-3 + 8 * 1.009e-6)).epsilon(1e-12));
  // Noise only delays: quiet <= redundant <= conventional (paired, so also in the means), and
  // quiet is above the closed form.
  const double quiet = json_number(a.output, "quiet_mean", 2);
  const double conventional = json_number(a.output, "conventional_mean", 2);
  const double redundant = json_number(a.output, "redundant_mean", 2);
  CHECK(quiet > json_number(a.output, "noiseless_closed_form", 2));
  CHECK(quiet <= redundant);
  CHECK(redundant <= conventional);
  const double ratio = json_number(a.output, "recovery_ratio", 2);
  CHECK(ratio > 0.0);
  CHECK(ratio < 1.0);
  CHECK(a.output.find("NaN") == std::string::npos);
  // With two ranks there is nothing to recover: the ratio is null with a reason.
  CHECK(a.output.find("\"recovery_ratio_reason\"") != std::string::npos);
}

TEST_CASE("dissemination and time-based tree barriers run from run files") {
  write("cli_dis.toml",
        replace(replace(kButterfly, "kind = \"butterfly\"", "kind = \"dissemination\""),
                "N = [2, 16, 256]", "N = [3, 100]"));
  fs::remove("cli_dis.h5");
  const auto d = run("run cli_dis.toml --out cli_dis.h5 --quiet");
  INFO(d.output);
  REQUIRE(d.code == 0);
  const auto dj = run("summary cli_dis.h5 --json").output;
  CHECK(dj.find("\"redundant_mean_reason\"") != std::string::npos);
  // ceil(log2 100) = 7 rounds.
  CHECK(json_number(dj, "noiseless_closed_form", 1) ==
        Approx(10 * (6.66667e-3 + 7 * 1.009e-6)).epsilon(1e-12));

  write("cli_ttree.toml", R"(name = "timed-tree"
seed = 3
samples = 20
[collective]
kind = "tree_barrier"
N = 1000
w = 1.0e-3
tau = 2.0e-6
phases = 5
[noise]
law = "poisson"
rate = 200.0
[noise.duration]
law = "pareto"
a = 2.5
mean = 5.0e-5
)");
  fs::remove("cli_ttree.h5");
  const auto t = run("run cli_ttree.toml --out cli_ttree.h5 --quiet");
  INFO(t.output);
  REQUIRE(t.code == 0);
  const auto tj = run("summary cli_ttree.h5 --json").output;
  CHECK(json_number(tj, "mean", 0) > json_number(tj, "noiseless_time", 0));
}

TEST_CASE("bad cycle inputs name the culprit") {
  expect_rejected(replace(kButterfly, "N = [2, 16, 256]", "N = [12]"), "power of two");
  expect_rejected(replace(kButterfly, "D = 1.0e-4", "D = 0.02"), "noise.D");
  expect_rejected(replace(kButterfly, "cycles = 10", "cycles = 0"), "collective.cycles");
  expect_rejected(replace(kButterfly, "L = 1.0e-6", "L = -1.0e-6"), "loggops.L");
  expect_rejected(replace(kButterfly, "message_bytes = 8", "message_bytes = 0"),
                  "loggops.message_bytes");
  expect_rejected(replace(kButterfly, "W = 6.66667e-3", "W = 6.66667e-3\ntau = 1.0"),
                  "collective.tau");
  expect_rejected(replace(replace(kButterfly, "law = \"periodic\"", "law = \"trace\""),
                          "P = 0.01\nD = 1.0e-4", "file = \"missing_detours.txt\""),
                  "missing_detours.txt");
}

TEST_CASE("network run files: slowdown fields, threads, OS noise, bad topologies") {
  const std::string net = R"toml(name = "cli-net"
seed = 4
samples = 40
[collective]
kind = "binomial_broadcast"
[network]
topology = "xgft(2; 12,12; 1,6)"
rho = 0.5
[sweep]
"network.topology" = ["xgft(2; 12,12; 1,6)", "torus(6, 3)"]
)toml";
  write("cli_net.toml", net);
  fs::remove("cli_net1.h5");
  fs::remove("cli_net3.h5");
  REQUIRE(run("run cli_net.toml --out cli_net1.h5 --threads 1 --quiet").code == 0);
  REQUIRE(run("run cli_net.toml --out cli_net3.h5 --threads 3 --quiet").code == 0);
  const auto a = run("summary cli_net1.h5 --json").output;
  CHECK(a == run("summary cli_net3.h5 --json").output);
  for (const char* key : {"endpoints", "slowdown_mean", "slowdown_ci_low", "slowdown_ci_high"})
    CHECK(a.find(std::string("\"") + key + "\"") != std::string::npos);
  CHECK(json_number(a, "endpoints", 0) == 144);
  CHECK(json_number(a, "endpoints", 1) == 216);
  CHECK(json_number(a, "slowdown_mean", 0) > 1.0);
  CHECK(json_number(a, "slowdown_ci_low", 0) <= json_number(a, "slowdown_mean", 0));

  // OS noise on every step: the quiet cost grows, the clean one does not.
  write("cli_net_os.toml", net + "[noise]\nlaw = \"exponential\"\nf = 0.5\n");
  fs::remove("cli_net_os.h5");
  const auto os = run("run cli_net_os.toml --out cli_net_os.h5 --quiet");
  INFO(os.output);
  REQUIRE(os.code == 0);
  const auto b = run("summary cli_net_os.h5 --json").output;
  CHECK(json_number(b, "cost_quiet_mean", 0) > json_number(b, "cost_clean_mean", 0));
  CHECK(json_number(b, "slowdown_total_mean", 0) > json_number(b, "slowdown_mean", 0));

  expect_rejected(replace(net, "\"torus(6, 3)\"", "\"torus(1, 3)\""), "network.topology");
  expect_rejected(replace(net, "\"torus(6, 3)\"", "\"xgft(2; 12; 1,6)\""), "network.topology");
  expect_rejected(replace(net, "\"torus(6, 3)\"", "\"hypercube(4)\""), "network.topology");
  expect_rejected(replace(net, "rho = 0.5", "rho = 1.5"), "network.rho");
  expect_rejected(replace(net, "binomial_broadcast", "dissemination"), "dissemination");
  expect_rejected(net + "[noise]\nlaw = \"periodic\"\nP = 1.0\nD = 0.1\n", "per-stage");
}

TEST_CASE("isoefficiency run files: curves against the exact ones, and bad parameters") {
  const std::string iso = R"toml(name = "cli-iso"
kind = "isoefficiency"
seed = 3
samples = 4000
[isoefficiency]
efficiency = 0.8
p = 1.0e6
log2_m = [0, 3, 6, 9, 12, 15, 18, 20]
imbalance = "noise"
scale = 1.0e-3
[noise]
law = "exponential"
)toml";
  write("cli_iso.toml", iso);
  fs::remove("cli_iso.h5");
  const auto r = run("run cli_iso.toml --out cli_iso.h5 --quiet");
  INFO(r.output);
  REQUIRE(r.code == 0);
  const auto j = run("summary cli_iso.h5 --json").output;
  for (const char* key : {"\"m\"", "\"W\"", "\"W_ci_low\"", "\"W_ci_high\"", "\"W_exact\"",
                          "\"growth_exponent\"", "\"growth_exponent_ci_low\"",
                          "\"growth_exponent_ci_high\"", "\"predicted_exponent\"", "\"scalable\""})
    CHECK(j.find(key) != std::string::npos);
  CHECK(j.find("\"predicted_exponent_reason\": \"m H_m is not a power law") != std::string::npos);
  // W = K m s H_m with K = p E/(1-E) = 4e6: at m = 8, 4e6 * 8 * 1e-3 * H_8.
  const auto array_at = [&](const std::string& key, std::size_t index) {
    auto at = j.find("\"" + key + "\": [");
    REQUIRE(at != std::string::npos);
    at = j.find('[', at) + 1;
    for (std::size_t k = 0; k < index; ++k) at = j.find(',', at) + 1;
    return std::stod(j.substr(at));
  };
  CHECK(array_at("W_exact", 1) == Approx(4e6 * 8 * 1e-3 * (761.0 / 280.0)).epsilon(1e-9));
  int covered = 0;
  for (std::size_t k = 0; k < 8; ++k)
    covered += array_at("W_ci_low", k) <= array_at("W_exact", k) &&
               array_at("W_exact", k) <= array_at("W_ci_high", k);
  CHECK(covered >= 6);  // 95% intervals: P(fewer than 6 of 8 cover) < 0.6%

  expect_rejected(replace(iso, "efficiency = 0.8", "efficiency = 1.2"), "isoefficiency.efficiency");
  expect_rejected(replace(iso, "p = 1.0e6", "p = 0.0"), "isoefficiency.p");
  expect_rejected(replace(iso, "log2_m = [0, 3, 6, 9, 12, 15, 18, 20]", "m = [0.5, 4]"),
                  "isoefficiency.m");
  expect_rejected(replace(iso, "imbalance = \"noise\"", "imbalance = \"cubic\""), "cubic");
  expect_rejected(replace(iso, "law = \"exponential\"", "law = \"exponential\"\nf = 0.1"),
                  "noise.f");
}

TEST_CASE("granularity isoefficiency curves do not depend on the thread count") {
  const std::string iso = R"toml(name = "cli-granularity"
kind = "isoefficiency"
seed = 5
[isoefficiency]
efficiency = 0.8
p = 1.0
m = [2, 4, 8]
imbalance = "granularity"
job_mean = 10.0
assignment = "random"
samples = 300
[noise]
law = "exponential"
)toml";
  write("cli_gran.toml", iso);
  fs::remove("cli_gran1.h5");
  fs::remove("cli_gran2.h5");
  REQUIRE(run("run cli_gran.toml --out cli_gran1.h5 --threads 1 --quiet").code == 0);
  REQUIRE(run("run cli_gran.toml --out cli_gran2.h5 --threads 2 --quiet").code == 0);
  const auto one = run("summary cli_gran1.h5 --json").output;
  CHECK(one.find("\"W\": [") != std::string::npos);
  CHECK(one == run("summary cli_gran2.h5 --json").output);
  expect_rejected(replace(iso, "samples = 300", "samples = 1"), "isoefficiency.samples");
}
