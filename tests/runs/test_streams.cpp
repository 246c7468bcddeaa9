// Streams that stay put (docs/models/streams.md): a point's random numbers follow from the seed
// and the keys that define its model, given other than their defaults, and from the content of
// its data files, not their paths.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "core/param_reader.hpp"
#include "core/rng.hpp"
#include "outputs/result_file.hpp"
#include "tests/fixtures/command_line.hpp"

namespace fs = std::filesystem;
using collnoise::testing::replace_text;
using collnoise::testing::run_command_line;
using collnoise::testing::write_text;

namespace {

const char* kTree = R"(name = "streams"
seed = 9
samples = 300
[collective]
kind = "tree_barrier"
w = 1.0e-3
N = 1000
[noise]
law = "pareto"
a = 2.5
f = 0.01
)";

const char* kCycles = R"(name = "streams-cycles"
seed = 9
replications = 6
[collective]
kind = "butterfly"
N = 16
cycles = 2
W = 1.0e-4
[noise]
law = "trace"
file = "streams-trace.txt"
unit = "us"
)";

// summary --json of a run of `text`, without the run-file path and timing it records.
std::string run_summary(const std::string& name, const std::string& text) {
  write_text(name + ".toml", text);
  fs::remove(name + ".h5");
  const auto run = run_command_line("run " + name + ".toml --out " + name + ".h5 --quiet");
  INFO(run.output);
  REQUIRE(run.code == 0);
  const auto json = run_command_line("summary " + name + ".h5 --json");
  REQUIRE(json.code == 0);
  return json.output.substr(json.output.find("\"points\""));
}

std::string mean_of(const std::string& json, const std::string& field = "mean") {
  const auto at = json.find("\"" + field + "\":");
  REQUIRE(at != std::string::npos);
  return json.substr(at, json.find(',', at) - at);
}

}  // namespace

TEST_CASE("stream identity: defaults, non-identity keys and files by content") {
  using namespace collnoise;
  const KeySpec tau{.name = "collective.tau", .fallback = 0.0};
  const KeySpec engine{.name = "collective.engine",
                       .type = KeyType::kChoice,
                       .fallback = std::string("fast"),
                       .choices = {"fast", "reference"},
                       .identity = false};
  const KeySpec w{.name = "collective.w"};
  ParamReader omitted(ParamMap{{"collective.w", 1.0e-3}});
  omitted.number(w);
  omitted.number(tau);
  omitted.text(engine);
  ParamReader spelt(ParamMap{
      {"collective.w", 1.0e-3}, {"collective.tau", 0.0}, {"collective.engine", "reference"}});
  spelt.number(w);
  spelt.number(tau);
  spelt.text(engine);
  CHECK(omitted.stream_identity() == "collective.w=0x1.0624dd2f1a9fcp-10\n");
  CHECK(spelt.stream_identity() == omitted.stream_identity());
  // The record keeps every value read, defaults included.
  CHECK(spelt.resolved().size() == 3);
  CHECK(omitted.resolved().size() == 3);
  // Another value of an identity key is another model.
  ParamReader other(ParamMap{{"collective.w", 1.0e-3}, {"collective.tau", 1.0e-6}});
  other.number(w);
  other.number(tau);
  CHECK(other.stream_identity() != omitted.stream_identity());
  // Files by their content.
  write_text("identity-a.txt", "1e-6\n2e-6\n");
  write_text("identity-b.txt", "1e-6\n2e-6\n");
  write_text("identity-c.txt", "1e-6\n3e-6\n");
  const KeySpec file{.name = "noise.file", .type = KeyType::kFile};
  const auto identity_of = [&](const std::string& path) {
    ParamReader r(ParamMap{{"noise.file", path}});
    r.text(file);
    return r.stream_identity();
  };
  CHECK(identity_of("identity-a.txt") == identity_of("identity-b.txt"));
  CHECK(identity_of("identity-a.txt") != identity_of("identity-c.txt"));
  CHECK(identity_of("identity-a.txt").starts_with("noise.file=xxh3:"));
}

TEST_CASE("spelling out defaults or moving a data file changes no stream") {
  const std::string base = run_summary("streams-base", kTree);
  const std::string spelt =
      run_summary("streams-spelt", replace_text(kTree, "w = 1.0e-3",
                                                "w = 1.0e-3\ntau = 0.0\nsampling = "
                                                "\"per_rank\""));
  CHECK(spelt == base);
  // Another value of an identity key draws other numbers.
  const std::string other =
      run_summary("streams-other", replace_text(kTree, "w = 1.0e-3", "w = 1.0e-3\ntau = 1.0e-9"));
  CHECK(mean_of(other) != mean_of(base));

  // A trace moved to another folder and renamed: the same numbers; another trace: others.
  write_text("streams-trace.txt", "0\t50\n400\t30\n1000\t80\n");
  fs::create_directories("streams-moved");
  write_text("streams-moved/renamed.txt", "0\t50\n400\t30\n1000\t80\n");
  const std::string here = run_summary("streams-cycles", kCycles);
  const std::string moved =
      run_summary("streams-cycles-moved",
                  replace_text(kCycles, "streams-trace.txt", "streams-moved/renamed.txt"));
  const auto without_paths = [](std::string json) {
    for (const char* path : {"streams-trace.txt", "streams-moved/renamed.txt"})
      for (auto at = json.find(path); at != std::string::npos; at = json.find(path))
        json.erase(at, std::string(path).size());
    return json;
  };
  CHECK(without_paths(moved) == without_paths(here));
  write_text("streams-moved/other.txt", "0\t50\n400\t31\n1000\t80\n");
  const std::string changed =
      run_summary("streams-cycles-other",
                  replace_text(kCycles, "streams-trace.txt", "streams-moved/other.txt"));
  CHECK(mean_of(changed, "conventional_mean") != mean_of(here, "conventional_mean"));
  // The reference simulator is how, not what: the same streams, the same numbers.
  const std::string reference =
      run_summary("streams-cycles-reference",
                  replace_text(kCycles, "cycles = 2", "cycles = 2\nengine = \"reference\""));
  CHECK(mean_of(reference, "conventional_mean") == mean_of(here, "conventional_mean"));
}

TEST_CASE("results record their stream format, merges refuse parts of another") {
  run_summary("streams-format", kTree);
  const collnoise::ResultFile file = collnoise::read_result_file("streams-format.h5");
  const collnoise::Field* format = file.root.find("stream_format");
  REQUIRE(format != nullptr);
  CHECK(std::get<std::int64_t>(*format) == collnoise::kStreamFormat);
  // A result of 645c846 (stream format 1, before the field existed) is not a share of a run of
  // this build.
  const std::string old =
      std::string(COLLNOISE_SOURCE_DIR) + "/tests/fixtures/data/old-format-645c846.h5";
  const auto refused = run_command_line("merge " + old + " --out streams-merged.h5 --quiet");
  INFO(refused.output);
  CHECK(refused.code == 2);
  CHECK(refused.output.find("stream format 1") != std::string::npos);
}
