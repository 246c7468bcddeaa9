// Never lose a result, never crash: one test per case of the hardening work (docs/cli.md, "What
// collnoise promises"). Each runs the collnoise command as a user would, on small files, and
// checks the exit code, the one-line message naming the file, key or value at fault, and that no
// input or earlier result was destroyed.
#include <hdf5.h>
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "outputs/atomic_file.hpp"
#include "outputs/output_lock.hpp"
#include "tests/fixtures/command_line.hpp"

namespace fs = std::filesystem;

namespace {

using collnoise::testing::CommandResult;
using collnoise::testing::count_lines_starting;
using collnoise::testing::expect_refused;
using collnoise::testing::replace_text;
using collnoise::testing::run_command_line;
using collnoise::testing::run_shell;
using collnoise::testing::slurp;
using collnoise::testing::write_text;

const char* kSmall = R"(name = "hard"
seed = 5
samples = 400
chunk_size = 50
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 1.0e-6
[noise]
law = "pareto"
a = 2.5
f = 0.01
[sweep]
N = [7, 300]
)";

// A run of a few seconds, for locks and signals: per-rank sampling of 2^20 ranks.
const char* kLong = R"(name = "hard-long"
seed = 5
samples = 20000
chunk_size = 16
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 1.0e-6
log2_N = 20
[noise]
law = "exponential"
f = 0.01
)";

// Runs `args` in the background, sends `signal` after `delay_s`, and returns the output with
// "exit=<code>" appended and the seconds from the signal to the exit.
struct Stopped {
  CommandResult result;
  double seconds_after_signal = 0.0;
};

Stopped stop_after(const std::string& args, double delay_s, const char* signal = "TERM") {
  const auto start = std::chrono::steady_clock::now();
  Stopped s;
  s.result =
      run_shell("sh -c '" + std::string(COLLNOISE_BINARY) + " " + args + " & pid=$!; sleep " +
                std::to_string(delay_s) + "; kill -" + signal + " $pid; wait $pid; echo exit=$?'");
  s.seconds_after_signal =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() - delay_s;
  return s;
}

long dead_pid() {
  // A child that has exited and been reaped: its pid runs nothing now.
  const auto r = run_shell("sh -c 'echo $$'");
  return std::stol(r.output);
}

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
  // result.
  write_text("h4b.toml", replace_text(kLong, "samples = 20000", "samples = 3000"));
  fs::remove("h4b.h5");
  fs::remove_all("h4gone");
  fs::remove_all("h4moved");
  fs::create_directories("h4gone");
  const auto ckpt =
      run_shell("sh -c '" + std::string(COLLNOISE_BINARY) +
                " run h4b.toml --out h4b.h5 --checkpoint h4gone/c.ckpt "
                "--checkpoint-every 0.05 --quiet & pid=$!; sleep 0.3; mv h4gone h4moved; "
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

TEST_CASE("damaged files are refused before HDF5 reads them, verify, old and edited files") {
  write_text("h5.toml", kSmall);
  REQUIRE(run_command_line("run h5.toml --out h5.h5 --force --quiet").code == 0);
  REQUIRE(run_command_line("verify h5.h5").code == 0);
  const std::string good = slurp("h5.h5");
  // One flipped bit anywhere: refused (exit 2) naming the file, by summary and verify.
  for (const std::size_t at : {std::size_t{600}, good.size() / 2, good.size() - 3}) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    std::ofstream("h5-bad.h5", std::ios::binary) << bad;
    expect_refused(run_command_line("summary h5-bad.h5"), {"h5-bad.h5", "damaged"});
    const auto v = run_command_line("verify h5-bad.h5");
    CHECK(v.code == 2);
    CHECK(v.output.find("h5-bad.h5") != std::string::npos);
  }
  // Truncated.
  std::ofstream("h5-cut.h5", std::ios::binary) << good.substr(0, good.size() - 100);
  expect_refused(run_command_line("summary h5-cut.h5"), {"h5-cut.h5", "truncated"});
  // A file another program changed (an attribute added): fails verification; --no-verify reads.
  fs::copy_file("h5.h5", "h5-edited.h5", fs::copy_options::overwrite_existing);
  {
    const hid_t file = H5Fopen("h5-edited.h5", H5F_ACC_RDWR, H5P_DEFAULT);
    REQUIRE(file >= 0);
    const hid_t space = H5Screate(H5S_SCALAR);
    const int value = 1;
    const hid_t attr =
        H5Acreate2(file, "added_by_user", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attr, H5T_NATIVE_INT, &value);
    H5Aclose(attr);
    H5Sclose(space);
    H5Fclose(file);
  }
  expect_refused(run_command_line("summary h5-edited.h5"), {"h5-edited.h5", "--no-verify"});
  const auto edited = run_command_line("summary h5-edited.h5 --no-verify --json");
  CHECK(edited.code == 0);
  // A result written before files were sealed (by 645c846): read, with a note.
  const std::string old = std::string(COLLNOISE_SOURCE_DIR) + "/tests/fixtures/data/old-format-645c846.h5";
  const auto read_old = run_command_line("summary " + old);
  INFO(read_old.output);
  CHECK(read_old.code == 0);
  CHECK(read_old.output.find("carries no checksum") != std::string::npos);
  const auto verify_old = run_command_line("verify " + old);
  CHECK(verify_old.code == 0);
  CHECK(verify_old.output.find("no checksum") != std::string::npos);
  // Not HDF5 at all.
  expect_refused(run_command_line("summary h5.toml"), {"h5.toml"});
  // verify of several files: 2 when one is damaged, naming it.
  const auto several = run_command_line("verify h5.h5 h5-bad.h5");
  CHECK(several.code == 2);
  CHECK(several.output.find("h5-bad.h5") != std::string::npos);
}

