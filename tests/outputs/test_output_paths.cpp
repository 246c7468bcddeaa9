// An output is never one of the run's inputs (docs/cli.md, "What collnoise promises"): --out
// or --checkpoint naming the run file, a data file, a part being merged or the other output, by
// any spelling (a link, "./", a hard link), is refused before sampling and the file is kept.
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

TEST_CASE("an output that is an input or the other output is refused before sampling") {
  const std::string runfile = write_text("h1.toml", kSmall);
  const std::string original = slurp(runfile);
  write_text("h1-trace.txt", "0 100\n1000 1100\n");
  fs::remove("h1.h5");
  expect_refused(run_command_line("run h1.toml --out h1.h5 --checkpoint h1.h5 --quiet"),
                 {"'h1.h5'", "checkpoint"});
  CHECK_FALSE(fs::exists("h1.h5"));
  expect_refused(run_command_line("run h1.toml --out h1.h5 --checkpoint h1.toml --quiet"),
                 {"h1.toml", "checkpoint"});
  expect_refused(run_command_line("run h1.toml --out h1.toml --force --quiet"),
                 {"--out", "h1.toml", "run file"});
  // Another spelling of the same file: a link, a path through "./".
  fs::remove("h1-link.toml");
  fs::create_symlink("h1.toml", "h1-link.toml");
  expect_refused(run_command_line("run h1.toml --out h1-link.toml --force --quiet"),
                 {"h1-link.toml", "h1.toml"});
  expect_refused(run_command_line("run h1.toml --out ./h1.toml --force --quiet"), {"h1.toml"});
  // A hard link: another name, the same inode.
  fs::remove("h1-hard.toml");
  fs::create_hard_link("h1.toml", "h1-hard.toml");
  expect_refused(run_command_line("run h1.toml --out h1-hard.toml --force --quiet"),
                 {"h1-hard.toml"});
  CHECK(slurp(runfile) == original);
  // A data file the run reads.
  write_text("h1-trace.toml", replace_text(kSmall, "law = \"pareto\"\na = 2.5\nf = 0.01",
                                           "law = \"trace\"\nfile = \"h1-trace.txt\""));
  const std::string trace = slurp("h1-trace.txt");
  expect_refused(run_command_line("run h1-trace.toml --out h1-trace.txt --force --quiet"),
                 {"h1-trace.txt", "data file"});
  expect_refused(
      run_command_line("run h1-trace.toml --out h1t.h5 --checkpoint h1-trace.txt --quiet"),
      {"h1-trace.txt"});
  CHECK(slurp("h1-trace.txt") == trace);
  // A part being merged.
  REQUIRE(run_command_line("run h1.toml --out h1p1.h5 --part 1/2 --force --quiet").code == 0);
  REQUIRE(run_command_line("run h1.toml --out h1p2.h5 --part 2/2 --force --quiet").code == 0);
  const std::string part = slurp("h1p1.h5");
  expect_refused(run_command_line("merge h1p1.h5 h1p2.h5 --out h1p1.h5 --force --quiet"),
                 {"h1p1.h5", "part"});
  CHECK(slurp("h1p1.h5") == part);
}
