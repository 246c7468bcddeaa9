// What `collnoise compare` refuses and how (docs/compare.md, docs/cli.md "What collnoise
// promises"): measured times range-checked like every data file's, the text of a bad line shown
// escaped and cut (core/shown_text.hpp), every option's value checked with its own message, a
// figure that cannot be written refused before anything is computed, and a stop request acted on
// while a large measured file is read.
#include <sys/stat.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/shown_text.hpp"
#include "core/stop_request.hpp"
#include "distributions/detour_trace.hpp"
#include "distributions/empirical.hpp"
#include "distributions/latency_samples.hpp"
#include "distributions/measured_times.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

using namespace collnoise;
using namespace collnoise::testing;

namespace {

std::string refusal(const std::string& path, const MeasuredOptions& options) {
  try {
    read_measured_times(path, options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(read without error)";
}

const std::string kRun = small_schedule_run(
    {.name = "compare-inputs", .samples = 100, .log2_N = 2, .raw_samples = true});

// A small result with raw samples and a list of times in us, made once.
void make_result() {
  static bool made = false;
  if (made) return;
  write_text("ci_run.toml", kRun);
  REQUIRE(run_command_line("run ci_run.toml --out ci.h5 --force --quiet").code == 0);
  write_text("ci_times.txt", "1.0\n2.0\n3.0\n4.0\n");
  made = true;
}

// The one error line of a refused command line, without its prefix.
std::string error_line(const CommandResult& r) {
  const auto at = r.output.find("collnoise: error: ");
  if (at == std::string::npos) return "(no error line) " + r.output;
  const auto end = r.output.find('\n', at);
  return r.output.substr(at + 18, end == std::string::npos ? end : end - at - 18);
}

}  // namespace

TEST_CASE("quoted text keeps printable ASCII and escapes everything else", "[compare]") {
  CHECK(quoted_text("12.5us") == "'12.5us'");
  CHECK(quoted_text(std::string("2\0x", 3)) == "'2\\0x'");
  CHECK(quoted_text("\x1b[2J\t\r\n") == "'\\x1b[2J\\t\\r\\n'");
  CHECK(quoted_text("a\\x1b") == "'a\\\\x1b'");  // a backslash in the file is not an escape
  CHECK(quoted_text("2\xc2\xb5s") == "'2\\xc2\\xb5s'");
  CHECK(quoted_text("\x7f\xff") == "'\\x7f\\xff'");
  CHECK(quoted_text(std::string(60, '1')) == "'" + std::string(60, '1') + "'");
  CHECK(quoted_text(std::string(1000000, '1')) ==
        "'" + std::string(60, '1') + "...' (1000000 bytes)");
  CHECK(quoted_text("abcdef", 3) == "'abc...' (6 bytes)");
}

TEST_CASE("measured times beyond 10^6 seconds, infinite or negative are refused", "[compare]") {
  const auto list = [](const std::string& name, const std::string& second, const char* unit) {
    write_text(name, "1.0\n" + second + "\n");
    return refusal(name, {.unit = unit});
  };
  CHECK(list("ci_huge.txt", "1e308", "us") ==
        "'ci_huge.txt', line 2: '1e308' us (1e+302 seconds) is out of range: it must lie in [0, "
        "1e+06] seconds");
  CHECK(list("ci_over.txt", "1000001", "s") ==
        "'ci_over.txt', line 2: '1000001' s (1000001 seconds) is out of range: it must lie in [0, "
        "1e+06] seconds");
  CHECK(list("ci_neg.txt", "-1", "us") ==
        "'ci_neg.txt', line 2: '-1' us (-1e-06 seconds) is out of range: it must lie in [0, "
        "1e+06] seconds");
  CHECK(list("ci_inf.txt", "inf", "s") ==
        "'ci_inf.txt', line 2: 'inf' is not a time (a number >= "
        "0 in s)");
  CHECK(list("ci_ninf.txt", "-inf", "s") ==
        "'ci_ninf.txt', line 2: '-inf' is not a time (a number >= 0 in s)");
  CHECK(list("ci_nan.txt", "nan", "ms") ==
        "'ci_nan.txt', line 2: 'nan' is not a time (a number >= 0 in ms)");
  // Beyond the range of doubles, before any conversion.
  CHECK(list("ci_overflow.txt", "1e400", "ns") ==
        "'ci_overflow.txt', line 2: '1e400' is not a time (a number >= 0 in ns)");
  // 10^6 seconds itself, in every unit, is a time; -0 is 0.
  for (const auto& [text, unit] : {std::pair{"1e6", "s"}, std::pair{"1e9", "ms"},
                                   std::pair{"1e12", "us"}, std::pair{"1e15", "ns"}}) {
    write_text("ci_edge.txt", fmt::format("{}\n-0\n", text));
    const MeasuredTimes m = read_measured_times("ci_edge.txt", {.unit = unit});
    CHECK(m.seconds.at(0) == 1.0e6);
    CHECK(m.seconds.at(1) == 0.0);
    CHECK_FALSE(std::signbit(m.seconds.at(1)));
  }
  // A per-rank table's times are checked the same way, in the header's unit.
  write_text("ci_table.csv", "#MessageSize Rank0Time(us) Rank1Time(us)\n8 1 2\n8 3 2e12\n");
  CHECK(refusal("ci_table.csv", {}) ==
        "'ci_table.csv', line 3: '2e12' us (2000000 seconds) is out of range: it must lie in [0, "
        "1e+06] seconds");

  make_result();
  write_text("ci_huge_e2e.txt", "1.0\n2.0\n1e308\n");
  const auto r = run_command_line("compare ci.h5 ci_huge_e2e.txt --unit us");
  expect_refused(r, {"'ci_huge_e2e.txt', line 3: '1e308' us (1e+302 seconds) is out of range: it "
                     "must lie in [0, 1e+06] seconds"});
}

TEST_CASE("a bad measured line is shown escaped and cut, naming the file and the line",
          "[compare]") {
  // A NUL byte and a terminal escape in a time: shown, not passed on.
  write_text("ci_nul.txt", std::string("1.0\n2\0x\x1b[2J\n", 12));
  CHECK(refusal("ci_nul.txt", {.unit = "us"}) ==
        "'ci_nul.txt', line 2: '2\\0x\\x1b[2J' is not a time (a number >= 0 in us)");
  // A line of a megabyte: a message of a few dozen characters.
  write_text("ci_long.txt", "1.0\n" + std::string(1000000, '7') + "x\n");
  const std::string long_line = refusal("ci_long.txt", {.unit = "us"});
  CHECK(long_line == "'ci_long.txt', line 2: '" + std::string(60, '7') +
                         "...' (1000001 bytes) is not a time (a number >= 0 in us)");
  // A table's message size and header are quoted the same way.
  write_text("ci_size.csv", "#MessageSize Rank0Time(us)\n\x1b]0;x\x07 1\n");
  CHECK(refusal("ci_size.csv", {}) ==
        "'ci_size.csv', line 2: '\\x1b]0;x\\x07' is not a message size in bytes");
  write_text("ci_head.csv", "#MessageSize Rank0Time(\x1b[31m)\n8 1\n");
  CHECK(refusal("ci_head.csv", {}) ==
        "'ci_head.csv', line 1: the unit of column 2 '\\x1b[31m' is not a time unit (s, ms, us "
        "(or \u00b5s), ns)");

  make_result();
  const auto nul = run_command_line("compare ci.h5 ci_nul.txt --unit us");
  expect_refused(nul, {"'ci_nul.txt', line 2: '2\\0x\\x1b[2J' is not a time"});
  CHECK(nul.output.find('\x1b') == std::string::npos);
  const auto big = run_command_line("compare ci.h5 ci_long.txt --unit us");
  expect_refused(big, {"'ci_long.txt', line 2:", "...' (1000001 bytes) is not a time"});
  CHECK(big.output.size() < 300);
}

TEST_CASE("trace, delay and latency files show a bad line escaped and cut", "[compare]") {
  const auto message = [](auto&& read) {
    try {
      read();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(read without error)");
  };
  write_text("ci_trace.txt", std::string("0 1\n\x1b[2J\0 2\n", 12));
  CHECK(message([] { count_measurements("ci_trace.txt"); }) ==
        "ci_trace.txt:2: '\\x1b[2J\\0 2' is not 'start<TAB>duration'");
  write_text("ci_delays.txt", "1e-6\n" + std::string(5000, 'd') + "\n");
  CHECK(message([] { EmpiricalLaw::from_file("ci_delays.txt"); }) ==
        "ci_delays.txt:2: '" + std::string(60, 'd') +
            "...' (5000 bytes) is not a delay in seconds");
  // A backslash in the file is doubled, so that it never reads as an escape.
  write_text("ci_latency.txt", "8\\t2.5 \x1b[31m\n");
  CHECK_THAT(
      message([] { LatencySamples::from_file("ci_latency.txt", 0.0, LatencyColumn::kRoundTrip); }),
      Catch::StartsWith("ci_latency.txt:1: '8\\\\t2.5 \\x1b[31m' is not 'size<TAB>rtt'"));
}

TEST_CASE("compare refuses an empty, negative or too large option value with its own text",
          "[compare]") {
  make_result();
  const std::string base = "compare ci.h5 ci_times.txt --unit us ";
  const auto refused = [&](const std::string& args) {
    const auto r = run_command_line(base + args);
    INFO(args << "\n" << r.output);
    CHECK(r.code == 2);
    CHECK(count_lines_starting(r.output, "collnoise: error:") == 1);
    return error_line(r);
  };
  const std::string max = "18446744073709551615";
  const std::string help = " (collnoise --help lists the options)";
  CHECK(refused("--point ''") ==
        "--point: an empty value is not a number: give one in [0, " + max + "]" + help);
  CHECK(refused("--point -1") ==
        "--point: -1 is negative: give a whole number in [0, " + max + "]" + help);
  CHECK(refused("--point 18446744073709551616") ==
        "--point: 18446744073709551616 is too large: give a whole number in [0, " + max + "]" +
            help);
  CHECK(refused("--point 1x") ==
        "--point: 1x is invalid: give a whole number in [0, " + max + "]" + help);
  CHECK(refused("--mode ranks --rank-samples ''") ==
        "--rank-samples: an empty value is not a number: give one in [1, 1099511627776]" + help);
  CHECK(refused("--mode ranks --rank-samples 0") ==
        "--rank-samples: 0 is invalid: give a whole number in [1, 1099511627776]" + help);
  CHECK(refused("--mode ranks --rank-samples -5") ==
        "--rank-samples: -5 is negative: give a whole number in [1, 1099511627776]" + help);
  CHECK(refused("--size ''") ==
        "--size: an empty value is not a number: give one in [0, 4611686018427387904]" + help);
  CHECK(refused("--size -8") ==
        "--size: -8 is negative: give a whole number in [0, 4611686018427387904]" + help);
  CHECK(refused("--confidence ''") ==
        "--confidence: an empty value is not a number: give one in [0, 1]" + help);
  CHECK(refused("--confidence nan") ==
        "--confidence: nan is invalid: give a number in [0, 1]" + help);
  CHECK(refused("--figure ''") ==
        "--figure: an empty value is not allowed (an unset shell variable?)" + help);
  // The ends of [0, 1] are no levels: refused after the command line is read.
  CHECK(refused("--confidence 1") == "--confidence 1: give a level between 0 and 1");
  // Empty paths.
  const auto empty_measured = run_command_line("compare ci.h5 '' --unit us");
  CHECK(empty_measured.code == 2);
  CHECK(error_line(empty_measured) ==
        "MEASURED: an empty value is not allowed (an unset shell variable?)" + help);
  const auto empty_result = run_command_line("compare '' ci_times.txt --unit us");
  CHECK(empty_result.code == 2);
  CHECK(error_line(empty_result) ==
        "RESULT: an empty value is not allowed (an unset shell variable?)" + help);
  // Values that were right stay right: the largest point is only not in the file.
  CHECK(refused("--point " + max) == "--point " + max + ": 'ci.h5' holds points 0 to 0");
}

TEST_CASE("compare refuses a figure that cannot be written before anything is computed",
          "[compare]") {
  make_result();
  // The measured file is malformed: a refusal naming the figure shows nothing was read before.
  write_text("ci_malformed.txt", "fast\n");
  const std::string base = "compare ci.h5 ci_malformed.txt --unit us --figure ";
  expect_refused(run_command_line(base + "ci_missing_folder/qq.png"),
                 {"output 'ci_missing_folder/qq.png' cannot be locked: cannot create "
                  "'ci_missing_folder/qq.png.lock': No such file or directory"});
  std::filesystem::create_directories("ci_folder.png");
  expect_refused(run_command_line(base + "ci_folder.png --force"),
                 {"--figure 'ci_folder.png' is a directory: name a file"});
  CHECK(std::filesystem::is_directory("ci_folder.png"));
  std::filesystem::remove("ci_fifo.png");
  REQUIRE(::mkfifo("ci_fifo.png", 0644) == 0);
  expect_refused(run_command_line(base + "ci_fifo.png --force"),
                 {"--figure 'ci_fifo.png' is a FIFO (pipe): collnoise writes its outputs only "
                  "as regular files, so it is kept; name another path"});
  write_text("ci_old.png", "a figure\n");
  expect_refused(run_command_line(base + "ci_old.png"),
                 {"output 'ci_old.png' exists: use --force to overwrite it"});
  CHECK(slurp("ci_old.png") == "a figure\n");
  // Not an input: the result's run file (named like a figure here) is one.
  write_text("ci_run.png", kRun);
  REQUIRE(run_command_line("run ci_run.png --out ci_png.h5 --force --quiet").code == 0);
  expect_refused(
      run_command_line("compare ci_png.h5 ci_malformed.txt --unit us --force --figure ci_run.png"),
      {"ci_run.png"});
  CHECK(slurp("ci_run.png") == kRun);
  // Nor a data file the result's points read, found from the run file's folder.
  std::filesystem::create_directories("ci_sub");
  write_text("ci_sub/delays.png", "1e-6\n2e-6\n");
  write_text("ci_sub/empirical.toml",
             replace_text(replace_text(kRun, "law = \"periodic\"\nP = 1.0e-5\nD = 1.0e-6\n",
                                       "law = \"empirical\"\nfile = \"delays.png\"\n"),
                          "name = \"compare-inputs\"", "name = \"compare-empirical\""));
  REQUIRE(
      run_command_line("run ci_sub/empirical.toml --out ci_empirical.h5 --force --quiet").code ==
      0);
  expect_refused(run_command_line("compare ci_empirical.h5 ci_malformed.txt --unit us --force "
                                  "--figure ci_sub/delays.png"),
                 {"--figure 'ci_sub/delays.png' is the same file as the data file "
                  "'ci_sub/delays.png': writing it would destroy an input"});
  CHECK(slurp("ci_sub/delays.png") == "1e-6\n2e-6\n");
  // A folder that cannot be written. Root writes into any folder, so as root it is a read-only
  // tmpfs; elsewhere a folder without write permission.
  std::filesystem::create_directories("ci_readonly");
  if (::geteuid() == 0) {
    if (run_shell("mount -t tmpfs -o ro,size=16k tmpfs ci_readonly").code != 0) {
      WARN("skipped: a read-only folder as root needs a read-only tmpfs (mount failed)");
    } else {
      expect_refused(run_command_line(base + "ci_readonly/qq.png"),
                     {"output 'ci_readonly/qq.png' cannot be locked: cannot create "
                      "'ci_readonly/qq.png.lock': Read-only file system"});
      run_shell("umount ci_readonly");
    }
  } else {
    ::chmod("ci_readonly", 0555);
    expect_refused(run_command_line(base + "ci_readonly/qq.png"),
                   {"output 'ci_readonly/qq.png' cannot be locked: cannot create "
                    "'ci_readonly/qq.png.lock': Permission denied"});
    ::chmod("ci_readonly", 0755);
  }
}

TEST_CASE("reading a measured file gives up when a stop is requested", "[compare]") {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "1.5\n";
  write_text("ci_stop.txt", text);
  request_stop(SIGTERM);
  CHECK_THROWS_AS(read_measured_times("ci_stop.txt", {.unit = "us"}), StopRequested);
  clear_stop_request();
  CHECK(read_measured_times("ci_stop.txt", {.unit = "us"}).seconds.size() == 20000);
}

TEST_CASE("compare ends with exit 3 within a second of SIGTERM while it reads", "[compare]") {
  make_result();
  {
    std::ofstream out("ci_large.txt");
    const std::string block = [] {
      std::string b;
      for (int i = 0; i < 1000; ++i) b += "1.25\n";
      return b;
    }();
    for (int i = 0; i < 8000; ++i) out << block;  // 8 million times: seconds to read
  }
  // The shell prints the exit code and the milliseconds from the signal to the end.
  const auto r = run_shell(fmt::format(
      "{} compare ci.h5 ci_large.txt --unit us 2>&1 & pid=$!; sleep 1; start=$(date +%s%N); "
      "kill -TERM $pid; wait $pid; code=$?; end=$(date +%s%N); "
      "echo \"code=$code ms=$(( (end - start) / 1000000 ))\"",
      COLLNOISE_BINARY));
  INFO(r.output);
  CHECK(r.output.find("code=3 ") != std::string::npos);
  CHECK(r.output.find("collnoise: interrupted by signal 15") != std::string::npos);
  const auto ms = std::stol(r.output.substr(r.output.find("ms=") + 3));
  CHECK(ms < 1000);
}

TEST_CASE("compare refuses a comparison estimated beyond --max-memory-gib", "[compare]") {
  make_result();
  // 1e-6 GiB is 1073 bytes: the pooled finishing times of 4 ranks in 100 samples need 6400.
  const auto ranks =
      run_command_line("compare ci.h5 ci_times.txt --unit us --mode ranks --max-memory-gib 1e-6");
  INFO(ranks.output);
  CHECK(ranks.code == 2);
  CHECK(count_lines_starting(ranks.output, "collnoise: error:") == 1);
  CHECK_THAT(ranks.output,
             Catch::Contains("--mode ranks: the finishing times of 4 ranks in 100 samples (fewer "
                             "with --rank-samples) would need about") &&
                 Catch::Contains("--max-memory-gib"));
  // Five samples replayed: 320 bytes, within the limit.
  CHECK(run_command_line("compare ci.h5 ci_times.txt --unit us --mode ranks --rank-samples 5 "
                         "--max-memory-gib 1e-6")
            .code == 0);
  // A measured file of 1000 bytes may hold 500 times: 12000 bytes with its copies.
  std::string many;
  for (int i = 0; i < 500; ++i) many += "1\n";
  write_text("ci_many.txt", many);
  const auto measured =
      run_command_line("compare ci.h5 ci_many.txt --unit us --max-memory-gib 1e-6");
  INFO(measured.output);
  CHECK(measured.code == 2);
  CHECK_THAT(measured.output,
             Catch::Contains("reading the measured file 'ci_many.txt' (1000 bytes) would need"));
}