TEST_CASE("huge time values are refused with their range, extreme valid ones finish") {
  write_text("h6.toml", kSmall);
  const std::string cycles = R"(name = "h6c"
seed = 1
replications = 3
[collective]
kind = "butterfly"
N = 16
cycles = 2
W = 1.0e-3
[noise]
law = "periodic"
P = 0.01
D = 1.0e-4
)";
  expect_refused(
      run_command_line("run " +
                       write_text("h6a.toml", replace_text(cycles, "P = 0.01", "P = 1e300")) +
                       " --validate-only"),
      {"noise.P", "1e+300", "1e+06"});
  expect_refused(
      run_command_line("run " +
                       write_text("h6b.toml", replace_text(cycles, "W = 1.0e-3", "W = 1e308")) +
                       " --validate-only"),
      {"collective.W", "1e+308"});
  expect_refused(
      run_command_line("run " +
                       write_text("h6c.toml", replace_text(kSmall, "w = 1.0e-3", "w = 1e300")) +
                       " --validate-only"),
      {"collective.w"});
  // At the ends of the ranges the engines finish without overflow (UBSan in CI).
  const std::string edge = replace_text(
      replace_text(replace_text(cycles, "P = 0.01", "P = 1.0e6"), "D = 1.0e-4", "D = 9.0e5"),
      "W = 1.0e-3", "W = 1.0e6");
  const auto r = run_command_line("run " + write_text("h6d.toml", edge) +
                                  " --out h6d.h5 --force --quiet --no-checkpoint");
  INFO(r.output);
  CHECK(r.code == 0);
}

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

TEST_CASE("a stop request ends every phase within seconds, exit 3") {
  // Sampling, with a checkpoint.
  write_text("h8.toml", kLong);
  fs::remove("h8.h5");
  fs::remove("h8.h5.ckpt");
  const auto sampling = stop_after("run h8.toml --out h8.h5 --quiet", 1.0);
  INFO(sampling.result.output);
  CHECK(sampling.result.output.find("exit=3") != std::string::npos);
  CHECK(sampling.result.output.find("resume with") != std::string::npos);
  CHECK(sampling.seconds_after_signal < 5.0);
  // Without checkpoints: exit 3, saying nothing was kept.
  const auto nothing = stop_after("run h8.toml --out h8.h5 --quiet --no-checkpoint", 1.0, "INT");
  INFO(nothing.result.output);
  CHECK(nothing.result.output.find("exit=3") != std::string::npos);
  CHECK(nothing.result.output.find("nothing was kept") != std::string::npos);
  // A long single chunk (one sample of 2^30 ranks takes about a second): abandoned.
  write_text("h8-chunk.toml", replace_text(replace_text(kLong, "log2_N = 20", "log2_N = 31"),
                                           "chunk_size = 16", "chunk_size = 64"));
  const auto chunk = stop_after("run h8-chunk.toml --out h8c.h5 --quiet --threads 1", 1.0);
  INFO(chunk.result.output);
  CHECK(chunk.result.output.find("exit=3") != std::string::npos);
  CHECK(chunk.seconds_after_signal < 5.0);
  // An analysis (N_1/2 with a long simulated check).
  write_text("h8-nhalf.toml", R"(name = "h8n"
kind = "nhalf"
seed = 4
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
sampling = "per_level"
[nhalf]
check_samples = 100000000
[noise]
law = "exponential"
f = 0.1
)");
  const auto analysis = stop_after("run h8-nhalf.toml --out h8n.h5 --quiet", 1.0);
  INFO(analysis.result.output);
  CHECK(analysis.result.output.find("exit=3") != std::string::npos);
  CHECK(analysis.result.output.find("nothing was kept") != std::string::npos);
  CHECK(analysis.seconds_after_signal < 5.0);
  // An isoefficiency curve of granularity imbalance (many samples of many jobs).
  write_text("h8-iso.toml", R"(name = "h8i"
kind = "isoefficiency"
seed = 3
samples = 100000
[isoefficiency]
efficiency = 0.8
imbalance = "granularity"
job_mean = 1.0
log2_m = [4, 8, 12, 16]
)");
  const auto iso = stop_after("run h8-iso.toml --out h8i.h5 --quiet", 1.0);
  INFO(iso.result.output);
  CHECK(iso.result.output.find("exit=3") != std::string::npos);
  CHECK(iso.seconds_after_signal < 5.0);
  // Preparing a sweep of many points.
  std::string sweep = replace_text(kSmall, "N = [7, 300]", "N = [");
  for (int n = 1; n <= 200000; ++n) sweep += std::to_string(n) + (n < 200000 ? ", " : "]\n");
  write_text("h8-sweep.toml", sweep);
  const auto prepare =
      stop_after("run h8-sweep.toml --out h8s.h5 --quiet --max-core-hours 1e6", 1.0);
  INFO(prepare.result.output);
  CHECK(prepare.result.output.find("exit=3") != std::string::npos);
  CHECK(prepare.seconds_after_signal < 5.0);
}

