// No file is ever lost, and a result never mixes data it did not see (docs/cli.md, "What
// collnoise promises"): merge and checkpoints never replace a file that is not theirs, a run
// never silently replaces or deletes a checkpoint, and every data file a point reads is bound to
// its samples by content, so that a resume or a merge on changed data is refused naming the file.
// Each case runs the collnoise command as a user would, on small files.
#include <hdf5.h>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/param_reader.hpp"
#include "outputs/result_file.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/points_table_reader.hpp"
#include "tests/fixtures/result_tallies.hpp"
#include "tests/fixtures/small_runs.hpp"

namespace fs = std::filesystem;

namespace {

using collnoise::testing::CommandResult;
using collnoise::testing::count_lines_starting;
using collnoise::testing::expect_refused;
using collnoise::testing::long_tree_run;
using collnoise::testing::replace_text;
using collnoise::testing::run_command_line;
using collnoise::testing::slurp;
using collnoise::testing::small_tree_sweep_run;
using collnoise::testing::write_text;

// A tree barrier on a detour trace: 16 chunks of 50 samples over two points.
const std::string kTraced = small_tree_sweep_run("safe", "law = \"trace\"\nfile = \"TRACE\"\n");

const char* kTrace = "0\t100\n1000\t1100\n5000\t300\n";
const char* kOtherTrace = "0\t100\n1000\t1100\n5000\t900\n";

// A run file reading `trace` (relative to the run file).
std::string traced_run(const std::string& name, const std::string& trace) {
  return write_text(name, replace_text(kTraced, "TRACE", trace));
}

// Runs `args` stopped by SIGINT after `chunks` chunks (exit 3), leaving a checkpoint.
void interrupt_after(const std::string& args, int chunks) {
  const auto r =
      run_command_line(args + " --quiet --interrupt-after-chunks " + std::to_string(chunks));
  INFO(r.output);
  REQUIRE(r.code == 3);
}

// `result` holds the bits of `reference` (the tallies and the points table).
void expect_same_samples(const std::string& runfile, const std::string& reference,
                         const std::string& result) {
  CHECK(collnoise::testing::tally_bytes(runfile, result) ==
        collnoise::testing::tally_bytes(runfile, reference));
  CHECK(collnoise::testing::PointsTableReader(result).bytes() ==
        collnoise::testing::PointsTableReader(reference).bytes());
}

}  // namespace

TEST_CASE("merge never writes over a data file the parts' run file reads", "[file_safety]") {
  write_text("fs1-trace.txt", kTrace);
  traced_run("fs1.toml", "fs1-trace.txt");
  REQUIRE(run_command_line("run fs1.toml --out fs1.p1.h5 --part 1/2 --force --quiet").code == 0);
  REQUIRE(run_command_line("run fs1.toml --out fs1.p2.h5 --part 2/2 --force --quiet").code == 0);
  for (const char* force : {"", " --force"}) {
    expect_refused(
        run_command_line(std::string("merge fs1.p1.h5 fs1.p2.h5 --out fs1-trace.txt --quiet") +
                         force),
        {"fs1-trace.txt", "data file"});
    CHECK(slurp("fs1-trace.txt") == kTrace);
    // Nor over the run file the parts name.
    const std::string runfile = slurp("fs1.toml");
    expect_refused(
        run_command_line(std::string("merge fs1.p1.h5 fs1.p2.h5 --out fs1.toml --quiet") + force),
        {"fs1.toml", "run file"});
    CHECK(slurp("fs1.toml") == runfile);
  }
  // A proper merge goes through, and records the trace by path and content.
  fs::remove("fs1.h5");
  REQUIRE(run_command_line("merge fs1.p1.h5 fs1.p2.h5 --out fs1.h5 --quiet").code == 0);
  const collnoise::ResultFile merged = collnoise::read_result_file("fs1.h5");
  REQUIRE(merged.identities.size() == 2);
  REQUIRE(merged.identities[0]);
  REQUIRE(merged.identities[0]->inputs.size() == 1);
  CHECK(merged.identities[0]->inputs[0].path == "fs1-trace.txt");
}

