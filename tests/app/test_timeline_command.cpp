// collnoise timeline (app/timeline_command.hpp): a replayed sample's times equal the run's
// record of the same sample, its files follow their formats, and what cannot be replayed is
// refused.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "outputs/atomic_file.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

using namespace collnoise::testing;

namespace {

const std::string kRun =
    small_schedule_run({.name = "timeline", .collective_extra = "finish_sample = 5\n"});

nlohmann::json first_point(const std::string& result) {
  const auto r = run_command_line("summary " + result + " --json");
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(r.output)["points"][0];
}

}  // namespace

TEST_CASE("timeline: the replayed sample finishes as it did in the run") {
  write_text("tl_run.toml", kRun);
  REQUIRE(run_command_line("run tl_run.toml --out tl_run.h5 --force --quiet").code == 0);
  const auto r = run_command_line(
      "timeline tl_run.h5 --sample 5 --out tl_run.json --otf2 tl_run_otf2 --force");
  INFO(r.output);
  REQUIRE(r.code == 0);
  const nlohmann::json trace = nlohmann::json::parse(slurp("tl_run.json"));
  const nlohmann::json recorded = first_point("tl_run.h5")["sample_finish"];
  // Every rank's last CPU occupation ends when the run says the rank finished (exactly: the
  // JSON keeps each span's end in ns as the engine computed it).
  std::map<int, double> cpu_end;
  std::size_t critical = 0;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] != "X") continue;
    CHECK(e["dur"].get<double>() >= 0.0);
    CHECK(e["ts"].get<double>() * 1000.0 == Approx(e["args"]["start_ns"].get<double>()));
    if (e["args"]["critical"].get<bool>()) ++critical;
    if (e["args"]["lane"] == "CPU") {
      const int rank = e["pid"].get<int>();
      cpu_end[rank] = std::max(cpu_end[rank], e["args"]["end_ns"].get<double>());
    }
  }
  REQUIRE(cpu_end.size() == 8);
  for (const auto& [rank, end] : cpu_end)
    CHECK(end * 1e-9 == recorded[static_cast<std::size_t>(rank)].get<double>());
  CHECK(critical > 0);
  double latest = 0.0;
  for (const auto& x : recorded) latest = std::max(latest, x.get<double>());
  CHECK(trace["otherData"]["completion_ns"].get<double>() * 1e-9 == latest);
  CHECK_FALSE(trace["otherData"]["path_leaves_chosen"].get<bool>());
  // The OTF2 archive, read back by otf2-print: every message of the 3 rounds of 8 ranks.
  const auto printed = run_shell("otf2-print tl_run_otf2/traces.otf2");
  REQUIRE(printed.code == 0);
  CHECK(count_lines_starting(printed.output, "MPI_SEND") == 24);
  CHECK(count_lines_starting(printed.output, "MPI_RECV") == 24);
  CHECK(count_lines_starting(printed.output, "ENTER") ==
        count_lines_starting(printed.output, "LEAVE"));
}

TEST_CASE("timeline: chosen ranks and a window") {
  write_text("tl_some.toml", kRun);
  REQUIRE(run_command_line("run tl_some.toml --out tl_some.h5 --force --quiet").code == 0);
  REQUIRE(run_command_line("timeline tl_some.h5 --sample 2 --ranks 0-1,6 --window 0,2e-6 --out "
                           "tl_some.json --force")
              .code == 0);
  const nlohmann::json trace = nlohmann::json::parse(slurp("tl_some.json"));
  CHECK(trace["otherData"]["ranks"] == nlohmann::json::array({0, 1, 6}));
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] != "X") continue;
    CHECK((e["pid"] == 0 || e["pid"] == 1 || e["pid"] == 6));
    CHECK(e["args"]["start_ns"].get<double>() <= 2000.0);
  }
  // Recursive doubling's path crosses ranks in every round: with three of eight shown it
  // passes through ranks not shown.
  CHECK(trace["otherData"]["path_leaves_chosen"].get<bool>());
}

