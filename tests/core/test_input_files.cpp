// Only regular files are read as inputs (docs/cli.md, "What collnoise promises"): a directory, a
// FIFO or a device named as a data file is refused at once with its path and what it is; a run
// file may come from a pipe, read whole before anything else; a UTF-8 byte-order mark at the start
// of a text input is skipped. Each test runs the collnoise command as a user would; every command
// that could block runs under `timeout`, so a regression fails instead of hanging the suite.
#include <sys/stat.h>
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "tests/fixtures/command_line.hpp"

namespace fs = std::filesystem;

namespace {

using collnoise::testing::CommandResult;
using collnoise::testing::replace_text;
using collnoise::testing::run_command_line;
using collnoise::testing::run_shell;
using collnoise::testing::write_text;

const std::string kDir = "input-files";
// SIGTERM after 10 s, SIGKILL 2 s later: a command that ignores SIGTERM fails too.
const std::string kTimeout = "timeout -k 2 10";

const std::string kByteOrderMark = "\xEF\xBB\xBF";

// The data files of a two-rank schedule, in `dir`, each with a byte-order mark if its name is in
// `marked`.
void write_data_files(const std::string& dir, const std::vector<std::string>& marked = {}) {
  fs::create_directories(dir);
  const auto put = [&](const std::string& name, const std::string& text) {
    const bool mark = std::find(marked.begin(), marked.end(), name) != marked.end();
    write_text(dir + "/" + name, (mark ? kByteOrderMark : "") + text);
  };
  put("two.goal",
      "num_ranks 2\nrank 0 {\nl1: send 1b to 1 tag 0\n}\nrank 1 {\nl1: recv 1b from 0 tag 0\n}\n");
  // Netgauge LogGP (us): L = 3, o_s = 0.4, o_r = 0.6, g = 1, G = 0.
  put("ng_loggp.out",
      "# size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s) L o_s o_r g G lsqu(g,G)\n"
      "1 16 6 30 120 3 0.4 0.6 1 0 0\n");
  put("lat.out", "#size\trtt\n1\t10\n1\t14\n1\t11\n");
  put("trace.txt", "0\t700\n1500\t300\n4000\t900\n");
  put("delays.txt", "1.0e-6\n3.0e-6\n2.5e-5\n");
}

// A schedule run reading a GOAL file, a LogGP file, latency samples and a detour trace, named
// `prefix` + the file's name.
std::string schedule_run(const std::string& prefix) {
  return R"(name = "inputs"
seed = 11
samples = 40
chunk_size = 10
[collective]
kind = "schedule"
goal = ")" +
         prefix + R"(two.goal"
[loggops]
file = ")" +
         prefix + R"(ng_loggp.out"
[latency]
file = ")" +
         prefix + R"(lat.out"
[noise]
law = "trace"
file = ")" +
         prefix + R"(trace.txt"
)";
}

// A tree barrier with measured delays (an empirical law).
std::string delays_run(const std::string& file) {
  return R"(name = "delays"
seed = 12
samples = 200
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 1.0e-6
N = 7
[noise]
law = "empirical"
file = ")" +
         file + "\"\n";
}

std::string summary_of(const std::string& result) {
  const CommandResult r = run_command_line("summary " + result + " --json");
  REQUIRE(r.code == 0);
  return r.output;
}

// Runs `run_file` into `out` (replaced) and returns its summary.
std::string run_and_summarize(const std::string& run_file, const std::string& out) {
  fs::remove(out);
  const CommandResult r = run_command_line("run " + run_file + " --out " + out + " --quiet");
  INFO(r.output);
  REQUIRE(r.code == 0);
  return summary_of(out);
}

struct Timed {
  CommandResult result;
  double seconds = 0.0;
};

Timed timed(const std::string& command) {
  const auto start = std::chrono::steady_clock::now();
  Timed t;
  t.result = run_shell(command);
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return t;
}

}  // namespace

