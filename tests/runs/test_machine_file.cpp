// Machine files (runs/machine_file.hpp; docs/calibration.md, "The machine file"): a run file
// includes one with `machine = "<file>"`; its keys join every point as if the run file gave
// them, paths taken from its own folder, its content part of every point's streams, and a key
// given twice, a changed input or a damaged file refused in one line.
#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "core/errors.hpp"
#include "core/param_reader.hpp"
#include "engine/schedules/schedule_fields.hpp"
#include "estimators/prediction_fields.hpp"
#include "outputs/result_file.hpp"
#include "runs/point_factory.hpp"
#include "runs/prediction.hpp"
#include "runs/run_file.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/record_fields.hpp"

namespace fs = std::filesystem;
using namespace collnoise;
using Catch::Matchers::Contains;
using collnoise::testing::number_field;
using collnoise::testing::replace_text;
using collnoise::testing::run_command_line;
using collnoise::testing::write_text;

namespace {

const char* kDir = "machine-files";

const char* kRun = R"(name = "m"
seed = 3
samples = 20
machine = "mf/hand.toml"
[collective]
kind = "schedule"
goal = "ping.goal"
)";

// The machine file's own keys, as a run file would give them inline.
const char* kMachineKeys = R"([loggops]
L = "1us"
o = 1e-7
G = "1ns/B"
[latency]
file = "lat.out"
column = "one_way"
)";

std::string machine_text() {
  const std::string input = write_text(std::string(kDir) + "/mf/ng.out", "# size L\n1 1.0\n");
  return fmt::format(R"(# made by hand
[machine]
format = 1
name = "hand"
largest_ranks = 8
[[machine.inputs]]
path = "ng.out"
hash = "{}"
role = "netgauge-loggp"
[[machine.fitted]]
key = "loggops.o"
value = 1e-7
low = 0.8e-7
high = 1.2e-7
level = 0.9
method = "by hand"
stage = "measurements"
[[machine.draws]]
"loggops.o" = 0.9e-7
[[machine.draws]]
"loggops.o" = 1.1e-7
{})",
                     file_content_hash("ng", input), kMachineKeys);
}

void write_machine_folder() {
  fs::create_directories(std::string(kDir) + "/mf");
  write_text(std::string(kDir) + "/ping.goal",
             "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n}\n"
             "rank 1 {\nl1: recv 8b from 0 tag 0\n}\n");
  write_text(std::string(kDir) + "/mf/lat.out", "#size\trtt\n1\t3\n1\t5\n");
  write_text(std::string(kDir) + "/mf/hand.toml", machine_text());
}

RunSpec parse_in_folder(const std::string& text) {
  return load_run_file(write_text(std::string(kDir) + "/run.toml", text));
}

}  // namespace

TEST_CASE(
    "a machine file's keys join every point, paths from its folder, its content in the "
    "streams") {
  write_machine_folder();
  const RunSpec run = parse_in_folder(kRun);
  REQUIRE(run.machine);
  CHECK(run.machine->name == "hand");
  CHECK(run.machine->largest_ranks == 8u);
  REQUIRE(run.machine->fitted.size() == 1);
  CHECK(run.machine->fitted[0].low == 0.8e-7);
  REQUIRE(run.machine->draws.size() == 2);
  CHECK(std::get<double>(run.machine->draws[1].at("loggops.o")) == 1.1e-7);
  REQUIRE(run.points.size() == 1);
  CHECK(std::get<std::string>(run.points[0].params.at("latency.file")) == "mf/lat.out");

  // The same keys inline (the pool's path as the run file's folder sees it): the same point,
  // whose streams differ by the machine file's content alone.
  const std::string inline_keys = replace_text(kMachineKeys, "lat.out", "mf/lat.out");
  const RunSpec inlined =
      parse_in_folder(replace_text(kRun, "machine = \"mf/hand.toml\"\n", "") + inline_keys);
  const PreparedPoint with_machine = prepare_point(run, run.points[0]);
  const PreparedPoint without = prepare_point(inlined, inlined.points[0]);
  CHECK(with_machine.stream_identity ==
        without.stream_identity + "machine=" + run.machine->hash + "\n");
  REQUIRE(with_machine.input_files.size() == without.input_files.size() + 1);
  CHECK(with_machine.input_files.back().key == "machine");
  CHECK(with_machine.input_files.back().path == std::string(kDir) + "/mf/hand.toml");
  CHECK(with_machine.input_files.back().hash == text_content_hash(machine_text()));
  CHECK(with_machine.input_files[1].key == "latency.file");
  CHECK(with_machine.input_files[1].given_path == "mf/lat.out");

  // A comment changes the content, so the streams.
  write_text(std::string(kDir) + "/mf/hand.toml", machine_text() + "# edited\n");
  const RunSpec edited = parse_in_folder(kRun);
  CHECK(prepare_point(edited, edited.points[0]).stream_key != with_machine.stream_key);
}