TEST_CASE("timeline: what cannot be replayed is refused") {
  write_text("tl_bad.toml", kRun);
  REQUIRE(run_command_line("run tl_bad.toml --out tl_bad.h5 --force --quiet").code == 0);
  expect_refused(run_command_line("timeline tl_bad.h5 --sample 8 --out tl_bad.json"),
                 {"--sample 8", "samples 0 to 7"});
  expect_refused(run_command_line("timeline tl_bad.h5 --sample 1 --ranks 3-9 --out tl_bad.json"),
                 {"--ranks", "rank 9"});
  expect_refused(run_command_line("timeline tl_bad.h5 --sample 1 --out tl_bad.h5 --force"),
                 {"tl_bad.h5"});
  write_text("tl_tree.toml", R"(name = "tree"
seed = 1
samples = 10
[collective]
kind = "tree_barrier"
N = 15
w = 1.0e-6
[noise]
law = "exponential"
f = 0.1
)");
  REQUIRE(run_command_line("run tl_tree.toml --out tl_tree.h5 --force --quiet").code == 0);
  expect_refused(run_command_line("timeline tl_tree.h5 --sample 1 --out tl_tree.json"),
                 {"--point 0", "tree_barrier", "schedule points"});
}

TEST_CASE("timeline: an archive a killed run left half-written is removed, a live one's kept") {
  namespace fs = std::filesystem;
  write_text("tl_stale.toml", kRun);
  REQUIRE(run_command_line("run tl_stale.toml --out tl_stale.h5 --force --quiet").code == 0);
  // Temporaries are named after the host and the process that writes them: one of a process
  // that no longer runs (no pid is that large), one of this test's own process, which runs.
  const std::string prefix = "tl_stale_otf2.tmp-" + collnoise::host_name() + "-";
  const std::string dead = prefix + "999999999", live = prefix + std::to_string(::getpid());
  for (const std::string& d : {dead, live}) {
    fs::remove_all(d);
    fs::create_directories(d + "/traces");
    write_text(d + "/traces.otf2", "half-written");
  }
  const auto r = run_command_line(
      "timeline tl_stale.h5 --sample 5 --out tl_stale.json --otf2 tl_stale_otf2/ --force");
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK_FALSE(fs::exists(dead));
  CHECK(fs::exists(live + "/traces.otf2"));
  CHECK(r.output.find("removed './" + dead) != std::string::npos);
  CHECK(fs::exists("tl_stale_otf2/traces.otf2"));
  fs::remove_all(live);
}

namespace {

namespace fs = std::filesystem;

// A run of kRun's point, its result written once per name.
std::string small_result(const std::string& stem) {
  write_text(stem + ".toml", kRun);
  REQUIRE(run_command_line("run " + stem + ".toml --out " + stem + ".h5 --force --quiet").code ==
          0);
  return stem + ".h5";
}

}  // namespace