TEST_CASE("a directory, a FIFO or a device named as a data file is refused at once, naming it",
          "[input_files]") {
  write_data_files(kDir);
  fs::create_directories(kDir + "/a-dir");
  fs::remove(kDir + "/a-fifo");
  REQUIRE(::mkfifo((kDir + "/a-fifo").c_str(), 0600) == 0);
  struct NotAFile {
    std::string value;  ///< as the run file names it (relative to the run file's folder)
    std::string path;   ///< as the message names it
    std::string kind;
  };
  const NotAFile bad[] = {{"a-dir", kDir + "/a-dir", "is a directory"},
                          {"a-fifo", kDir + "/a-fifo", "is a FIFO"},
                          {"/dev/zero", "/dev/zero", "is a character device"}};
  struct Role {
    std::string what;
    std::string from, to;  ///< the data file replaced in a working run file
    bool delays = false;
  };
  const Role roles[] = {
      {"GOAL file", "goal = \"two.goal\"", "goal = \"{}\""},
      {"trace file", "law = \"trace\"\nfile = \"trace.txt\"", "law = \"trace\"\nfile = \"{}\""},
      {"LogGP file", "[loggops]\nfile = \"ng_loggp.out\"", "[loggops]\nfile = \"{}\""},
      {"latency samples file", "[latency]\nfile = \"lat.out\"", "[latency]\nfile = \"{}\""},
      {"delay samples file", "file = \"delays.txt\"", "file = \"{}\"", true},
  };
  // The run files work with the real data files.
  REQUIRE(run_command_line("run " + write_text(kDir + "/good.toml", schedule_run("")) +
                           " --validate-only")
              .code == 0);
  REQUIRE(run_command_line("run " +
                           write_text(kDir + "/good-delays.toml", delays_run("delays.txt")) +
                           " --validate-only")
              .code == 0);
  for (const Role& role : roles) {
    for (const NotAFile& b : bad) {
      const std::string good = role.delays ? delays_run("delays.txt") : schedule_run("");
      std::string to = role.to;
      to.replace(to.find("{}"), 2, b.value);
      const std::string run_file =
          write_text(kDir + "/bad.toml", replace_text(good, role.from, to));
      const Timed t =
          timed(kTimeout + " " + COLLNOISE_BINARY + " run " + run_file + " --validate-only");
      INFO(role.what << " '" << b.value << "': " << t.result.output);
      CHECK(t.result.code == 2);
      CHECK(t.seconds < 5.0);
      CHECK(t.result.output.find(b.path) != std::string::npos);
      CHECK(t.result.output.find(b.kind) != std::string::npos);
      CHECK(t.result.output.find("not a regular file") != std::string::npos);
    }
  }
}