TEST_CASE("a key given by the run file and its machine file is refused, in any form or place") {
  write_machine_folder();
  CHECK_THROWS_WITH(parse_in_folder(std::string(kRun) + "[loggops]\no = 2e-7\n"),
                    Contains("run.toml:9: loggops.o is given by the machine file 'mf/hand.toml' "
                             "too"));
  CHECK_THROWS_WITH(parse_in_folder(std::string(kRun) + "[[case]]\n\"latency.column\" = \"rtt\"\n"),
                    Contains("latency.column is given by the machine file"));
  CHECK_THROWS_WITH(parse_in_folder(std::string(kRun) + "[sweep]\n\"loggops.L\" = [1e-6, 2e-6]\n"),
                    Contains("loggops.L is given by the machine file"));
  // Keys of the run that the machine file does not give are the run's.
  const RunSpec swept = parse_in_folder(std::string(kRun) + "[sweep]\n\"loggops.g\" = [0, 1e-6]\n");
  CHECK(swept.points.size() == 2);
  CHECK_THROWS_WITH(parse_in_folder(replace_text(kRun, "mf/hand.toml", "mf/absent.toml")),
                    Contains("machine file 'mf/absent.toml' cannot be read"));
  CHECK_THROWS_WITH(parse_in_folder(replace_text(kRun, "\"mf/hand.toml\"", "3")),
                    Contains("run.toml:4: machine must be the path of a machine file"));
}

TEST_CASE("a damaged machine file, or one whose inputs changed, is refused in one line") {
  write_machine_folder();
  const std::string path = std::string(kDir) + "/mf/hand.toml";
  const auto refused_with = [&](const std::string& text, const std::string& message) {
    write_text(path, text);
    CHECK_THROWS_WITH(parse_in_folder(kRun), Contains(message));
  };
  const std::string good = machine_text();
  refused_with(replace_text(good, "format = 1", "format = 2"),
               "hand.toml:3: machine.format must be 1");
  refused_with(replace_text(good, "format = 1\n", ""), "[machine] has no format");
  refused_with(good + "[collective]\nN = 4\n", "collective.N is not a machine key");
  refused_with("seed = 4\n" + good, "hand.toml:1: unknown key 'seed'");
  refused_with(replace_text(good, "name = \"hand\"", "name = \"hand\"\ncolour = 1"),
               "unknown key 'machine.colour'");
  refused_with(replace_text(good, "\"loggops.o\" = 0.9e-7", "\"loggops.g\" = 0.9e-7"),
               "machine.draws gives loggops.g, which the machine file does not give");
  refused_with(replace_text(good, "low = 0.8e-7", "low = 1.05e-7"),
               "machine.fitted loggops.o: its interval [1.05e-07, 1.2e-07] at level 0.9 does not "
               "hold it");
  refused_with(replace_text(good, "largest_ranks = 8", "largest_ranks = 0"),
               "machine.largest_ranks must be an integer >= 1");
  refused_with("[loggops\n", "malformed TOML");
  // An input that changed, or is gone.
  write_text(path, good);
  write_text(std::string(kDir) + "/mf/ng.out", "# size L\n1 1.5\n");
  CHECK_THROWS_WITH(parse_in_folder(kRun),
                    Contains("machine.inputs netgauge-loggp 'ng.out' has changed since the "
                             "calibration"));
  fs::remove(std::string(kDir) + "/mf/ng.out");
  CHECK_THROWS_WITH(parse_in_folder(kRun), Contains("machine.inputs netgauge-loggp 'ng.out'") &&
                                               Contains("cannot be read"));
  // A key of a model's table that no model reads is refused when the point is prepared, as in a
  // run file.
  write_machine_folder();
  write_text(path, replace_text(good, "[loggops]", "[loggops]\nLL = 1"));
  const RunSpec run = parse_in_folder(kRun);
  CHECK_THROWS_WITH(prepare_point(run, run.points[0]), Contains("loggops.LL"));
}

TEST_CASE("parts of a run whose machine file changed between them are not merged") {
  write_machine_folder();
  const std::string run_file = write_text(std::string(kDir) + "/parts.toml", kRun);
  const std::string out = std::string(kDir) + "/part";
  REQUIRE(run_command_line("run " + run_file + " --part 1/2 --out " + out + "1.h5 --force --quiet")
              .code == 0);
  write_text(std::string(kDir) + "/mf/hand.toml", machine_text() + "# edited\n");
  REQUIRE(run_command_line("run " + run_file + " --part 2/2 --out " + out + "2.h5 --force --quiet")
              .code == 0);
  const auto merged =
      run_command_line("merge " + out + "1.h5 " + out + "2.h5 --out " + out + "s.h5 --quiet");
  INFO(merged.output);
  CHECK(merged.code != 0);
  CHECK_THAT(merged.output, Contains("machine"));
}