TEST_CASE("timeline refuses to replace a file or a folder that is not an OTF2 archive") {
  const std::string result = small_result("tl_keep");
  const std::string base = "timeline tl_keep.h5 --sample 1 --out tl_keep.json --force --otf2 ";
  SECTION("a regular file, --force or not") {
    write_text("tl_keep_notes.txt", "my notes");
    for (const std::string force : {"", " --force"}) {
      expect_refused(run_command_line(base + "tl_keep_notes.txt" + force),
                     {"--otf2 'tl_keep_notes.txt' is a file, not an OTF2 archive",
                      "replaces only an OTF2 archive it wrote"});
      CHECK(slurp("tl_keep_notes.txt") == "my notes");
    }
  }
  SECTION("the result's own folder") {
    fs::remove_all("tl_keep_home");
    fs::create_directory("tl_keep_home");
    fs::copy_file("tl_keep.toml", "tl_keep_home/run.toml");
    REQUIRE(run_command_line("run tl_keep_home/run.toml --out tl_keep_home/r.h5 --quiet").code ==
            0);
    write_text("tl_keep_home/notes.txt", "my notes");
    const auto r = run_command_line(
        "timeline tl_keep_home/r.h5 --sample 1 --out tl_keep.json --force --otf2 tl_keep_home");
    expect_refused(r, {"--otf2 'tl_keep_home' is a folder holding", "not an OTF2 archive"});
    CHECK(fs::exists("tl_keep_home/r.h5"));
    CHECK(fs::exists("tl_keep_home/run.toml"));
    CHECK(slurp("tl_keep_home/notes.txt") == "my notes");
    expect_refused(run_command_line("timeline tl_keep_home/r.h5 --sample 1 --out tl_keep.json "
                                    "--force --otf2 tl_keep_home/"),
                   {"'tl_keep_home' is a folder holding"});
  }
  SECTION("an archive with something else in it, or an empty folder") {
    fs::remove_all("tl_keep_otf2");
    REQUIRE(run_command_line(base + "tl_keep_otf2").code == 0);
    write_text("tl_keep_otf2/mine.txt", "mine");
    expect_refused(run_command_line(base + "tl_keep_otf2"),
                   {"'tl_keep_otf2' is a folder holding 'mine.txt'"});
    CHECK(slurp("tl_keep_otf2/mine.txt") == "mine");
    fs::remove("tl_keep_otf2/mine.txt");
    write_text("tl_keep_otf2/traces/mine.txt", "mine");
    expect_refused(run_command_line(base + "tl_keep_otf2"),
                   {"'tl_keep_otf2' is a folder holding 'traces/mine.txt'"});
    fs::remove_all("tl_keep_empty");
    fs::create_directory("tl_keep_empty");
    expect_refused(run_command_line(base + "tl_keep_empty"),
                   {"'tl_keep_empty' is a folder without traces.otf2"});
    CHECK(fs::is_directory("tl_keep_empty"));
  }
  SECTION("an archive collnoise wrote: kept without --force, replaced with it") {
    fs::remove_all("tl_keep_otf2");
    REQUIRE(run_command_line(base + "tl_keep_otf2").code == 0);
    expect_refused(
        run_command_line("timeline tl_keep.h5 --sample 1 --out tl_keep2.json --otf2 tl_keep_otf2"),
        {"--otf2 'tl_keep_otf2' exists and holds an OTF2 archive: --force replaces it",
         "only an OTF2 archive collnoise wrote"});
    CHECK_FALSE(fs::exists("tl_keep2.json"));
    const auto r = run_command_line(base + "tl_keep_otf2");
    INFO(r.output);
    CHECK(r.code == 0);
    CHECK(fs::exists("tl_keep_otf2/traces.otf2"));
  }
}

TEST_CASE("timeline refuses to write over the run file the result records") {
  const std::string result = small_result("tl_input");
  const std::string text = slurp("tl_input.toml");
  for (const std::string option : {"--out", "--figure"}) {
    expect_refused(
        run_command_line("timeline tl_input.h5 --sample 1 --force " + option + " tl_input.toml" +
                         (option == "--out" ? "" : " --out tl_input.json")),
        {option + " 'tl_input.toml' is the same file as the result's run file 'tl_input.toml'"});
    CHECK(slurp("tl_input.toml") == text);
  }
  expect_refused(run_command_line("timeline tl_input.h5 --sample 1 --force --out tl_input.json "
                                  "--otf2 tl_input.toml"),
                 {"--otf2 'tl_input.toml' is a file, not an OTF2 archive"});
  CHECK(slurp("tl_input.toml") == text);
  expect_refused(run_command_line("timeline tl_input.h5 --sample 1 --force --out tl_input.h5"),
                 {"--out 'tl_input.h5' is the same file as the result 'tl_input.h5'"});
}

TEST_CASE("timeline refuses empty, negative and too large values, each with its own text") {
  const std::string result = small_result("tl_values");
  const std::string base = "timeline tl_values.h5 --out tl_values.json --force ";
  expect_refused(run_command_line(base + "--sample ''"),
                 {"--sample: an empty value is not a number"});
  expect_refused(run_command_line(base + "--sample 1 --point ''"),
                 {"--point: an empty value is not a number"});
  for (const std::string option : {"--ranks", "--otf2", "--figure", "--window"})
    expect_refused(run_command_line(base + "--sample 1 " + option + " ''"),
                   {option + ": an empty value is not allowed"});
  expect_refused(run_command_line("timeline tl_values.h5 --sample 1 --out ''"),
                 {"--out: an empty value is not allowed"});
  expect_refused(run_command_line(base + "--sample -1"), {"--sample: -1 is negative"});
  expect_refused(run_command_line(base + "--sample 1 --point -1"), {"--point: -1 is negative"});
  expect_refused(run_command_line(base + "--sample 18446744073709551616"),
                 {"--sample: 18446744073709551616 is too large"});
  expect_refused(run_command_line(base + "--sample 18446744073709551615"),
                 {"--sample 18446744073709551615: point 0 holds samples 0 to 7"});
  expect_refused(run_command_line(base + "--sample 1 --ranks -1"),
                 {"--ranks '-1': -1 is negative (ranks are 0 to 7)"});
  expect_refused(run_command_line(base + "--sample 1 --ranks 0,-3"),
                 {"--ranks '0,-3': -3 is negative"});
  expect_refused(run_command_line(base + "--sample 1 --ranks 2--1"),
                 {"--ranks '2--1': -1 is negative"});
  expect_refused(run_command_line(base + "--sample 1 --ranks 0,,2"),
                 {"--ranks '0,,2': an empty item"});
  expect_refused(run_command_line(base + "--sample 1 --ranks 0-99999999999999999999"),
                 {"99999999999999999999 is too large (ranks are 0 to 7)"});
  expect_refused(run_command_line(base + "--sample 1 --ranks 0-x"),
                 {"--ranks '0-x': 'x' is not a rank"});
  CHECK_FALSE(fs::exists("tl_values.json"));
}