TEST_CASE("a run file read from a pipe runs as the file does, its data files from here",
          "[input_files]") {
  write_data_files(kDir + "/plain");
  // Data files named from the current directory, where a piped run file's are taken from.
  const std::string here = write_text("piped-run.toml", schedule_run(kDir + "/plain/"));
  const std::string expected = run_and_summarize(here, "piped-file.h5");

  fs::remove("piped.h5");
  const CommandResult piped = run_shell(kTimeout + " bash -c '" + COLLNOISE_BINARY +
                                        " run <(cat piped-run.toml) --out piped.h5 --quiet'");
  INFO(piped.output);
  REQUIRE(piped.code == 0);
  CHECK(summary_of("piped.h5") == expected);

  // Parts of a piped run merge: the merge finds the data files where the run did.
  for (const char* part : {"piped-1.h5", "piped-2.h5", "piped-merged.h5"}) fs::remove(part);
  for (const char* part : {"1", "2"})
    REQUIRE(run_shell(kTimeout + " bash -c '" + COLLNOISE_BINARY +
                      " run <(cat piped-run.toml) --quiet --part " + part + "/2 --out piped-" +
                      part + ".h5'")
                .code == 0);
  const CommandResult merged =
      run_command_line("merge piped-1.h5 piped-2.h5 --out piped-merged.h5 --quiet");
  INFO(merged.output);
  CHECK(merged.code == 0);

  // A named FIFO as the run file: its writer comes later, and is waited for.
  const std::string fifo = kDir + "/run-fifo";
  fs::remove(fifo);
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  fs::remove("fifo.h5");
  const CommandResult named = run_shell("(sleep 0.5; cat piped-run.toml > " + fifo + ") & " +
                                        kTimeout + " " + COLLNOISE_BINARY + " run " + fifo +
                                        " --out fifo.h5 --quiet 2>&1; code=$?; wait; exit $code");
  INFO(named.output);
  REQUIRE(named.code == 0);
  CHECK(summary_of("fifo.h5") == expected);

  // Relative data files of a piped run file are not looked for next to /dev/fd/63.
  const CommandResult elsewhere =
      run_shell(kTimeout + " bash -c '" + COLLNOISE_BINARY + " run <(cat " +
                write_text(kDir + "/plain/run.toml", schedule_run("")) + ") --validate-only'");
  INFO(elsewhere.output);
  CHECK(elsewhere.code == 2);
  CHECK(elsewhere.output.find("\"two.goal\"") != std::string::npos);
  CHECK(elsewhere.output.find("/dev/fd") == std::string::npos);
}

TEST_CASE("a run file from a pipe: the resume hint asks for its text, and resuming works",
          "[input_files]") {
  write_data_files(kDir + "/plain");
  const std::string here = write_text("piped-resume.toml", schedule_run(kDir + "/plain/"));
  const std::string expected = run_and_summarize(here, "piped-resume-file.h5");
  fs::remove("piped-resume.h5");
  fs::remove("piped-resume.h5.ckpt");
  const std::string piped_run = kTimeout + " bash -c '" + COLLNOISE_BINARY +
                                " run <(cat piped-resume.toml) --out piped-resume.h5 --quiet";
  const CommandResult stopped = run_shell(piped_run + " --interrupt-after-chunks 1'");
  INFO(stopped.output);
  REQUIRE(stopped.code == 3);
  CHECK(stopped.output.find("resume with: collnoise run RUN_FILE --out piped-resume.h5 --resume "
                            "piped-resume.h5.ckpt") != std::string::npos);
  CHECK(stopped.output.find("came from the pipe '/dev/fd/") != std::string::npos);
  const CommandResult resumed = run_shell(piped_run + " --resume piped-resume.h5.ckpt'");
  INFO(resumed.output);
  REQUIRE(resumed.code == 0);
  CHECK(summary_of("piped-resume.h5") == expected);
}

TEST_CASE("a run file that is a directory or a device is refused, a stop ends a wait for a FIFO",
          "[input_files]") {
  fs::create_directories(kDir + "/run-dir");
  const Timed dir =
      timed(kTimeout + " " + COLLNOISE_BINARY + " run " + kDir + "/run-dir --validate-only");
  INFO(dir.result.output);
  CHECK(dir.result.code == 2);
  CHECK(dir.result.output.find("run file '" + kDir + "/run-dir' is a directory") !=
        std::string::npos);
  const Timed zero = timed(kTimeout + " " + COLLNOISE_BINARY + " run /dev/zero --validate-only");
  INFO(zero.result.output);
  CHECK(zero.result.code == 2);
  CHECK(zero.seconds < 5.0);
  CHECK(zero.result.output.find("run file '/dev/zero' is a character device") != std::string::npos);
  // A FIFO nobody writes to: SIGTERM after a second ends the wait (no SIGKILL needed).
  const std::string fifo = kDir + "/silent-fifo";
  fs::remove(fifo);
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const Timed silent = timed("timeout -k 5 1 " + std::string(COLLNOISE_BINARY) + " run " + fifo +
                             " --validate-only");
  INFO(silent.result.output);
  CHECK(silent.result.code == 124);  // timeout's code after SIGTERM; 137 after SIGKILL
  CHECK(silent.seconds < 4.0);
  CHECK(silent.result.output.find("interrupted by signal 15") != std::string::npos);
}

