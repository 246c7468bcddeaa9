// Exit codes and error lines (docs/cli.md): every path ends with the documented code, and an
// error is one line, HDF5's own error stack only with --verbose.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

namespace fs = std::filesystem;

namespace {

using namespace collnoise::testing;

const std::string kSmall = small_tree_sweep_run("hard", "law = \"pareto\"\na = 2.5\nf = 0.01\n");

}  // namespace

TEST_CASE("errors are one line, HDF5's own stack only with --verbose") {
  std::ofstream("h10.h5", std::ios::binary)
      << std::string("\x89HDF\r\n\x1a\n", 8) << std::string(2000, 'x');
  const auto quiet = run_command_line("summary h10.h5");
  INFO(quiet.output);
  CHECK(quiet.code == 2);
  CHECK(count_lines_starting(quiet.output, "collnoise: error:") == 1);
  CHECK(quiet.output.find("h10.h5") != std::string::npos);
  CHECK(quiet.output.find("HDF5-DIAG") == std::string::npos);
  const auto verbose = run_command_line("--verbose summary h10.h5");
  CHECK(verbose.code == 2);
  CHECK(verbose.output.find("HDF5") != std::string::npos);
  // A Boost failure inside a law's parameters comes through as one line naming the key.
  expect_refused(
      run_command_line("run " +
                       write_text("h10.toml", replace_text(kSmall, "a = 2.5", "a = 1.0000000001")) +
                       " --validate-only"),
      {"noise.a"});
}

TEST_CASE("exit codes follow docs/cli.md in every path") {
  write_text("h13.toml", kSmall);
  fs::remove("h13.h5");
  CHECK(run_command_line("run h13.toml --out h13.h5 --quiet").code == 0);
  // Bad input: 2.
  CHECK(run_command_line("run h13.toml --out h13.h5 --quiet").code == 2);  // exists, no --force
  CHECK(run_command_line("run missing.toml --quiet").code == 2);
  CHECK(run_command_line("run h13.toml --bogus-option").code == 2);
  CHECK(run_command_line("").code == 2);
  CHECK(run_command_line("summary missing.h5").code == 2);
  CHECK(run_command_line("verify missing.h5").code == 2);
  REQUIRE(run_command_line("run h13.toml --out h13p.h5 --part 1/2 --quiet --force").code == 0);
  CHECK(run_command_line("merge h13p.h5 --out h13m.h5 --quiet").code == 2);  // a part missing
  CHECK(run_command_line("run h13.toml --part 3/2 --quiet").code == 2);
  CHECK(run_command_line("run h13.toml --out /nonexistent_dir/x.h5 --quiet").code == 2);
  CHECK(run_command_line("run h13.toml --resume missing.ckpt --quiet").code == 2);
  CHECK(run_command_line("run h13.toml --out h13r.h5 --resume h13.h5 --quiet").code == 2);
  // A runtime failure: 1 (a write that cannot complete).
  const auto fault = run_shell("sh -c 'ulimit -f 8; " + std::string(COLLNOISE_BINARY) +
                               " run h13.toml --out h13f.h5 --quiet; echo exit=$?'");
  CHECK(fault.output.find("exit=1") != std::string::npos);
  // Interrupted: 3.
  CHECK(run_command_line("run h13.toml --out h13i.h5 --quiet --interrupt-after-chunks 1").code ==
        3);
  CHECK(run_command_line("--version").code == 0);
  CHECK(run_command_line("run --help").code == 0);
}
