// Shipped run files by name (app/shipped_runs.hpp): `collnoise run NAME` from any directory, a file
// of that path first, the result in the current directory, and a name found nowhere refused in
// one line saying where it was looked for. (The installed layout, <prefix>/share/collnoise/runs,
// is tried by .ci/install-check on an installed collnoise.)
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/fixtures/command_line.hpp"

namespace fs = std::filesystem;
using collnoise::testing::run_command_line;
using collnoise::testing::write_text;

namespace {
bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("a shipped run file runs by name, its result in the current directory") {
  fs::remove("bosque-fig2.h5");
  const auto r = run_command_line("run bosque-fig2");
  REQUIRE(r.code == 0);
  const std::string shipped = (fs::path(COLLNOISE_SOURCE_DIR) / "runs/bosque-fig2.toml").string();
  CHECK(contains(r.output, "running the shipped run file " + shipped));
  CHECK(fs::exists("bosque-fig2.h5"));
  CHECK_FALSE(fs::exists(fs::path(COLLNOISE_SOURCE_DIR) / "runs/bosque-fig2.h5"));
  CHECK(run_command_line("run bosque-fig2.toml --validate-only").code == 0);
  // Data files are read relative to the shipped run file (runs/data/...).
  const auto replay = run_command_line("run schedules-trace-replay --validate-only");
  CHECK(replay.code == 0);
  CHECK(contains(replay.output,
                 shipped.substr(0, shipped.size() - 16) + "schedules-trace-replay.toml: valid"));
}

TEST_CASE("a file of the given path comes before a shipped run file of that name") {
  write_text(
      "bosque-fig3.toml",
      "name = \"local-fig3\"\nkind = \"isoefficiency\"\nseed = 1\n[isoefficiency]\n"
      "efficiency = 0.8\np = 1.0e6\nlog2_m = [1, 2]\nimbalance = \"constant\"\nc1 = 1.0e-3\n");
  const auto local = run_command_line("run bosque-fig3.toml --validate-only");
  INFO(local.output);
  CHECK(local.code == 0);
  CHECK(contains(local.output, "bosque-fig3.toml: valid"));
  CHECK_FALSE(contains(local.output, "runs/bosque-fig3.toml"));
}

TEST_CASE("a name found nowhere: one line naming where it was looked for") {
  const auto r = run_command_line("run no-such-shipped-run --quiet");
  CHECK(r.code == 2);
  CHECK(contains(r.output, "run file 'no-such-shipped-run' not found"));
  CHECK(contains(r.output, "share/collnoise/runs/no-such-shipped-run.toml"));
  CHECK(contains(r.output,
                 (fs::path(COLLNOISE_SOURCE_DIR) / "runs/no-such-shipped-run.toml").string()));
  CHECK(contains(r.output, "chen-suda-fig8"));  // the names shipped
  CHECK(r.output.find('\n') == r.output.size() - 1);
  // A path (with a directory) is never looked up among the shipped run files.
  const auto path = run_command_line("run ./no-such-shipped-run.toml --quiet");
  CHECK(path.code == 2);
  CHECK_FALSE(contains(path.output, "share/collnoise"));
}