namespace {

const Record& prediction_of(const ResultFile& file) {
  REQUIRE(file.predictions.size() == 1);
  return file.predictions[0].summary;
}

}  // namespace

TEST_CASE("prediction.draws runs each point at the machine file's draws and predicts from them") {
  write_machine_folder();
  const std::string text =
      replace_text(kRun, "samples = 20\n", "samples = 20\nconfidence = 0.9\n") +
      "[prediction]\ndraws = 2\n";
  const RunSpec run = parse_in_folder(text);
  REQUIRE(run.points.size() == 2);
  for (std::size_t d = 0; d < 2; ++d) {
    REQUIRE(run.points[d].machine_draw);
    CHECK(run.points[d].machine_draw->draw == d);
    CHECK(std::get<double>(run.points[d].params.at("loggops.o")) == (d == 0 ? 0.9e-7 : 1.1e-7));
  }
  const PreparedPoint first = prepare_point(run, run.points[0]);
  CHECK(std::get<std::uint64_t>(*first.params.find(prediction_draw_field().name)) == 1u);
  CHECK(first.stream_key != prepare_point(run, run.points[1]).stream_key);

  const std::string run_file = write_text(std::string(kDir) + "/predict.toml", text);
  const std::string out = std::string(kDir) + "/predict";
  const auto whole = run_command_line("run " + run_file + " --out " + out + ".h5 --force");
  INFO(whole.output);
  REQUIRE(whole.code == 0);
  CHECK_THAT(whole.output, Contains("predictions from 2 draws"));
  const ResultFile file = read_result_file(out + ".h5");
  REQUIRE(file.summaries.size() == 2);
  const std::string mean = schedule_fields::kCompletion.mean().name;
  const double a = number_field(file.summaries[0], mean);
  const double b = number_field(file.summaries[1], mean);
  const double low = std::min(a, b), high = std::max(a, b);
  const Record& prediction = prediction_of(file);
  CHECK(number_field(prediction, mean) == Approx(0.5 * (a + b)).epsilon(1e-15));
  // Type 7 of two values at 0.05 and 0.95.
  const PredictedEstimateFields predicted(mean, "seconds");
  CHECK(number_field(prediction, predicted.low().name) ==
        Approx(low + 0.05 * (high - low)).epsilon(1e-15));
  CHECK(number_field(prediction, predicted.high().name) ==
        Approx(low + 0.95 * (high - low)).epsilon(1e-15));
  // 2 ranks, fitted to 8.
  CHECK_FALSE(std::get<bool>(*prediction.find(prediction_fields().extrapolation.name)));
  CHECK_FALSE(file.predictions[0].params.find("loggops.o"));

  // Parts predict nothing; their merge predicts what the whole run did.
  for (const char* part : {"1/2", "2/2"})
    REQUIRE(run_command_line(fmt::format("run {} --part {} --out {}{}.h5 --force --quiet", run_file,
                                         part, out, part[0]))
                .code == 0);
  CHECK(read_result_file(out + "1.h5").predictions.empty());
  REQUIRE(run_command_line(fmt::format("merge {0}1.h5 {0}2.h5 --out {0}m.h5 --force --quiet", out))
              .code == 0);
  const ResultFile merged_file = read_result_file(out + "m.h5");
  const Record& merged = prediction_of(merged_file);
  for (const auto& [name, value] : prediction.fields()) {
    INFO(name);
    REQUIRE(merged.find(name));
    CHECK(*merged.find(name) == value);
  }
}

TEST_CASE("prediction.draws without a machine file's draws is refused in one line") {
  write_machine_folder();
  CHECK_THROWS_WITH(parse_in_folder(std::string(kRun) + "[prediction]\ndraws = 3\n"),
                    Contains("prediction.draws = 3, but the machine file 'mf/hand.toml' holds 2 "
                             "draws"));
  CHECK_THROWS_WITH(parse_in_folder(replace_text(kRun, "machine = \"mf/hand.toml\"\n", "") +
                                    "[prediction]\ndraws = 2\n"),
                    Contains("prediction.draws needs a machine file"));
  CHECK_THROWS_WITH(parse_in_folder(std::string(kRun) + "[prediction]\ndraws = 1\n"),
                    Contains("prediction.draws"));
}
