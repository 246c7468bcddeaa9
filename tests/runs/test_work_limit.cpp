// The work a run asks for is estimated before it starts (--max-core-hours, [limits]): an
// astronomical run is refused with its estimate, and the limit can be lowered or raised.
#include <catch2/catch.hpp>
#include <string>

#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

namespace {

using namespace collnoise::testing;

// A run of a few seconds, for locks and signals.
const std::string kLong = long_tree_run("hard-long");

}  // namespace

TEST_CASE("astronomical work is refused with its estimate, the limit can be raised") {
  const std::string huge = replace_text(kLong, "log2_N = 20", "log2_N = 60");
  const auto r = run_command_line("run " + write_text("h7.toml", huge) + " --validate-only");
  expect_refused(r, {"h7.toml", "core-years", "point 0", "--max-core-hours"});
  const std::string many = replace_text(kLong, "samples = 20000", "samples = 1000000000000");
  expect_refused(run_command_line("run " + write_text("h7b.toml", many) + " --validate-only"),
                 {"core-", "--max-core-hours"});
  // The estimate is printed, and a lower limit refuses a run that fits the default.
  const auto valid = run_command_line("run " + write_text("h7c.toml", kLong) + " --validate-only");
  CHECK(valid.code == 0);
  CHECK(valid.output.find("estimated work") != std::string::npos);
  expect_refused(run_command_line("run h7c.toml --validate-only --max-core-hours 0.000002"),
                 {"limit"});
  const std::string limited = std::string(kLong) + "[limits]\nmax_core_hours = 1e-7\n";
  expect_refused(run_command_line("run " + write_text("h7d.toml", limited) + " --validate-only"),
                 {"[limits] max_core_hours"});
  // The command line raises the run file's limit.
  CHECK(run_command_line("run h7d.toml --validate-only --max-core-hours 10").code == 0);
}