TEST_CASE("a checkpoint path never names a result or any other file, --force or not",
          "[file_safety]") {
  write_text("fs2-trace.txt", kTrace);
  traced_run("fs2.toml", "fs2-trace.txt");
  fs::remove("fs2-valuable.h5");
  REQUIRE(run_command_line("run fs2.toml --out fs2-valuable.h5 --quiet").code == 0);
  const std::string valuable = slurp("fs2-valuable.h5");
  write_text("fs2-notes.txt", "my notes\n");
  fs::create_directories("fs2-dir");
  for (const char* force : {"", " --force"}) {
    fs::remove("fs2.h5");
    expect_refused(
        run_command_line(
            std::string("run fs2.toml --out fs2.h5 --checkpoint fs2-valuable.h5 --quiet") + force),
        {"fs2-valuable.h5", "a collnoise result"});
    CHECK(slurp("fs2-valuable.h5") == valuable);
    expect_refused(
        run_command_line(std::string("run fs2.toml --out fs2.h5 --checkpoint fs2-notes.txt "
                                     "--quiet") +
                         force),
        {"fs2-notes.txt"});
    CHECK(slurp("fs2-notes.txt") == "my notes\n");
    expect_refused(
        run_command_line(std::string("run fs2.toml --out fs2.h5 --checkpoint fs2-dir --quiet") +
                         force),
        {"fs2-dir", "directory"});
    CHECK(fs::is_directory("fs2-dir"));
    CHECK_FALSE(fs::exists("fs2.h5"));
  }
  // The default checkpoint path holding a result of its own: kept too.
  fs::copy_file("fs2-valuable.h5", "fs2.h5.ckpt", fs::copy_options::overwrite_existing);
  expect_refused(run_command_line("run fs2.toml --out fs2.h5 --force --quiet"),
                 {"fs2.h5.ckpt", "a collnoise result"});
  CHECK(slurp("fs2.h5.ckpt") == valuable);
}

TEST_CASE("a checkpoint of the same run is resumed or discarded, never silently replaced",
          "[file_safety]") {
  write_text("fs3-trace.txt", kTrace);
  traced_run("fs3.toml", "fs3-trace.txt");
  fs::remove("fs3-plain.h5");
  REQUIRE(run_command_line("run fs3.toml --out fs3-plain.h5 --quiet").code == 0);
  fs::remove("fs3.h5");
  fs::remove("fs3.h5.ckpt");
  interrupt_after("run fs3.toml --out fs3.h5 --seed 5", 5);
  const std::string checkpoint = slurp("fs3.h5.ckpt");
  // Without --resume (with --force too, which overwrites results only): refused, with the
  // commands that resume and that discard it.
  for (const char* force : {"", " --force"}) {
    const auto again =
        run_command_line(std::string("run fs3.toml --out fs3.h5 --seed 5 --quiet") + force);
    expect_refused(again, {"'fs3.h5.ckpt'", "5 chunks", "of this run",
                           "collnoise run fs3.toml --out fs3.h5 --seed 5 --resume fs3.h5.ckpt",
                           "collnoise run fs3.toml --out fs3.h5 --seed 5 --restart"});
    CHECK(slurp("fs3.h5.ckpt") == checkpoint);
  }
  // --restart discards it and runs from scratch, to the bits of an uninterrupted run.
  const auto restarted = run_command_line("run fs3.toml --out fs3.h5 --seed 5 --restart --quiet");
  INFO(restarted.output);
  REQUIRE(restarted.code == 0);
  CHECK(restarted.output.find("discarded the checkpoint 'fs3.h5.ckpt'") != std::string::npos);
  CHECK_FALSE(fs::exists("fs3.h5.ckpt"));
  expect_same_samples("fs3.toml", "fs3-plain.h5", "fs3.h5");
  // The printed resume command resumes.
  fs::remove("fs3.h5");
  interrupt_after("run fs3.toml --out fs3.h5 --seed 5", 5);
  const auto resumed =
      run_command_line("run fs3.toml --out fs3.h5 --seed 5 --resume fs3.h5.ckpt --quiet");
  INFO(resumed.output);
  REQUIRE(resumed.code == 0);
  expect_same_samples("fs3.toml", "fs3-plain.h5", "fs3.h5");
}

