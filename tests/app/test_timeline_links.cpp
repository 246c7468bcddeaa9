// collnoise timeline --links (app/timeline_command.hpp): the load of the replayed sample's links,
// as JSON or HDF5, the same whatever the run's thread count; a point without a shared network,
// outputs that would replace an input or another output, other extensions and existing files
// are refused.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "outputs/link_load_io.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

using namespace collnoise;
using namespace collnoise::testing;

namespace {

// Recursive doubling on 8 ranks of a two-level fat tree, placed at random with background
// traffic, both drawn per sample; sample 2's finishing times recorded.
std::string links_run(const std::string& contention) {
  return small_schedule_run({.name = "links", .collective_extra = "finish_sample = 2\n"}) +
         "[network]\ntopology = \"xgft(2; 4,4; 1,2)\"\ncontention = \"" + contention +
         "\"\nrho = 0.25\nplacement = \"random\"\n";
}

// The file's tables, without its title (which names the result replayed).
nlohmann::json tables(const std::string& path) {
  nlohmann::json j = nlohmann::json::parse(slurp(path));
  j.erase("title");
  return j;
}

}  // namespace

TEST_CASE("timeline --links: every link's load, the same for any thread count") {
  write_text("tl_run.toml", links_run("simple"));
  REQUIRE(run_command_line("run tl_run.toml --out tl_one.h5 --threads 1 --force --quiet").code ==
          0);
  REQUIRE(run_command_line("run tl_run.toml --out tl_two.h5 --threads 2 --force --quiet").code ==
          0);
  const auto one = run_command_line(
      "timeline tl_one.h5 --sample 2 --ranks 0-1 --out tl_one.json --links tl_one_k.json "
      "--top-links 4 --force");
  INFO(one.output);
  REQUIRE(one.code == 0);
  CHECK_THAT(one.output, Catch::Contains("wrote tl_one_k.json (") &&
                             Catch::Contains("links; busiest: link ") &&
                             Catch::Contains("utilisation"));
  CHECK_THAT(one.output, !Catch::Contains("not compared"));  // compared with the run: equal
  REQUIRE(run_command_line("timeline tl_two.h5 --sample 2 --out tl_two.json --links "
                           "tl_two_k.json --top-links 4 --force")
              .code == 0);
  const nlohmann::json k = tables("tl_one_k.json");
  CHECK(k == tables("tl_two_k.json"));
  CHECK(k["model"] == "simple");
  CHECK(k["step_end_ns"].size() == 4);
  // 8 ranks of 16 endpoints among 4 sending background, all at random: some link of ours
  // carries background too.
  std::uint64_t background = 0;
  for (const auto& b : k["background_messages"]) background += b.get<std::uint64_t>();
  CHECK(background > 0);
  // Each rank's up-link to its leaf carries its three messages of 8 bytes: the busiest carries
  // as much at least. Every link is named as the fat tree names it.
  CHECK(k["bytes_carried"][0].get<std::uint64_t>() >= 24);
  for (const auto& name : k["link_name"])
    CHECK_THAT(name.get<std::string>(), Catch::StartsWith("up: ") || Catch::StartsWith("down: "));
  // The same values in HDF5.
  REQUIRE(run_command_line("timeline tl_one.h5 --sample 2 --out tl_one.json --links "
                           "tl_one_k.h5 --top-links 4 --force")
              .code == 0);
  const LinkLoadFile h5 = read_link_load("tl_one_k.h5");
  const LinkLoadFile json = read_link_load("tl_one_k.json");
  CHECK(h5.table.link == json.table.link);
  CHECK(h5.table.link_name == json.table.link_name);
  CHECK(h5.table.mean_messages == json.table.mean_messages);
  CHECK(h5.steps.times_ns == json.steps.times_ns);
  CHECK(h5.steps.messages == json.steps.messages);
}

TEST_CASE("timeline --links: the flow model's rates, within the links' bandwidth") {
  write_text("tl_flows.toml", links_run("flows"));
  REQUIRE(run_command_line("run tl_flows.toml --out tl_flows.h5 --force --quiet").code == 0);
  const auto r = run_command_line(
      "timeline tl_flows.h5 --sample 2 --out tl_flows.json --links tl_flows_k.json --force");
  INFO(r.output);
  REQUIRE(r.code == 0);
  const LinkLoadFile f = read_link_load("tl_flows_k.json");
  CHECK(f.model == "flows");
  CHECK(f.steps.traced() == std::min<std::size_t>(10, f.table.rows()));
  for (std::size_t i = 0; i < f.table.rows(); ++i) {
    CHECK(f.table.bandwidth[i] == 1.0);  // 1/G
    CHECK(f.table.max_rate[i] <= f.table.bandwidth[i] * (1 + 1e-12));
    // The flows carry s - 1 = 7 bytes of each message.
    CHECK(f.table.bytes_carried[i] % 7 == 0);
  }
}

TEST_CASE("timeline --links: what it may not write, or a point without links, is refused") {
  write_text("tl_bad.toml", links_run("simple"));
  REQUIRE(run_command_line("run tl_bad.toml --out tl_bad.h5 --force --quiet").code == 0);
  expect_refused(
      run_command_line("timeline tl_bad.h5 --sample 1 --out tl_bad.json --links tl_bad.txt"),
      {"--links", "tl_bad.txt", ".json or .h5"});
  expect_refused(
      run_command_line("timeline tl_bad.h5 --sample 1 --out tl_bad.json --links tl_bad.h5 --force"),
      {"tl_bad.h5"});
  expect_refused(run_command_line("timeline tl_bad.h5 --sample 1 --out tl_same.json --links "
                                  "tl_same.json --force"),
                 {"tl_same.json"});
  write_text("tl_there.json", "{}");
  expect_refused(
      run_command_line("timeline tl_bad.h5 --sample 1 --out tl_bad.json --links tl_there.json"),
      {"--links", "tl_there.json", "--force"});
  CHECK(slurp("tl_there.json") == "{}");
  expect_refused(run_command_line("timeline tl_bad.h5 --sample 1 --links ''"), {"--links"});
  // No network.contention: no links to record.
  write_text("tl_plain.toml", small_schedule_run({.name = "plain"}));
  REQUIRE(run_command_line("run tl_plain.toml --out tl_plain.h5 --force --quiet").code == 0);
  const auto plain = run_command_line(
      "timeline tl_plain.h5 --sample 1 --out tl_plain.json --links tl_plain_k.json --force");
  expect_refused(plain, {"--links", "point 0", "network.contention"});
  CHECK_FALSE(std::filesystem::exists("tl_plain_k.json"));
}
