// Special files are never read as results nor written as outputs (docs/cli.md, "What collnoise
// promises"): a FIFO, a directory or a device given as a result, a part or a checkpoint is
// refused at once by every command, naming its path and what it is, and one named as an output
// (a result, a checkpoint, a lock) is refused and kept. A lock file that cannot be written fails
// the run (exit 1) and is not left behind; one left empty by a crash is taken over with a note.
// Every command that could block runs under `timeout`, so a regression fails instead of hanging.
#include <sys/stat.h>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <string>

#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

namespace fs = std::filesystem;

namespace {

using collnoise::testing::CommandResult;
using collnoise::testing::count_lines_starting;
using collnoise::testing::run_shell;
using collnoise::testing::slurp;
using collnoise::testing::small_schedule_run;
using collnoise::testing::write_text;

const std::string kDir = "special-files";
// SIGTERM after 10 s, SIGKILL 2 s later: a command that ignores SIGTERM fails too.
const std::string kTimeout = "timeout -k 2 10";

// A schedule run of 8 samples, replayable by `timeline`; well under a second.
const std::string kRun = small_schedule_run({.name = "special"});

struct Timed {
  CommandResult result;
  double seconds = 0.0;
};

// `collnoise args` under the timeout, in the shell (so that `prefix` may set a ulimit).
Timed timed(const std::string& args, const std::string& prefix = "") {
  const auto start = std::chrono::steady_clock::now();
  Timed t;
  t.result = run_shell(prefix + kTimeout + " " + COLLNOISE_BINARY + " " + args);
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return t;
}

std::string fifo(const std::string& name) {
  const std::string path = kDir + "/" + name;
  fs::remove(path);
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  return path;
}

bool is_fifo(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode);
}

// A result, written once for the tests of this file.
std::string good_result() {
  static const std::string path = [] {
    fs::create_directories(kDir);
    write_text(kDir + "/run.toml", kRun);
    const std::string out = kDir + "/good.h5";
    const auto r = run_shell(std::string(COLLNOISE_BINARY) + " run " + kDir + "/run.toml --out " +
                             out + " --force --quiet --no-checkpoint 2>&1");
    INFO(r.output);
    REQUIRE(r.code == 0);
    return out;
  }();
  return path;
}

// Refused at once (exit 2) with exactly the line `expected`, from collnoise itself (prefix
// "collnoise: error: ") or from `collnoise plot` ("collnoise plot: error: ").
void expect_refused_line(const Timed& t, const std::string& expected) {
  INFO(t.result.output);
  CHECK(t.result.code == 2);
  CHECK(t.seconds < 5.0);
  CHECK(t.result.output == expected + "\n");
}

}  // namespace

TEST_CASE("every command refuses a FIFO, a directory or a device given as a result, at once",
          "[special_files]") {
  const std::string good = good_result();
  write_text(kDir + "/measured.txt", "1.0e-5\n2.0e-5\n");
  fs::create_directories(kDir + "/result-dir");
  struct NotAFile {
    std::string path;
    std::string kind;
  };
  const NotAFile bad[] = {{fifo("result-fifo.h5"), "a FIFO (pipe)"},
                          {kDir + "/result-dir", "a directory"},
                          {"/dev/zero", "a character device"}};
  // Each command line with {} for the result (or part) given.
  const std::string commands[] = {
      "summary {}",
      "summary {} --no-verify",
      "verify {}",
      "timeline {} --sample 0 --out " + kDir + "/timeline.json",
      "compare {} " + kDir + "/measured.txt",
      "merge {} " + good + " --out " + kDir + "/merged.h5",
      "merge " + good + " {} --out " + kDir + "/merged.h5",
  };
  for (const NotAFile& b : bad) {
    const std::string refusal =
        "'" + b.path + "' is " + b.kind +
        ", not a regular file: results, parts and checkpoints are read only from regular files";
    for (std::string command : commands) {
      command.replace(command.find("{}"), 2, b.path);
      INFO("collnoise " << command);
      expect_refused_line(timed(command), "collnoise: error: " + refusal);
    }
    CHECK_FALSE(fs::exists(kDir + "/merged.h5"));
    CHECK_FALSE(fs::exists(kDir + "/timeline.json"));
    // collnoise plot (Python) refuses it in its own words, which are the same.
    for (const char* verify : {"", " --no-verify"}) {
      INFO("collnoise plot " << b.path << verify);
      expect_refused_line(timed("plot " + b.path + " --out " + kDir + "/figures" + verify),
                          "collnoise plot: error: " + refusal);
    }
  }
  CHECK(is_fifo(kDir + "/result-fifo.h5"));
}