TEST_CASE("the checkpoint of another run at the same path is never replaced", "[file_safety]") {
  write_text("fs4-trace.txt", kTrace);
  traced_run("fs4a.toml", "fs4-trace.txt");
  write_text("fs4b.toml",
             replace_text(replace_text(kTraced, "TRACE", "fs4-trace.txt"), "seed = 5", "seed = 6"));
  fs::remove("fs4.h5");
  fs::remove("fs4.h5.ckpt");
  interrupt_after("run fs4a.toml --out fs4.h5", 2);
  const std::string checkpoint = slurp("fs4.h5.ckpt");
  for (const char* extra : {"", " --force", " --restart"}) {
    expect_refused(run_command_line(std::string("run fs4b.toml --out fs4.h5 --quiet") + extra),
                   {"'fs4.h5.ckpt'", "another run", "'fs4a.toml'", "'fs4b.toml'"});
    CHECK(slurp("fs4.h5.ckpt") == checkpoint);
  }
  // The same run file under another seed is another run as well.
  expect_refused(run_command_line("run fs4a.toml --out fs4.h5 --seed 9 --restart --quiet"),
                 {"'fs4.h5.ckpt'", "another run", "seed 5, not 9"});
  CHECK(slurp("fs4.h5.ckpt") == checkpoint);
  // As is another part of it.
  expect_refused(
      run_command_line("run fs4a.toml --out fs4.h5 --part 1/2 --checkpoint fs4.h5.ckpt --quiet"),
      {"'fs4.h5.ckpt'", "another run", "part 1/1, not 1/2"});
  CHECK(slurp("fs4.h5.ckpt") == checkpoint);
}

TEST_CASE("a trace edited between sittings is never resumed", "[file_safety]") {
  write_text("fs5-trace.txt", kTrace);
  traced_run("fs5.toml", "fs5-trace.txt");
  fs::remove("fs5-plain.h5");
  REQUIRE(run_command_line("run fs5.toml --out fs5-plain.h5 --quiet").code == 0);
  fs::remove("fs5.h5");
  fs::remove("fs5.h5.ckpt");
  interrupt_after("run fs5.toml --out fs5.h5", 3);
  const std::string checkpoint = slurp("fs5.h5.ckpt");
  const std::string before = collnoise::file_content_hash("noise.file", "fs5-trace.txt");
  write_text("fs5-trace.txt", kOtherTrace);
  const std::string after = collnoise::file_content_hash("noise.file", "fs5-trace.txt");
  const auto edited = run_command_line("run fs5.toml --out fs5.h5 --resume fs5.h5.ckpt --quiet");
  expect_refused(edited, {"'fs5.h5.ckpt'", "noise.file = 'fs5-trace.txt'", before.substr(0, 17),
                          after.substr(0, 17), "other data"});
  CHECK(slurp("fs5.h5.ckpt") == checkpoint);
  CHECK_FALSE(fs::exists("fs5.h5"));
  // Nor is the checkpoint taken for this run's own without --resume: it is another run's now.
  expect_refused(run_command_line("run fs5.toml --out fs5.h5 --restart --quiet"),
                 {"'fs5.h5.ckpt'", "another run", "fs5-trace.txt"});
  CHECK(slurp("fs5.h5.ckpt") == checkpoint);
  // The trace restored, the resume gives the bits of the uninterrupted run.
  write_text("fs5-trace.txt", kTrace);
  const auto resumed = run_command_line("run fs5.toml --out fs5.h5 --resume fs5.h5.ckpt --quiet");
  INFO(resumed.output);
  REQUIRE(resumed.code == 0);
  expect_same_samples("fs5.toml", "fs5-plain.h5", "fs5.h5");
}