TEST_CASE("timeline on a part replays the part's own samples, by their index in the run") {
  // 32 samples in chunks of 4: part 2/3 holds chunks 2 to 4, samples 8 to 19; the point
  // records the finishing times of sample 10, which the replay is compared with.
  write_text("tl_part.toml",
             replace_text(replace_text(kRun, "samples = 8", "samples = 32\nchunk_size = 4"),
                          "finish_sample = 5", "finish_sample = 10"));
  REQUIRE(run_command_line("run tl_part.toml --part 2/3 --out tl_part2.h5 --force --quiet").code ==
          0);
  REQUIRE(run_command_line("run tl_part.toml --out tl_part.h5 --force --quiet").code == 0);
  const auto r = run_command_line("timeline tl_part2.h5 --sample 10 --out tl_part2.json --force");
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK(r.output.find("not compared") == std::string::npos);  // compared with the run's record
  REQUIRE(run_command_line("timeline tl_part.h5 --sample 10 --out tl_part.json --force").code == 0);
  const auto events = [](const std::string& path) {
    nlohmann::json kept = nlohmann::json::array();
    // Parsed into a local first: a range-for over a member of a temporary would read freed memory
    // (the temporary dies before the loop's body runs).
    const nlohmann::json trace = nlohmann::json::parse(slurp(path));
    for (const auto& e : trace["traceEvents"])
      if (e["name"] != "completion") kept.push_back(e);  // (its title names the file)
    return kept;
  };
  CHECK(events("tl_part2.json") == events("tl_part.json"));
  CHECK(run_command_line("timeline tl_part2.h5 --sample 8 --out tl_part2.json --force").code == 0);
  CHECK(run_command_line("timeline tl_part2.h5 --sample 19 --out tl_part2.json --force").code == 0);
  expect_refused(run_command_line("timeline tl_part2.h5 --sample 3 --out tl_part2.json --force"),
                 {"--sample 3: this part (2/3) of the run holds samples 8 to 19 of point 0; part "
                  "1/3 holds it"});
  expect_refused(run_command_line("timeline tl_part2.h5 --sample 20 --out tl_part2.json --force"),
                 {"samples 8 to 19 of point 0; part 3/3 holds it"});
  expect_refused(run_command_line("timeline tl_part2.h5 --sample 32 --out tl_part2.json --force"),
                 {"samples 8 to 19 of point 0; the run has samples 0 to 31"});
}

TEST_CASE("timeline refuses a timeline estimated beyond --max-memory-gib") {
  const std::string result = small_result("tl_memory");
  fs::remove("tl_memory.json");
  expect_refused(run_command_line("timeline tl_memory.h5 --sample 1 --out tl_memory.json "
                                  "--max-memory-gib 0.00001"),
                 {"the timeline of the 8 ranks shown (fewer with --ranks) would need about",
                  "beyond the limit of 10.5 KiB", "--max-memory-gib"});
  CHECK_FALSE(fs::exists("tl_memory.json"));
  expect_refused(run_command_line("timeline tl_memory.h5 --sample 1 --out tl_memory.json "
                                  "--max-memory-gib -1"),
                 {"--max-memory-gib: -1 is invalid"});
}
