// collnoise timeline --queues (app/timeline_command.hpp): every rank's match-queue statistics of
// the replayed sample, as JSON or HDF5, the same whatever the run's thread count; outputs that
// would replace an input or another output, other extensions and existing files are refused.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "outputs/queue_stats_io.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

using namespace collnoise;
using namespace collnoise::testing;

namespace {

// The run records sample 4's finishing times: a replay that samples the queues must give them.
const std::string kRun =
    small_schedule_run({.name = "queues", .collective_extra = "finish_sample = 4\n"});

// The file's tables, without its title (which names the result replayed).
nlohmann::json tables(const std::string& path) {
  nlohmann::json j = nlohmann::json::parse(slurp(path));
  j.erase("title");
  return j;
}

}  // namespace

TEST_CASE("timeline --queues: every rank's queues, the same for any thread count") {
  write_text("tq_run.toml", kRun);
  REQUIRE(run_command_line("run tq_run.toml --out tq_one.h5 --threads 1 --force --quiet").code ==
          0);
  REQUIRE(run_command_line("run tq_run.toml --out tq_two.h5 --threads 2 --force --quiet").code ==
          0);
  const auto one = run_command_line(
      "timeline tq_one.h5 --sample 4 --ranks 0-1 --out tq_one.json --queues tq_one_q.json --force");
  INFO(one.output);
  REQUIRE(one.code == 0);
  CHECK_THAT(one.output, Catch::Contains("wrote tq_one_q.json (match queues of 8 ranks"));
  CHECK_THAT(one.output, !Catch::Contains("not compared"));  // compared with the run: equal
  CHECK(std::filesystem::exists("tq_one.json"));             // the timeline as without --queues
  REQUIRE(run_command_line("timeline tq_two.h5 --sample 4 --out tq_two.json --queues "
                           "tq_two_q.json --force")
              .code == 0);
  const nlohmann::json q = tables("tq_one_q.json");
  CHECK(q == tables("tq_two_q.json"));
  // All 8 ranks, not only the 2 shown; recursive doubling on 8 ranks: 3 receives and 3 messages
  // a rank, so 3 samples of each queue.
  CHECK(q["ranks"] == 8);
  CHECK(q["posted_samples"] == nlohmann::json(std::vector<int>(8, 3)));
  CHECK(q["unexpected_samples"] == nlohmann::json(std::vector<int>(8, 3)));
  CHECK(q["rule"].get<std::string>().find("LogGOPSim") != std::string::npos);
  // The same values in HDF5.
  REQUIRE(run_command_line("timeline tq_one.h5 --sample 4 --out tq_one.json --queues tq_one_q.h5 "
                           "--force")
              .code == 0);
  const QueueStatsFile h5 = read_queue_stats("tq_one_q.h5");
  const QueueStatsFile json = read_queue_stats("tq_one_q.json");
  CHECK(h5.posted.counts == json.posted.counts);
  CHECK(h5.posted.mean == json.posted.mean);
  CHECK(h5.unexpected.counts == json.unexpected.counts);
  CHECK(h5.unexpected.max == json.unexpected.max);
}

TEST_CASE("timeline --queues: what it may not write is refused") {
  write_text("tq_bad.toml", kRun);
  REQUIRE(run_command_line("run tq_bad.toml --out tq_bad.h5 --force --quiet").code == 0);
  expect_refused(
      run_command_line("timeline tq_bad.h5 --sample 1 --out tq_bad.json --queues tq_bad.txt"),
      {"--queues", "tq_bad.txt", ".json or .h5"});
  expect_refused(run_command_line(
                     "timeline tq_bad.h5 --sample 1 --out tq_bad.json --queues tq_bad.h5 --force"),
                 {"tq_bad.h5"});
  expect_refused(run_command_line("timeline tq_bad.h5 --sample 1 --out tq_same.json --queues "
                                  "tq_same.json --force"),
                 {"tq_same.json"});
  write_text("tq_there.json", "{}");
  expect_refused(
      run_command_line("timeline tq_bad.h5 --sample 1 --out tq_bad.json --queues tq_there.json"),
      {"--queues", "tq_there.json", "--force"});
  CHECK(slurp("tq_there.json") == "{}");
  expect_refused(run_command_line("timeline tq_bad.h5 --sample 1 --queues ''"), {"--queues"});
}
