// A write that fails (a file-size limit, a full disk, a checkpoint folder gone) never crashes:
// exit 1 with one line saying what was lost, failed checkpoints are retried while sampling goes
// on, and a finished run that cannot be written is kept in a checkpoint to resume from.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

namespace fs = std::filesystem;

namespace {

using namespace collnoise::testing;

const std::string kSmall = small_tree_sweep_run("hard", "law = \"pareto\"\na = 2.5\nf = 0.01\n");

// A run of a few seconds, for locks and signals.
const std::string kLong = long_tree_run("hard-long");

}  // namespace

TEST_CASE("a full disk never crashes: failed checkpoints are retried, the result is kept") {
  write_text("h4.toml", kSmall);
  fs::remove("h4.h5");
  // A file-size limit makes every write past 20 KiB fail (EFBIG), like a full disk.
  const auto small = run_shell("sh -c 'ulimit -f 20; " + std::string(COLLNOISE_BINARY) +
                               " run h4.toml --out h4.h5 --quiet; echo exit=$?'");
  INFO(small.output);
  CHECK(small.output.find("exit=1") != std::string::npos);
  CHECK(count_lines_starting(small.output, "collnoise: failure:") == 1);
  CHECK(small.output.find("h4.h5") != std::string::npos);
  CHECK(small.output.find("File too large") != std::string::npos);
  CHECK(small.output.find("could not be kept") != std::string::npos);  // says what was lost
  CHECK_FALSE(fs::exists("h4.h5"));

  // Checkpoints fail (their directory becomes a file), the run goes on, warns once, and writes its
  // result. The directory is moved once the first checkpoint is there, not after a fixed pause: a
  // sanitized binary on a loaded machine may take longer than any pause to start.
  write_text("h4b.toml", replace_text(kLong, "samples = 20000", "samples = 3000"));
  fs::remove("h4b.h5");
  fs::remove_all("h4gone");
  fs::remove_all("h4moved");
  fs::create_directories("h4gone");
  const auto ckpt =
      run_shell("sh -c '" + std::string(COLLNOISE_BINARY) +
                " run h4b.toml --out h4b.h5 --checkpoint h4gone/c.ckpt "
                "--checkpoint-every 0.05 --quiet & pid=$!; "
                "for i in $(seq 600); do [ -e h4gone/c.ckpt ] && break; sleep 0.05; done; "
                "mv h4gone h4moved; "
                ": > h4gone; "
                "wait $pid; echo exit=$?' 2>&1");
  INFO(ckpt.output);
  CHECK(ckpt.output.find("exit=0") != std::string::npos);
  CHECK(count_lines_starting(ckpt.output, "collnoise: warning: checkpoint") == 1);
  CHECK(ckpt.output.find("sampling goes on") != std::string::npos);
  CHECK(run_command_line("verify h4b.h5").code == 0);

  // A checkpoint path that cannot even be created is refused before sampling.
  expect_refused(run_command_line("run h4.toml --out h4c.h5 --checkpoint /dev/full/x --quiet"),
                 {"/dev/full/x"});

  // On a small tmpfs (where this process may mount one): a real full disk.
  fs::create_directories("h4fs");
  fs::create_directories("h4tmp");
  const auto mounted = run_shell("mount -t tmpfs -o size=48k tmpfs h4fs");
  if (mounted.code != 0) {
    WARN("cannot mount a tmpfs here: the full-disk case is tested with ulimit -f only");
    return;
  }
  // The result (and the run's own checkpoint beside it) do not fit; the finished run is kept in
  // a checkpoint in TMPDIR.
  const auto full = run_shell("sh -c 'TMPDIR=h4tmp " + std::string(COLLNOISE_BINARY) +
                              " run h4b.toml --out h4fs/r.h5 --quiet; echo exit=$?'");
  run_shell("umount h4fs");
  INFO(full.output);
  CHECK(full.output.find("exit=1") != std::string::npos);
  CHECK(count_lines_starting(full.output, "collnoise: failure:") == 1);
  CHECK(full.output.find("No space left on device") != std::string::npos);
  CHECK(full.output.find("kept in the checkpoint 'h4tmp/") != std::string::npos);
  // Resuming from it writes the result without sampling again.
  std::string kept_at;
  for (const auto& entry : fs::directory_iterator("h4tmp"))
    if (entry.path().extension() == ".ckpt") kept_at = entry.path().string();
  REQUIRE_FALSE(kept_at.empty());
  const auto resumed =
      run_command_line("run h4b.toml --out h4r.h5 --resume " + kept_at + " --quiet --force");
  INFO(resumed.output);
  CHECK(resumed.code == 0);
  CHECK(run_command_line("verify h4r.h5").code == 0);
}