TEST_CASE("absurd counts are refused with the key and the estimate, never bad_alloc") {
  expect_refused(
      run_command_line("run " +
                       write_text("h9a.toml", std::string(kSmall) + "[output]\nhistogram_bins = "
                                                                    "100000000000\n") +
                       " --validate-only"),
      {"output.histogram_bins", "100000000000"});
  const std::string raw = replace_text(std::string(kSmall) + "[output]\nraw_samples = true\n",
                                       "samples = 400", "samples = 20000000000");
  expect_refused(run_command_line("run " + write_text("h9b.toml", raw) +
                                  " --validate-only --max-core-hours 1e9"),
                 {"GiB", "memory", "samples", "--max-memory-gib"});
  // A memory limit of the user's.
  expect_refused(run_command_line("run " + write_text("h9c.toml", kSmall) +
                                  " --validate-only --max-memory-gib 0.00001"),
                 {"memory", "limit"});
  // A sweep of more points than a run may hold.
  std::string sweep = replace_text(kSmall, "N = [7, 300]", "N = [1, 2, 3]\n\"noise.f\" = [");
  for (int k = 1; k <= 400000; ++k) sweep += "0.01, ";
  sweep += "0.01]\n";
  expect_refused(run_command_line("run " + write_text("h9d.toml", sweep) + " --validate-only"),
                 {"points", "at most"});
  // A huge sample count in the run file, and a negative one.
  expect_refused(
      run_command_line(
          "run " + write_text("h9e.toml", replace_text(kSmall, "samples = 400", "samples = -5")) +
          " --validate-only"),
      {"samples", "-5"});
}

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

TEST_CASE("non-finite numbers are documented values or null with a reason, valid JSON") {
  // Degenerate and extreme laws: Pareto near its limit, a noiseless point, huge and tiny f.
  const std::string cases = R"(name = "h11"
seed = 2
samples = 200
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 0.0
[[case]]
"noise.law" = "pareto"
"noise.a" = 1.01
"noise.f" = 0.999999
[[case]]
"noise.law" = "none"
[[case]]
"noise.law" = "bernoulli"
"noise.p" = 1.0
"noise.T" = 1.0e-3
[[case]]
"noise.law" = "pareto"
"noise.a" = 1.01
"noise.f" = 1.0e-12
[sweep]
N = [1, 2, 1000]
)";
  write_text("h11.toml", cases);
  fs::remove("h11.h5");
  const auto r = run_command_line("run h11.toml --out h11.h5 --quiet");
  INFO(r.output);
  REQUIRE(r.code == 0);
  const auto json = run_command_line("summary h11.h5 --json");
  REQUIRE(json.code == 0);
  for (const char* token : {"NaN", "Infinity", "nan", "inf,"})
    CHECK(json.output.find(token) == std::string::npos);
  // Every null carries its reason: count "null" values and "_reason" keys per point.
  std::size_t nulls = 0;
  std::size_t reasons = 0;
  for (std::size_t at = 0; (at = json.output.find(": null", at)) != std::string::npos; ++at)
    ++nulls;
  for (std::size_t at = 0; (at = json.output.find("_reason\":", at)) != std::string::npos; ++at)
    ++reasons;
  CHECK(nulls > 0);
  CHECK(reasons == nulls);
}

TEST_CASE("out-of-range integers are refused with the accepted range") {
  write_text("h12.toml", kSmall);
  expect_refused(run_command_line("run h12.toml --seed -1 --validate-only"),
                 {"--seed -1", "18446744073709551615"});
  expect_refused(run_command_line("run h12.toml --seed 18446744073709551616 --validate-only"),
                 {"18446744073709551616", "[0, 18446744073709551615]"});
  expect_refused(
      run_command_line("run " +
                       write_text("h12b.toml", replace_text(kSmall, "seed = 5", "seed = -1")) +
                       " --validate-only"),
      {"seed", "-1"});
  expect_refused(run_command_line("run " +
                                  write_text("h12c.toml", replace_text(kSmall, "chunk_size = 50",
                                                                       "chunk_size = 0")) +
                                  " --validate-only"),
                 {"chunk_size"});
  expect_refused(
      run_command_line("run " +
                       write_text("h12d.toml", replace_text(kSmall, "N = [7, 300]", "N = [-3]")) +
                       " --validate-only"),
      {"N", "-3"});
  expect_refused(run_command_line("run h12.toml --threads -2 --validate-only"), {"--threads"});
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
