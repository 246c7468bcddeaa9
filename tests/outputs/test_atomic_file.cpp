// Outputs are written through a temporary (outputs/atomic_file.hpp) named after this host and
// process: the temporaries of killed runs of this host are removed by the next run, those of
// living processes and other hosts are left alone.
#include <unistd.h>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "outputs/atomic_file.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

namespace fs = std::filesystem;

namespace {

using namespace collnoise::testing;

const std::string kSmall = small_tree_sweep_run("hard", "law = \"pareto\"\na = 2.5\nf = 0.01\n");

// A run of a few seconds, for locks and signals.
const std::string kLong = long_tree_run("hard-long");

}  // namespace

TEST_CASE("temporaries of killed runs of this host are removed, others are left alone") {
  write_text("h3.toml", kSmall);
  const std::string me = collnoise::host_name();
  const std::string dead = "h3.h5.tmp-" + me + "-" + std::to_string(dead_pid());
  const std::string alive = "h3.h5.tmp-" + me + "-" + std::to_string(::getpid());
  const std::string foreign = "h3.h5.tmp-another-host.example-4242";
  for (const auto& name : {dead, alive, foreign}) write_text(name, "partial");
  const auto r = run_command_line("run h3.toml --out h3.h5 --force --quiet");
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK_FALSE(fs::exists(dead));
  CHECK(fs::exists(alive));
  CHECK(fs::exists(foreign));
  // The temporary a run writes through names this host and its pid.
  CHECK(collnoise::temporary_name("x.h5") == "x.h5.tmp-" + me + "-" + std::to_string(::getpid()));
  // SIGKILL leaves the temporary; the next run removes it.
  write_text("h3-long.toml", kLong);
  fs::remove("h3-long.h5");
  const auto killed =
      run_shell("sh -c '" + std::string(COLLNOISE_BINARY) +
                " run h3-long.toml --out h3-long.h5 --quiet --checkpoint-every 0 & pid=$!; "
                "for k in $(seq 400); do [ -e h3-long.h5.ckpt ] && break; sleep 0.02; done; "
                "kill -KILL $pid; wait $pid; echo exit=$?'");
  INFO(killed.output);
  CHECK(killed.output.find("exit=137") != std::string::npos);
  write_text("h3-long.h5.ckpt.tmp-" + me + "-" + std::to_string(dead_pid()), "partial");
  const auto next = run_command_line(
      "run h3-long.toml --out h3-long.h5 --quiet --resume h3-long.h5.ckpt --validate-only");
  CHECK(next.code == 0);
  const auto resumed =
      run_command_line("run h3-long.toml --out h3-long.h5 --quiet --resume h3-long.h5.ckpt");
  INFO(resumed.output);
  CHECK(resumed.code == 0);
  for (const auto& entry : fs::directory_iterator("."))
    CHECK(entry.path().filename().string().find("h3-long.h5.ckpt.tmp-") == std::string::npos);
}
