// Sensitivities by finite differences (engine/schedules/sensitivity_keys.hpp;
// docs/models/schedules.md, "Sensitivities"): a two-rank message worked by hand, whose critical
// path holds o, L and the receive's o + 7G; under per-stage noise L's count stays 1 on every
// sample (the noise scales with the CPU stages, not the wire) while the samples are those of the
// same point without sensitivities; and the refusals, one line each.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/fixtures/command_line.hpp"

using collnoise::testing::run_command_line;
using collnoise::testing::write_text;

namespace {

const char* kPairGoal =
    "num_ranks 2\nrank 0 {\nl0: send 8b to 1 tag 0\n}\nrank 1 {\nl0: recv 8b from 0 tag 0\n}\n";

// The JSON summary of a run of the pair (L = 1 us, o = 100 ns, g = 50 ns, G = 1 ns/B) with
// `extra` appended to its run file; the run's exit code and output when it fails.
std::string pair_summary(const std::string& extra, int& code) {
  write_text("sens-pair.goal", kPairGoal);
  write_text("sens.toml", fmt::format(R"(name = "s"
seed = 9
samples = 40
[collective]
kind = "schedule"
goal = "sens-pair.goal"
[loggops]
L = 1.0e-6
o = 1.0e-7
g = 5.0e-8
G = 1.0e-9
{})",
                                      extra));
  std::filesystem::remove("sens.h5");
  const auto ran = run_command_line("run sens.toml --out sens.h5 --quiet");
  code = ran.code;
  if (ran.code != 0) return ran.output;
  return run_command_line("summary sens.h5 --json").output;
}

double number(const std::string& json, const std::string& key) {
  const auto at = json.find("\"" + key + "\": ");
  INFO(key);
  REQUIRE(at != std::string::npos);
  return std::stod(json.substr(at + key.size() + 4));
}

}  // namespace

TEST_CASE("sensitivities: a message's path holds L once, o twice, 7 bytes of G and no g") {
  // T = o + L + (o + 7 G) = 1207 ns: dT/dL = 1, dT/do = 2, dT/dG = 7 bytes, dT/dg = 0.
  int code = 0;
  const std::string json = pair_summary(R"([sensitivity]
parameters = ["L", "o", "g", "G"]
step = 0.02
)",
                                        code);
  INFO(json);
  REQUIRE(code == 0);
  CHECK(number(json, "completion_mean") == Approx(1207e-9).epsilon(1e-12));
  CHECK(number(json, "sensitivity_step") == 0.02);
  CHECK(number(json, "sensitivity_L_mean") == Approx(1.0).epsilon(1e-9));
  CHECK(number(json, "sensitivity_o_mean") == Approx(2.0).epsilon(1e-9));
  CHECK(number(json, "sensitivity_g_mean") == Approx(0.0).margin(1e-9));
  CHECK(number(json, "sensitivity_G_mean") == Approx(7.0).epsilon(1e-9));
  for (const char* p : {"L", "o", "g", "G"})
    CHECK(number(json, fmt::format("sensitivity_{}_path_changed_share", p)) == 0.0);
  CHECK(json.find("sensitivity_O_mean") == std::string::npos);
}

TEST_CASE("sensitivities: under per-stage noise L's count stays 1, the samples unchanged") {
  const std::string noise = "[noise]\nlaw = \"exponential\"\nf = 0.2\n";
  int code = 0;
  const std::string with =
      pair_summary(noise + "[sensitivity]\nparameters = [\"L\", \"o\"]\n", code);
  INFO(with);
  REQUIRE(code == 0);
  const std::string without = pair_summary(noise, code);
  REQUIRE(code == 0);
  // Not part of the stream identity: the same samples.
  CHECK(number(with, "completion_mean") == number(without, "completion_mean"));
  CHECK(number(with, "completion_p90") == number(without, "completion_p90"));
  // The wire is not noised: one L on every sample's path. The CPU stages are, in proportion to
  // their length: o's count is 2 plus the noise's share, above 2.
  CHECK(number(with, "sensitivity_L_mean") == Approx(1.0).epsilon(1e-9));
  CHECK(number(with, "sensitivity_L_ci_high") - number(with, "sensitivity_L_ci_low") < 1e-6);
  CHECK(number(with, "sensitivity_o_mean") > 2.0);
  CHECK(number(with, "sensitivity_L_path_changed_share") == 0.0);
}

TEST_CASE("sensitivities from the path: each parameter's time on it, as the differences say") {
  // The path: the send's o, L, then the receive's o + max(7O, 7G). With O = 0.5 ns/B the
  // receive's bytes are G's (7 of them, none of O: the send's 7O is off the path, its message
  // leaves after o); with O = 2 ns/B they are O's. g is off the path.
  struct Case {
    const char* O;
    double completion_ns, G_bytes, O_bytes;
  };
  for (const Case c : {Case{"5.0e-10", 1207.0, 7.0, 0.0}, Case{"2.0e-9", 1214.0, 0.0, 7.0}}) {
    int code = 0;
    const std::string json = pair_summary(fmt::format(R"(O = {}
[sensitivity]
parameters = ["L", "o", "g", "G", "O"]
method = "both"
[output]
critical_path = true
)",
                                                      c.O),
                                          code);
    INFO(json);
    REQUIRE(code == 0);
    CHECK(number(json, "completion_mean") == Approx(c.completion_ns * 1e-9).epsilon(1e-12));
    CHECK(number(json, "path_sensitivity_L_mean") == Approx(1.0).epsilon(1e-12));
    CHECK(number(json, "path_sensitivity_o_mean") == Approx(2.0).epsilon(1e-12));
    CHECK(number(json, "path_sensitivity_g_mean") == 0.0);
    CHECK(number(json, "path_sensitivity_G_mean") == Approx(c.G_bytes).margin(1e-9));
    CHECK(number(json, "path_sensitivity_O_mean") == Approx(c.O_bytes).margin(1e-9));
    for (const char* p : {"L", "o", "g", "G", "O"})
      CHECK(number(json, fmt::format("sensitivity_{}_path_disagrees_share", p)) == 0.0);
  }
}