TEST_CASE("a byte-order mark at the start of a text input is skipped: the same result",
          "[input_files]") {
  // Every variant in the same folder, so that results name the same paths.
  const std::string dir = kDir + "/case";
  const std::string run_file = dir + "/run.toml";
  fs::remove_all(dir);
  write_data_files(dir);
  write_text(run_file, schedule_run(""));
  const std::string expected = run_and_summarize(run_file, kDir + "/plain.h5");
  for (const std::string marked : {"two.goal", "trace.txt", "ng_loggp.out", "lat.out"}) {
    write_data_files(dir, {marked});
    INFO(marked);
    CHECK(run_and_summarize(run_file, kDir + "/bom-" + marked + ".h5") == expected);
  }
  // The delays of an empirical law.
  write_data_files(dir);
  write_text(dir + "/delays.toml", delays_run("delays.txt"));
  const std::string delays = run_and_summarize(dir + "/delays.toml", kDir + "/delays.h5");
  write_data_files(dir, {"delays.txt"});
  CHECK(run_and_summarize(dir + "/delays.toml", kDir + "/bom-delays.h5") == delays);

  // The run file: the same run, so much so that a part of each merge into one result.
  write_data_files(dir);
  for (const char* part : {"part1.h5", "part2.h5", "merged.h5"}) fs::remove(kDir + "/" + part);
  REQUIRE(run_command_line("run " + run_file + " --part 1/2 --out " + kDir + "/part1.h5 --quiet")
              .code == 0);
  write_text(run_file, kByteOrderMark + schedule_run(""));
  CHECK(run_and_summarize(run_file, kDir + "/bom-run.h5") == expected);
  REQUIRE(run_command_line("run " + run_file + " --part 2/2 --out " + kDir + "/part2.h5 --quiet")
              .code == 0);
  const CommandResult merged = run_command_line("merge " + kDir + "/part1.h5 " + kDir +
                                                "/part2.h5 --out " + kDir + "/merged.h5 --quiet");
  INFO(merged.output);
  CHECK(merged.code == 0);
}

TEST_CASE("TextLines: lines as std::getline gives them, past a byte-order mark", "[input_files]") {
  const auto lines_of = [](const std::string& text) {
    collnoise::TextLines lines(write_text("lines.txt", text), "test file 'lines.txt'");
    std::vector<std::string> all;
    for (std::string line; lines.next(line);) all.push_back(line);
    return all;
  };
  using Lines = std::vector<std::string>;
  CHECK(lines_of("") == Lines{});
  CHECK(lines_of("\n") == Lines{""});
  CHECK(lines_of("a\nb") == Lines{"a", "b"});
  CHECK(lines_of("a\r\n\nb\n") == Lines{"a\r", "", "b"});
  CHECK(lines_of(kByteOrderMark) == Lines{});
  CHECK(lines_of(kByteOrderMark + "1\t2\n") == Lines{"1\t2"});
  CHECK(lines_of("\xEF\xBB") == Lines{"\xEF\xBB"});  // not a whole mark: kept
  // Only a mark at the very start is skipped; a long line crosses the reading blocks whole.
  const std::string long_line(1'000'000, 'x');
  CHECK(lines_of("a" + kByteOrderMark + "\n" + long_line + "\nz") ==
        Lines{"a" + kByteOrderMark, long_line, "z"});
  fs::create_directories("lines-dir");
  CHECK_THROWS_WITH(collnoise::TextLines("lines-dir", "test file 'lines-dir'"),
                    "test file 'lines-dir' is a directory, not a regular file: data files are read "
                    "only from regular files");
  CHECK_THROWS_AS(collnoise::TextLines("no-such-lines.txt", "x"), collnoise::InputError);
}
