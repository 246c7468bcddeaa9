// Heavy tails warn: every kind of point whose noise has a tail index at or below 4 says that its
// interval may not hold.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

namespace fs = std::filesystem;

namespace {

using namespace collnoise::testing;

const std::string kSmall = small_tree_sweep_run("hard", "law = \"pareto\"\na = 2.5\nf = 0.01\n");

}  // namespace

TEST_CASE("every kind of point with a tail index at or below 4 warns about its interval") {
  const std::string iso = R"(name = "h14i"
kind = "isoefficiency"
seed = 20
samples = 2000
[isoefficiency]
efficiency = 0.8
p = 1.0e6
log2_m = [1, 4, 8]
imbalance = "noise"
scale = 1.0e-3
[noise]
law = "pareto"
a = 2.5
)";
  write_text("h14i.toml", iso);
  fs::remove("h14i.h5");
  REQUIRE(run_command_line("run h14i.toml --out h14i.h5 --quiet").code == 0);
  const auto j = run_command_line("summary h14i.h5 --json").output;
  CHECK(j.find("tail index 2.5 <= 4") != std::string::npos);
  // A light tail: no warning.
  write_text("h14e.toml", replace_text(iso, "law = \"pareto\"\na = 2.5", "law = \"exponential\""));
  fs::remove("h14e.h5");
  REQUIRE(run_command_line("run h14e.toml --out h14e.h5 --quiet").code == 0);
  CHECK(run_command_line("summary h14e.h5 --json").output.find("tail index") == std::string::npos);
  // Tail index exactly 4 warns too; the tree barrier, cycles and the network say so.
  write_text("h14t.toml", replace_text(kSmall, "a = 2.5", "a = 4.0"));
  fs::remove("h14t.h5");
  REQUIRE(run_command_line("run h14t.toml --out h14t.h5 --quiet").code == 0);
  CHECK(run_command_line("summary h14t.h5 --json").output.find("tail index 4 <= 4") !=
        std::string::npos);
  write_text("h14n.toml", R"x(name = "h14n"
seed = 1
samples = 20
[collective]
kind = "binomial_broadcast"
[network]
topology = "xgft(2; 4,4; 1,2)"
rho = 0.25
[noise]
law = "pareto"
a = 3.0
f = 0.01
)x");
  fs::remove("h14n.h5");
  const auto n = run_command_line("run h14n.toml --out h14n.h5 --quiet");
  INFO(n.output);
  REQUIRE(n.code == 0);
  CHECK(run_command_line("summary h14n.h5 --json").output.find("tail index 3 <= 4") !=
        std::string::npos);
  write_text("h14c.toml", R"(name = "h14c"
seed = 1
replications = 5
[collective]
kind = "butterfly"
N = 8
W = 1.0e-3
[noise]
law = "pareto"
a = 3.0
f = 0.01
)");
  fs::remove("h14c.h5");
  REQUIRE(run_command_line("run h14c.toml --out h14c.h5 --quiet").code == 0);
  CHECK(run_command_line("summary h14c.h5 --json").output.find("tail index 3 <= 4") !=
        std::string::npos);
}
