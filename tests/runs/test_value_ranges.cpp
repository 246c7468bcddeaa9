// Values from files and from the command line meet the documented ranges of the run-file keys
// (docs/run-files.md, "Valid ranges"), a refusal names the file, line, key or option and the
// value, and a result records the LogGOPS parameters actually simulated (docs/hdf5-layout.md).
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "core/errors.hpp"
#include "distributions/netgauge_loggp.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "tests/fixtures/command_line.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;
using collnoise::testing::run_command_line;
using collnoise::testing::write_text;

namespace {

const char* kHeader = "# size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s) L o_s o_r g G lsqu\n";

// A LogGP file of Netgauge's layout: one row per line of `rows` after the header.
std::string loggp_file(const std::string& name, const std::string& rows) {
  return write_text(name, std::string(kHeader) + rows);
}

// The GOAL text of one rank sending `bytes` to another.
std::string goal_send(const std::string& bytes) {
  return "num_ranks 2\nrank 0 {\nl1: send " + bytes + "b to 1\n}\nrank 1 {\nl1: recv " + bytes +
         "b from 0\n}\n";
}

std::string goal_calc(const std::string& ns) {
  return "num_ranks 1\nrank 0 {\nl1: calc " + ns + "\n}\n";
}

std::string goal_error(const std::string& text) {
  try {
    read_goal_text(text, "vr.goal");
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

// The number after "key": in the first point's params of a summary --json document.
double param_number(const std::string& json, const std::string& key) {
  const auto params = json.find("\"params\"");
  REQUIRE(params != std::string::npos);
  const auto at = json.find("\"" + key + "\":", params);
  INFO(key);
  REQUIRE(at != std::string::npos);
  return std::stod(json.substr(at + key.size() + 3));
}

}  // namespace

TEST_CASE("LogGP file: values beyond the [loggops] ranges are refused naming them",
          "[value_ranges]") {
  // 1e300 us: accepted before, giving completion times of 1e295 s.
  const std::string huge = loggp_file("vr_huge.out", "1 10 5 9 40 1e300 0.5 1.0 1.0 0.001 0\n");
  CHECK_THROWS_WITH(NetgaugeLogGPTable::from_file(huge),
                    Contains("vr_huge.out:2") && Contains("L = 1e300 us") &&
                        Contains("[0, 1e+09] us") && Contains("loggops.L"));
  const std::string huge_g = loggp_file("vr_huge_g.out", "1 10 5 9 40 2.5 0.5 1.0 1.0 1e300 0\n");
  CHECK_THROWS_WITH(NetgaugeLogGPTable::from_file(huge_g), Contains("vr_huge_g.out:2") &&
                                                               Contains("G = 1e300 us per byte") &&
                                                               Contains("loggops.G"));
  // Just beyond the edge, in each column.
  CHECK_THROWS_WITH(NetgaugeLogGPTable::from_file(loggp_file(
                        "vr_edge_o.out", "1 10 5 9 40 2.5 0.5 1000000001 1.0 0.001 0\n")),
                    Contains("vr_edge_o.out:2") && Contains("o_r = 1000000001 us"));
  CHECK_THROWS_WITH(NetgaugeLogGPTable::from_file(
                        loggp_file("vr_edge_G.out", "1 10 5 9 40 2.5 0.5 1.0 1.0 1000000.1 0\n")),
                    Contains("G = 1000000.1 us per byte"));
  // At the edge: accepted, exactly.
  const auto edge = NetgaugeLogGPTable::from_file(
      loggp_file("vr_edge.out", "1 10 5 9 40 1e9 1e9 1e9 1e9 1e6 0\n"));
  const NetgaugeLogGP p = edge.nearest(1);
  CHECK(p.L == 1e9 * 1e-6);
  CHECK(p.o_r == 1e9 * 1e-6);
  CHECK(p.g == 1e9 * 1e-6);
  CHECK(p.G == 1e6 * 1e-6);
}

TEST_CASE("LogGP file: infinite values are refused, a NaN one is named", "[value_ranges]") {
  // An infinite L in a row of its own: skipped before (another row was used), refused now.
  const std::string inf = loggp_file("vr_inf.out",
                                     "1 10 5 9 40 inf 0.5 1.0 1.0 0.001 0\n"
                                     "1025 10 5 9 40 2.5 0.5 1.0 1.0 0.001 0\n");
  CHECK_THROWS_WITH(NetgaugeLogGPTable::from_file(inf),
                    Contains("vr_inf.out:2") && Contains("L = inf us"));
  CHECK_THROWS_WITH(NetgaugeLogGPTable::from_file(
                        loggp_file("vr_minus_inf.out", "1 10 5 9 40 2.5 0.5 1.0 -inf 0.001 0\n")),
                    Contains("vr_minus_inf.out:2") && Contains("g = -inf us"));
  // Netgauge's -nan (a fit not made) is skipped; when no row is left, the first one is named.
  CHECK_THROWS_WITH(NetgaugeLogGPTable::from_file(
                        loggp_file("vr_nan.out", "1 10 5 9 40 nan 0.5 1.0 1.0 0.001 0\n")),
                    Contains("vr_nan.out") && Contains("line 2: L = nan us"));
  CHECK_THROWS_WITH(NetgaugeLogGPTable::from_file(
                        loggp_file("vr_nan_g.out", "1 10 5 9 40 2.5 0.5 1.0 1.0 -nan 0\n")),
                    Contains("vr_nan_g.out") && Contains("line 2: G = -nan us per byte"));
}

TEST_CASE("GOAL file: message sizes and calc durations beyond range are refused with file:line",
          "[value_ranges]") {
  // 2^64 - 1 bytes: accepted before (1.8e19 s with no warning).
  CHECK_THAT(goal_error(goal_send("18446744073709551615")),
             Contains("vr.goal:3:") && Contains("message size") &&
                 Contains("18446744073709551615") && Contains("[0, 1099511627776]"));
  // 2^40 + 1 bytes, just beyond the largest message the built-in algorithms take.
  CHECK_THAT(goal_error(goal_send("1099511627777")),
             Contains("vr.goal:3:10:") && Contains("1099511627777 is too large"));
  CHECK_THAT(goal_error(goal_send("1099511627776")), Contains("accepted"));
  // Calc durations: at most 10^6 seconds, in nanoseconds.
  CHECK_THAT(goal_error(goal_calc("1000000000000001")), Contains("vr.goal:3:10:") &&
                                                            Contains("computation's length") &&
                                                            Contains("[0, 1000000000000000]"));
  CHECK_THAT(goal_error(goal_calc("1000000000000000")), Contains("accepted"));
}

TEST_CASE("collnoise schedule: --bytes and --ranks are range-checked, exit 2 naming the option",
          "[value_ranges]") {
  const auto refused = [](const std::string& options, const std::string& option) {
    std::filesystem::remove("vr.goal");
    const auto r =
        run_command_line("schedule binomial_broadcast " + options + " --goal vr.goal --force");
    INFO(options << ": " << r.output);
    CHECK(r.code == 2);
    CHECK(r.output.find(option) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists("vr.goal"));
  };
  // -1 wrapped to 2^64 - 1 and 99999999999999999999 saturated, with exit 0.
  refused("--ranks 4 --bytes -1", "--bytes");
  refused("--ranks 4 --bytes=-1", "--bytes");
  refused("--ranks 4 --bytes 99999999999999999999", "--bytes");
  refused("--ranks 4 --bytes 1099511627777", "--bytes");
  refused("--ranks -1 --bytes 8", "--ranks");
  refused("--ranks=-1 --bytes 8", "--ranks");
  refused("--ranks 0 --bytes 8", "--ranks");
  refused("--ranks 2147483648 --bytes 8", "--ranks");
  refused("--ranks 4 --k=-1", "--k");
  refused("--ranks 4 --segments 0", "--segments");
  const auto ok = run_command_line(
      "schedule binomial_broadcast --ranks 4 --bytes 1099511627776 --goal vr.goal --force");
  INFO(ok.output);
  CHECK(ok.code == 0);
}

TEST_CASE("collnoise run: a NaN or out-of-range option is refused naming it", "[value_ranges]") {
  write_text("vr_run.toml",
             "name = \"vr\"\nseed = 1\nsamples = 10\n[collective]\nkind = \"tree_barrier\"\n"
             "w = 1.0e-3\ntau = 1.0e-6\nN = 3\n[noise]\nlaw = \"exponential\"\nf = 0.01\n");
  REQUIRE(run_command_line("run vr_run.toml --validate-only").code == 0);
  for (const char* option :
       {"--checkpoint-every", "--progress-every", "--max-core-hours", "--max-memory-gib"}) {
    const auto r =
        run_command_line(std::string("run vr_run.toml --validate-only ") + option + " nan");
    INFO(r.output);
    CHECK(r.code == 2);
    CHECK(r.output.find(option) != std::string::npos);
  }
  const auto threads = run_command_line("run vr_run.toml --validate-only --threads=-1");
  CHECK(threads.code == 2);
  CHECK(threads.output.find("--threads") != std::string::npos);
}

TEST_CASE("a run with loggops.file records the LogGOPS parameters simulated", "[value_ranges]") {
  std::filesystem::create_directories("vr-dir");
  // L 2.5 us, o = (0.25 + 0.75) / 2 = 0.5 us: the engine's L is 2.5 - 2 x 0.5 = 1.5 us.
  write_text("vr-dir/ng.out", std::string(kHeader) +
                                  "1 10 5 9 40 2.5 0.25 0.75 -nan -nan -nan\n"
                                  "64 10 5 9 40 3.5 0.5 0.5 4.0 0.002 0\n");
  write_text("vr-dir/r.toml", R"(name = "vr"
seed = 3
samples = 4
[collective]
kind = "schedule"
algorithm = "binomial_broadcast"
N = 4
message_bytes = 8
[loggops]
file = "ng.out"
)");
  std::filesystem::remove("vr_file.h5");
  const auto run = run_command_line("run vr-dir/r.toml --out vr_file.h5 --quiet");
  INFO(run.output);
  REQUIRE(run.code == 0);
  const auto json = run_command_line("summary vr_file.h5 --json").output;
  INFO(json);
  // The row of 1 byte gives L, o_s, o_r (nearest 8 bytes); the row of 64 bytes g and G.
  CHECK(param_number(json, "simulated.loggops.L") == 1.5e-6);
  CHECK(param_number(json, "simulated.loggops.o") == 0.5e-6);
  CHECK(param_number(json, "simulated.loggops.g") == 4.0e-6);
  CHECK(param_number(json, "simulated.loggops.G") == 2.0e-9);
  CHECK(param_number(json, "simulated.loggops.O") == 0.0);
  // The file's "2.5" us rounded once, as the run-file value "2.5us" (not 2.5 * 1e-6).
  CHECK(param_number(json, "simulated.loggops.file_L") == 2.5e-6);
  CHECK(param_number(json, "simulated.loggops.file_row_bytes") == 1.0);
  CHECK(param_number(json, "simulated.loggops.file_gap_row_bytes") == 64.0);
  // The [loggops] defaults the file replaced were not simulated: not recorded.
  CHECK(json.find("\"loggops.L\"") == std::string::npos);
  CHECK(json.find("\"loggops.o\"") == std::string::npos);
  CHECK(json.find("\"loggops.file\"") != std::string::npos);
}

TEST_CASE("a run with [loggops] keys records them as simulated", "[value_ranges]") {
  write_text("vr_keys.toml", R"(name = "vr"
seed = 3
samples = 4
[collective]
kind = "schedule"
algorithm = "binomial_broadcast"
N = 4
[loggops]
L = "2us"
G = 3e-10
)");
  std::filesystem::remove("vr_keys.h5");
  const auto run = run_command_line("run vr_keys.toml --out vr_keys.h5 --quiet");
  INFO(run.output);
  REQUIRE(run.code == 0);
  const auto json = run_command_line("summary vr_keys.h5 --json").output;
  INFO(json);
  CHECK(param_number(json, "loggops.L") == 2e-6);
  CHECK(param_number(json, "simulated.loggops.L") == 2e-6);
  CHECK(param_number(json, "simulated.loggops.o") == 1e-9);
  CHECK(param_number(json, "simulated.loggops.G") == 3e-10);
  CHECK(json.find("simulated.loggops.file_L") == std::string::npos);
}