TEST_CASE("sensitivities from the path: recursive doubling's closed form, alone or beside noise") {
  // 16 ranks, 1 KiB: 4 rounds of a send's o, L and the receive's o + 1023 G, g never binding.
  const std::string common = R"([sensitivity]
parameters = ["L", "o", "g", "G"]
method = "{}"
[output]
critical_path = true
)";
  const std::string point = R"(name = "rd"
seed = 3
samples = 12
[collective]
kind = "schedule"
algorithm = "recursive_doubling_allreduce"
log2_N = 4
message_bytes = 1024
[loggops]
L = 1.0e-6
o = 1.0e-7
g = 5.0e-8
G = 1.0e-9
)";
  for (const char* method : {"path", "both"}) {
    write_text("sens-rd-run.toml", point + fmt::format(fmt::runtime(common), method));
    std::filesystem::remove("sens-rd.h5");
    const auto ran = run_command_line("run sens-rd-run.toml --out sens-rd.h5 --quiet");
    INFO(ran.output);
    REQUIRE(ran.code == 0);
    const std::string json = run_command_line("summary sens-rd.h5 --json").output;
    CHECK(number(json, "path_sensitivity_L_mean") == Approx(4.0).epsilon(1e-12));
    CHECK(number(json, "path_sensitivity_o_mean") == Approx(8.0).epsilon(1e-12));
    CHECK(number(json, "path_sensitivity_g_mean") == 0.0);
    CHECK(number(json, "path_sensitivity_G_mean") == Approx(4092.0).epsilon(1e-12));
    CHECK((json.find("\"sensitivity_L_mean\"") != std::string::npos) ==
          (std::string(method) == "both"));
  }
  // Far pairs (rounds 3 and 4: 4 ranks a switch) at L = 3 us, o = 300 ns, G = 2 ns/B: a relative
  // change of each parameter, near and far, moves the path by its weighted count: L (2 + 2 * 3),
  // o (4 + 4 * 3) and G 1023 (2 + 2 * 2) bytes, the differences' numbers.
  write_text("sens-rd-run.toml", point + R"(far.L = 3.0e-6
far.o = 3.0e-7
far.G = 2.0e-9
[network]
nodes_per_switch = 4
)" + fmt::format(fmt::runtime(common), "both"));
  std::filesystem::remove("sens-rd.h5");
  const auto far = run_command_line("run sens-rd-run.toml --out sens-rd.h5 --quiet");
  INFO(far.output);
  REQUIRE(far.code == 0);
  const std::string classes = run_command_line("summary sens-rd.h5 --json").output;
  CHECK(number(classes, "path_sensitivity_L_mean") == Approx(8.0).epsilon(1e-12));
  CHECK(number(classes, "path_sensitivity_o_mean") == Approx(16.0).epsilon(1e-12));
  CHECK(number(classes, "path_sensitivity_G_mean") == Approx(6138.0).epsilon(1e-12));
  for (const char* p : {"L", "o", "g", "G"})
    CHECK(number(classes, fmt::format("sensitivity_{}_path_disagrees_share", p)) == 0.0);
  // Under per-stage noise the path's o count stays 2 a message (the noise is the noise
  // category's), while the differences add the noise that scales with o.
  int code = 0;
  const std::string json = pair_summary(R"([noise]
law = "exponential"
f = 0.2
[sensitivity]
parameters = ["L", "o"]
method = "both"
[output]
critical_path = true
)",
                                        code);
  INFO(json);
  REQUIRE(code == 0);
  CHECK(number(json, "path_sensitivity_o_mean") == Approx(2.0).epsilon(1e-12));
  CHECK(number(json, "sensitivity_o_mean") > 2.0);
  CHECK(number(json, "path_sensitivity_L_mean") == Approx(1.0).epsilon(1e-12));
  CHECK(number(json, "sensitivity_L_path_disagrees_share") == 0.0);
  CHECK(number(json, "sensitivity_o_path_disagrees_share") == 1.0);
}

TEST_CASE("sensitivities: what this version does not take is refused with its key") {
  int code = 0;
  std::string out = pair_summary("[sensitivity]\nparameters = [\"O\"]\n", code);
  CHECK(code == 2);
  CHECK(out.find("sensitivity.parameters names \"O\", which is 0 in this point") !=
        std::string::npos);
  out = pair_summary("[sensitivity]\nparameters = [\"x\"]\n", code);
  CHECK(code == 2);
  CHECK(out.find("use L, o, g, G or O") != std::string::npos);
  out = pair_summary("[sensitivity]\nparameters = [\"L\", \"L\"]\n", code);
  CHECK(code == 2);
  CHECK(out.find("twice") != std::string::npos);
  out = pair_summary("[sensitivity]\nparameters = [\"L\"]\n[loop]\niterations = 4\n", code);
  CHECK(code == 2);
  CHECK(out.find("with a benchmark loop") != std::string::npos);
  out = pair_summary("[sensitivity]\nparameters = [\"L\"]\nmethod = \"path\"\n", code);
  CHECK(code == 2);
  CHECK(out.find("without output.critical_path = true") != std::string::npos);
  out = pair_summary("[sensitivity]\nparameters = [\"L\"]\nstep = 0.7\n", code);
  CHECK(code == 2);
  CHECK(out.find("sensitivity.step") != std::string::npos);
}