TEST_CASE("run --resume naming a FIFO, a directory or a device is refused before it is opened",
          "[special_files]") {
  good_result();
  fs::create_directories(kDir + "/ckpt-dir");
  const std::pair<std::string, std::string> bad[] = {{fifo("ckpt-fifo"), "a FIFO (pipe)"},
                                                     {kDir + "/ckpt-dir", "a directory"},
                                                     {"/dev/zero", "a character device"}};
  for (const auto& [path, kind] : bad) {
    const Timed t =
        timed("run " + kDir + "/run.toml --out " + kDir + "/resumed.h5 --resume " + path);
    expect_refused_line(t, "collnoise: error: --resume: checkpoint '" + path + "' is " + kind +
                               ", not a regular file: results, parts and checkpoints are read "
                               "only from regular files");
    CHECK_FALSE(fs::exists(kDir + "/resumed.h5"));
    CHECK_FALSE(fs::exists(kDir + "/resumed.h5.lock"));
  }
  CHECK(is_fifo(kDir + "/ckpt-fifo"));
}

TEST_CASE("a FIFO named as an output, a checkpoint or a lock is refused and kept",
          "[special_files]") {
  const std::string good = good_result();
  const std::string run = "run " + kDir + "/run.toml --quiet --force";
  struct Case {
    std::string command;  ///< {} for the FIFO
    std::string role;     ///< as the message names it
    std::string fifo;     ///< its path (made before the command)
  };
  const Case cases[] = {
      {run + " --out {}", "--out", kDir + "/out-fifo.h5"},
      {run + " --out " + kDir + "/o1.h5 --checkpoint {}", "the checkpoint", kDir + "/ckpt.fifo"},
      {run + " --out " + kDir + "/o2.h5", "--out's lock", kDir + "/o2.h5.lock"},
      {run + " --out " + kDir + "/o3.h5", "the checkpoint", kDir + "/o3.h5.ckpt"},
      {"merge " + good + " --out {} --force", "--out", kDir + "/merge-fifo.h5"},
      {"timeline " + good + " --sample 0 --out {} --force", "--out", kDir + "/timeline-fifo"},
      {"compare " + good + " " + kDir + "/measured.txt --figure {} --force", "--figure",
       kDir + "/figure-fifo.png"},
  };
  write_text(kDir + "/measured.txt", "1.0e-5\n2.0e-5\n");
  for (const Case& c : cases) {
    fifo(fs::path(c.fifo).filename().string());
    std::string command = c.command;
    if (const auto at = command.find("{}"); at != std::string::npos) command.replace(at, 2, c.fifo);
    INFO("collnoise " << command);
    expect_refused_line(timed(command),
                        "collnoise: error: " + c.role + " '" + c.fifo +
                            "' is a FIFO (pipe): collnoise writes its outputs only as regular "
                            "files, so it is kept; name another path");
    CHECK(is_fifo(c.fifo));
  }
}

TEST_CASE("a lock file that cannot be written fails the run (exit 1) and is not left behind",
          "[special_files]") {
  good_result();
  const std::string out = kDir + "/limited.h5";
  fs::remove(out + ".lock");
  // A file-size limit of 0 blocks: the lock file is created, its record cannot be written
  // (EFBIG: collnoise ignores SIGXFSZ).
  const Timed t =
      timed("run " + kDir + "/run.toml --out " + out + " --quiet --force", "ulimit -f 0; ");
  INFO(t.result.output);
  if (t.result.output.find("ulimit") != std::string::npos) {
    WARN("the shell cannot set a file-size limit here: skipped");
    return;
  }
  CHECK(t.result.code == 1);
  CHECK(t.result.output == "collnoise: failure: cannot write the lock file '" + out +
                               ".lock' of output '" + out + "': File too large\n");
  CHECK_FALSE(fs::exists(out + ".lock"));
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("a lock left empty by a crash is taken over with a note, a file that is no lock is kept",
          "[special_files]") {
  good_result();
  const std::string run = "run " + kDir + "/run.toml --quiet --force --no-checkpoint --out ";
  const std::string empty = kDir + "/empty-lock.h5";
  write_text(empty + ".lock", "");
  const Timed taken = timed(run + empty);
  INFO(taken.result.output);
  CHECK(taken.result.code == 0);
  CHECK(taken.result.output == "collnoise: note: took over the lock '" + empty +
                                   ".lock', which records no holder (it is empty): a run stopped "
                                   "before it wrote its record\n");
  CHECK(fs::exists(empty));
  CHECK_FALSE(fs::exists(empty + ".lock"));

  // Cut short while it was written: the head of a record, no pid.
  const std::string cut = kDir + "/cut-lock.h5";
  write_text(cut + ".lock", "collnoise output lock\nhost");
  const Timed cut_taken = timed(run + cut);
  INFO(cut_taken.result.output);
  CHECK(cut_taken.result.code == 0);
  CHECK(count_lines_starting(cut_taken.result.output,
                             "collnoise: note: took over the lock '" + cut +
                                 ".lock', which records no holder (its record is cut short)") == 1);

  const std::string notes = kDir + "/notes-lock.h5";
  fs::remove(notes);
  write_text(notes + ".lock", "my notes\n");
  expect_refused_line(timed(run + notes),
                      "collnoise: error: output '" + notes + "' cannot be locked: '" + notes +
                          ".lock' is not a collnoise lock file (it records no holder): it is "
                          "kept; remove it or choose another --out");
  CHECK(slurp(notes + ".lock") == "my notes\n");
  CHECK_FALSE(fs::exists(notes));
}
