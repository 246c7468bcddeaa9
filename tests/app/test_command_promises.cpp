// Promises every command keeps (docs/cli.md, "What collnoise promises"), checked end to end with
// the binary: a standard output that cannot be written is a failure, and a signal ends a command
// with exit code 3 and a message.
#include <catch2/catch.hpp>

#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

using namespace collnoise::testing;

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const std::string kSmallRun = small_schedule_run({.name = "promises", .raw_samples = true});

// A failure as promised: exit 1 and exactly one line saying what failed.
void expect_failure(const CommandResult& r, const std::string& needle) {
  INFO(r.output);
  CHECK(r.code == 1);
  CHECK(count_lines_starting(r.output, "collnoise: failure:") == 1);
  CHECK(count_lines_starting(r.output, "collnoise: error:") == 0);
  CHECK(r.output.find(needle) != std::string::npos);
}

// The temporaries (<name>.tmp-<host>-<pid>, Python's .<name>.*.tmp) beside outputs named
// `stem`*.
std::vector<std::string> temporaries(const std::string& stem) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(".")) {
    const std::string name = entry.path().filename().string();
    if ((name.starts_with(stem) || name.starts_with("." + stem)) &&
        name.find(".tmp") != std::string::npos)
      found.push_back(name);
  }
  return found;
}

// A result of 4096 ranks whose timeline, every rank shown, takes seconds to write.
void write_large_result(const std::string& stem) {
  write_text(stem + ".toml", replace_text(replace_text(kSmallRun, "log2_N = 3", "log2_N = 12"),
                                          "samples = 8", "samples = 2"));
  REQUIRE(run_command_line("run " + stem + ".toml --out " + stem + ".h5 --force --quiet").code ==
          0);
}

// `collnoise args` run inside braces, so that a redirection of its stdout in `args` leaves its
// stderr to be captured.
CommandResult in_braces(const std::string& args) {
  return run_shell("{ " + std::string(COLLNOISE_BINARY) + " " + args + "; }");
}

// Bad input as promised: exit 2 and one line.
void expect_refused_line(const CommandResult& r, const std::string& needle) {
  expect_refused(r, {needle});
}

}  // namespace

TEST_CASE("a standard output that cannot be written is a failure, for every command") {
  if (!fs::exists("/dev/full")) {
    WARN("no /dev/full on this machine: not checked");
    return;
  }
  write_text("pr_full.toml", kSmallRun);
  REQUIRE(run_command_line("run pr_full.toml --out pr_full.h5 --force --quiet").code == 0);
  write_text("pr_full_measured.txt", "4.5e-6\n4.6e-6\n4.7e-6\n4.55e-6\n");
  const std::string expected =
      "collnoise: failure: could not write standard output: No space "
      "left on device";
  expect_failure(in_braces("summary pr_full.h5 > /dev/full"), expected);
  expect_failure(in_braces("summary pr_full.h5 --json > /dev/full"), expected);
  expect_failure(in_braces("verify pr_full.h5 > /dev/full"), expected);
  expect_failure(
      in_braces("run pr_full.toml --out pr_full2.h5 --force --progress none > /dev/full"),
      expected);
  expect_failure(in_braces("compare pr_full.h5 pr_full_measured.txt --unit s > /dev/full"),
                 expected);
  // The same commands to a standard output that takes them: exit 0.
  CHECK(run_command_line("summary pr_full.h5 > /dev/null").code == 0);
  CHECK(run_command_line("verify pr_full.h5 > /dev/null").code == 0);
}

