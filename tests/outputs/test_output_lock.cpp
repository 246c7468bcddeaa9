// One writer per output (outputs/output_lock.hpp): a second run or merge on a locked --out is
// refused naming the holder, a lock of a process of this host that no longer runs is taken over
// with a note, and one of another host is never taken over.
#include <unistd.h>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "outputs/atomic_file.hpp"
#include "outputs/output_lock.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

namespace fs = std::filesystem;

namespace {

using namespace collnoise::testing;

const std::string kSmall = small_tree_sweep_run("hard", "law = \"pareto\"\na = 2.5\nf = 0.01\n");

// A run of a few seconds, for locks and signals.
const std::string kLong = long_tree_run("hard-long");

}  // namespace

TEST_CASE("one writer per output: a second run is refused, stale locks are taken over") {
  write_text("h2.toml", kSmall);
  fs::remove("h2.h5");
  {
    // This test process holds the lock, as a first run would.
    const collnoise::OutputLock held("h2.h5", [](const std::string&) {});
    const auto second = run_command_line("run h2.toml --out h2.h5 --quiet");
    expect_refused(
        second, {"h2.h5", "pid " + std::to_string(::getpid()), "host " + collnoise::host_name()});
    CHECK_FALSE(fs::exists("h2.h5"));
    // merge --out is locked the same way.
    REQUIRE(run_command_line("run h2.toml --out h2p1.h5 --part 1/2 --force --quiet").code == 0);
    REQUIRE(run_command_line("run h2.toml --out h2p2.h5 --part 2/2 --force --quiet").code == 0);
    expect_refused(run_command_line("merge h2p1.h5 h2p2.h5 --out h2.h5 --quiet"),
                   {"h2.h5", "pid " + std::to_string(::getpid())});
  }
  CHECK_FALSE(fs::exists("h2.h5.lock"));  // released with its holder

  // Two real runs at once on one --out: the second is refused at once.
  write_text("h2-long.toml", kLong);
  fs::remove("h2-long.h5");
  const auto both = run_shell(
      "sh -c '" + std::string(COLLNOISE_BINARY) +
      " run h2-long.toml --out h2-long.h5 --quiet --no-checkpoint & pid=$!; "
      "for k in $(seq 200); do [ -e h2-long.h5.lock ] && break; sleep 0.02; done; " +
      COLLNOISE_BINARY +
      " run h2-long.toml --out h2-long.h5 --quiet --force; echo second=$?; kill -TERM $pid; "
      "wait $pid'");
  INFO(both.output);
  CHECK(both.output.find("second=2") != std::string::npos);
  CHECK(both.output.find("in use by another collnoise run") != std::string::npos);

  // A lock left by a process of this host that no longer runs: taken over with a note.
  const long gone = dead_pid();
  write_text("h2.h5.lock", "collnoise output lock\nhost " + collnoise::host_name() + "\npid " +
                               std::to_string(gone) + "\nstarted 2026-01-01T00:00:00Z\n");
  const auto stale = run_command_line("run h2.toml --out h2.h5 --force --quiet");
  INFO(stale.output);
  CHECK(stale.code == 0);
  CHECK(stale.output.find("took over the lock") != std::string::npos);
  CHECK(stale.output.find("pid " + std::to_string(gone)) != std::string::npos);
  CHECK_FALSE(fs::exists("h2.h5.lock"));

  // A lock recorded by another host is never taken over: the message says how to remove it.
  write_text("h2.h5.lock", "collnoise output lock\nhost another-host.example\npid 4242\n");
  expect_refused(run_command_line("run h2.toml --out h2.h5 --force --quiet"),
                 {"another-host.example", "pid 4242", "remove 'h2.h5.lock'"});
  CHECK(fs::exists("h2.h5.lock"));
  fs::remove("h2.h5.lock");
}