TEST_CASE("an edited GOAL file is never resumed, named as the file that changed", "[file_safety]") {
  REQUIRE(run_command_line("schedule bruck_allgather --ranks 12 --bytes 64 --goal fs6.goal "
                           "--force")
              .code == 0);
  write_text("fs6.toml", R"(name = "fs6"
seed = 4
samples = 24
chunk_size = 2
[collective]
kind = "schedule"
goal = "fs6.goal"
[noise]
law = "pareto"
a = 2.5
f = 0.1
)");
  fs::remove("fs6.h5");
  fs::remove("fs6.h5.ckpt");
  interrupt_after("run fs6.toml --out fs6.h5", 2);
  REQUIRE(run_command_line("schedule bruck_allgather --ranks 16 --bytes 64 --goal fs6.goal "
                           "--force")
              .code == 0);
  expect_refused(run_command_line("run fs6.toml --out fs6.h5 --resume fs6.h5.ckpt --quiet"),
                 {"collective.goal = 'fs6.goal'", "other data"});
}

TEST_CASE("parts sampled on different traces are never merged", "[file_safety]") {
  write_text("fs7-trace.txt", kTrace);
  traced_run("fs7.toml", "fs7-trace.txt");
  REQUIRE(run_command_line("run fs7.toml --out fs7.p1.h5 --part 1/2 --force --quiet").code == 0);
  write_text("fs7-trace.txt", kOtherTrace);
  REQUIRE(run_command_line("run fs7.toml --out fs7.p2.h5 --part 2/2 --force --quiet").code == 0);
  fs::remove("fs7.h5");
  expect_refused(run_command_line("merge fs7.p1.h5 fs7.p2.h5 --out fs7.h5 --quiet"),
                 {"'fs7.p1.h5'", "'fs7.p2.h5'", "noise.file = 'fs7-trace.txt'", "other data"});
  CHECK_FALSE(fs::exists("fs7.h5"));
  // Parts that agree, on a trace edited since: refused too (merge reads the trace again).
  REQUIRE(run_command_line("run fs7.toml --out fs7.p1.h5 --part 1/2 --force --quiet").code == 0);
  write_text("fs7-trace.txt", kTrace);
  expect_refused(run_command_line("merge fs7.p1.h5 fs7.p2.h5 --out fs7.h5 --quiet"),
                 {"noise.file = 'fs7-trace.txt'", "other data"});
  CHECK_FALSE(fs::exists("fs7.h5"));
}

TEST_CASE("parts written before data records existed merge with a note", "[file_safety]") {
  write_text("fs11-trace.txt", kTrace);
  traced_run("fs11.toml", "fs11-trace.txt");
  REQUIRE(run_command_line("run fs11.toml --out fs11.p1.h5 --part 1/2 --force --quiet").code == 0);
  REQUIRE(run_command_line("run fs11.toml --out fs11.p2.h5 --part 2/2 --force --quiet").code == 0);
  // Part 1 as an older collnoise wrote it: no stream identity, no inputs (its seal no longer
  // matches, hence --no-verify).
  {
    const hid_t file = H5Fopen("fs11.p1.h5", H5F_ACC_RDWR, H5P_DEFAULT);
    REQUIRE(file >= 0);
    for (const char* point : {"points/0000", "points/0001"}) {
      const hid_t group = H5Gopen2(file, point, H5P_DEFAULT);
      REQUIRE(group >= 0);
      CHECK(H5Adelete(group, "stream_identity") >= 0);
      CHECK(H5Ldelete(group, "inputs", H5P_DEFAULT) >= 0);
      H5Gclose(group);
    }
    H5Fclose(file);
  }
  fs::remove("fs11.h5");
  const auto merged =
      run_command_line("merge fs11.p1.h5 fs11.p2.h5 --out fs11.h5 --no-verify --quiet");
  INFO(merged.output);
  CHECK(merged.code == 0);
  CHECK(merged.output.find("note: 'fs11.p1.h5' records no hashes of its data files") !=
        std::string::npos);
}