TEST_CASE("timeline stopped by SIGTERM exits 3, says what was written and leaves no temporary") {
  write_large_result("pr_signal");
  fs::remove_all("pr_signal.json");
  fs::remove_all("pr_signal_otf2");
  // The replay and the writing take seconds: the signal comes during them.
  const auto started = std::chrono::steady_clock::now();
  const auto r = run_shell("{ " + std::string(COLLNOISE_BINARY) +
                           " timeline pr_signal.h5 --sample 1 --ranks 0-4095 --out pr_signal.json "
                           "--otf2 pr_signal_otf2 & p=$!; sleep 0.5; kill -TERM $p; wait $p; "
                           "echo exit=$?; }");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  INFO(r.output);
  CHECK(r.output.find("exit=3") != std::string::npos);
  CHECK(count_lines_starting(r.output, "collnoise: interrupted by signal 15 while ") == 1);
  CHECK(r.output.find("nothing was written") != std::string::npos);
  CHECK_FALSE(fs::exists("pr_signal.json"));
  CHECK_FALSE(fs::exists("pr_signal_otf2"));
  CHECK(temporaries("pr_signal").empty());
  CHECK(seconds < 2.5);  // polled within about a second, not at the end of the work
}

TEST_CASE("timeline stopped while Python draws the figure stops Python, which removes its files") {
  write_text("pr_figure.toml", kSmallRun);
  REQUIRE(run_command_line("run pr_figure.toml --out pr_figure.h5 --force --quiet").code == 0);
  // Python made slow at its start (a sitecustomize on PYTHONPATH): it holds a temporary of the
  // figure, as when it writes one, and removes it when SIGINT interrupts it.
  fs::create_directories("pr_figure_site");
  write_text("pr_figure_site/sitecustomize.py", R"(import os, time
if os.environ.get("PR_FIGURE_SLOW"):
    tmp = ".pr_figure.png.x.tmp"
    open(tmp, "w").close()
    try:
        time.sleep(30)
    except KeyboardInterrupt:
        os.unlink(tmp)
        os._exit(130)
)");
  fs::remove("pr_figure.json");
  const auto r = run_shell(
      "{ PR_FIGURE_SLOW=1 PYTHONPATH=pr_figure_site " + std::string(COLLNOISE_BINARY) +
      " timeline pr_figure.h5 --sample 1 --out pr_figure.json --figure pr_figure.png & p=$!; "
      "sleep 1; kill -TERM $p; wait $p; echo exit=$?; }");
  INFO(r.output);
  if (r.output.find("cannot start") != std::string::npos) {
    WARN("no Python to draw the figure: not checked");
    return;
  }
  CHECK(r.output.find("exit=3") != std::string::npos);
  CHECK(count_lines_starting(r.output,
                             "collnoise: interrupted by signal 15 while drawing the "
                             "figure: wrote only 'pr_figure.json'") == 1);
  CHECK(fs::exists("pr_figure.json"));
  CHECK_FALSE(fs::exists("pr_figure.png"));
  CHECK(temporaries("pr_figure").empty());
}

TEST_CASE("timeline out of memory is refused or fails with one line, never an abort") {
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer reserves terabytes of address space for its shadow memory: under any
  // `ulimit -v` the binary cannot even load.
  WARN("an AddressSanitizer build cannot run under ulimit -v: not checked");
  return;
#endif
  write_large_result("pr_memory");
  // 200 MB of address space: the timeline of 4096 ranks needs more.
  const auto probe = run_shell("ulimit -v 200000 && echo limited");
  if (probe.output.find("limited") == std::string::npos) {
    WARN("ulimit -v cannot be set here: not checked");
    return;
  }
  fs::remove("pr_memory.json");
  const auto r = run_shell("ulimit -v 200000; " + std::string(COLLNOISE_BINARY) +
                           " timeline pr_memory.h5 --sample 1 --ranks 0-4095 --out pr_memory.json");
  INFO(r.output);
  CHECK((r.code == 1 || r.code == 2));
  CHECK(count_lines_starting(r.output, "collnoise: failure: out of memory") +
            count_lines_starting(r.output, "collnoise: error: the timeline of the 4096 ranks") ==
        1);
  CHECK(r.output.find("terminate") == std::string::npos);
  CHECK_FALSE(fs::exists("pr_memory.json"));
  CHECK(temporaries("pr_memory").empty());
  // The estimate, beyond a limit given: refused before the replay.
  expect_refused_line(run_command_line("timeline pr_memory.h5 --sample 1 --ranks 0-4095 --out "
                                       "pr_memory.json --max-memory-gib 0.1"),
                      "the timeline of the 4096 ranks shown (fewer with --ranks) would need about");
}