TEST_CASE("a job directory moved elsewhere resumes to the same bits", "[file_safety]") {
  fs::remove_all("fs8-job");
  fs::remove_all("fs8-moved");
  fs::create_directories("fs8-job");
  write_text("fs8-job/trace.txt", kTrace);
  traced_run("fs8-job/run.toml", "trace.txt");
  REQUIRE(run_command_line("run fs8-job/run.toml --out fs8-plain.h5 --force --quiet").code == 0);
  interrupt_after("run fs8-job/run.toml --out fs8-job/r.h5", 3);
  fs::copy("fs8-job", "fs8-moved", fs::copy_options::recursive);
  fs::remove_all("fs8-job");
  const auto resumed = run_command_line(
      "run fs8-moved/run.toml --out fs8-moved/r.h5 --resume fs8-moved/r.h5.ckpt --quiet");
  INFO(resumed.output);
  REQUIRE(resumed.code == 0);
  expect_same_samples("fs8-moved/run.toml", "fs8-plain.h5", "fs8-moved/r.h5");
  // The result records the trace by its path as given and its content.
  const collnoise::ResultFile result = collnoise::read_result_file("fs8-moved/r.h5");
  REQUIRE(result.identities.size() == 2);
  for (const auto& identity : result.identities) {
    REQUIRE(identity);
    REQUIRE(identity->inputs.size() == 1);
    CHECK(identity->inputs[0].key == "noise.file");
    CHECK(identity->inputs[0].path == "trace.txt");
    CHECK(identity->inputs[0].hash ==
          collnoise::file_content_hash("noise.file", "fs8-moved/trace.txt"));
    CHECK(identity->stream.find("noise.file=" + identity->inputs[0].hash) != std::string::npos);
  }
}

TEST_CASE("a result records each data file's path and hash", "[file_safety]") {
  write_text("fs9-trace.txt", kTrace);
  traced_run("fs9.toml", "fs9-trace.txt");
  fs::remove("fs9.h5");
  REQUIRE(run_command_line("run fs9.toml --out fs9.h5 --quiet").code == 0);
  const collnoise::ResultFile result = collnoise::read_result_file("fs9.h5");
  REQUIRE(result.identities.size() == 2);
  const std::string hash = collnoise::file_content_hash("noise.file", "fs9-trace.txt");
  for (const auto& identity : result.identities) {
    REQUIRE(identity);
    REQUIRE(identity->inputs.size() == 1);
    CHECK(identity->inputs[0] == collnoise::InputFileIdentity{"noise.file", "fs9-trace.txt", hash});
    CHECK(identity->stream.starts_with("model=timed_tree_barrier\n"));
  }
  // A point that reads no data file records its stream identity and no inputs.
  write_text("fs9-plain.toml", replace_text(kTraced, "law = \"trace\"\nfile = \"TRACE\"",
                                            "law = \"exponential\"\nf = 0.01"));
  fs::remove("fs9-plain.h5");
  REQUIRE(run_command_line("run fs9-plain.toml --out fs9-plain.h5 --quiet").code == 0);
  const collnoise::ResultFile plain = collnoise::read_result_file("fs9-plain.h5");
  REQUIRE(plain.identities.size() == 2);
  REQUIRE(plain.identities[0]);
  CHECK(plain.identities[0]->inputs.empty());
}

TEST_CASE("an output path naming a directory is refused before sampling", "[file_safety]") {
  // Many seconds of sampling if it ran (2^20 ranks per sample).
  write_text("fs10.toml", long_tree_run("fs10"));

  fs::create_directories("fs10-dir");
  for (const char* force : {"", " --force"}) {
    const auto start = std::chrono::steady_clock::now();
    const auto r = run_command_line(std::string("run fs10.toml --out fs10-dir --quiet") + force);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    expect_refused(r, {"--out 'fs10-dir' is a directory"});
    CHECK(seconds < 2.0);  // the run itself takes tens of seconds on two busy cores
    CHECK(fs::is_empty("fs10-dir"));
  }
  // merge --out too.
  write_text("fs10-trace.txt", kTrace);
  traced_run("fs10p.toml", "fs10-trace.txt");
  REQUIRE(run_command_line("run fs10p.toml --out fs10.p1.h5 --part 1/2 --force --quiet").code == 0);
  REQUIRE(run_command_line("run fs10p.toml --out fs10.p2.h5 --part 2/2 --force --quiet").code == 0);
  expect_refused(run_command_line("merge fs10.p1.h5 fs10.p2.h5 --out fs10-dir --force --quiet"),
                 {"--out 'fs10-dir' is a directory"});
  CHECK(fs::is_empty("fs10-dir"));
}
