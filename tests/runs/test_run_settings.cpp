// The run's own settings (runs/run_settings.hpp): declared like the models' keys and read
// through the same checked reader, with the rules that tie them together declared beside them.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/key_spec.hpp"
#include "engine/study.hpp"
#include "runs/run_settings.hpp"
#include "tests/fixtures/command_line.hpp"

using namespace collnoise;
using namespace collnoise::testing;

namespace {

const char* kBase = R"(name = "settings"
seed = 7
samples = 100
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
N = 15
[noise]
law = "exponential"
f = 0.1
)";

const char* kPrecise = R"(name = "settings-precise"
seed = 7
[precision]
mean_relative_half_width = 0.1
max_samples = 5000
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
N = 15
[noise]
law = "exponential"
f = 0.1
)";

CommandResult validate(const std::string& file, const std::string& text) {
  write_text(file, text);
  return run_command_line("run " + file + " --validate-only");
}

}  // namespace

TEST_CASE("run settings: a value out of range names the key, the value and the exact range") {
  expect_refused(
      validate("rs1.toml", replace_text(kBase, "seed = 7", "seed = 7\nconfidence = 1.5")),
      {"rs1.toml:3: confidence = 1.5 is out of range: it must lie in (0, 1)"});
  expect_refused(
      validate("rs2.toml", replace_text(kBase, "samples = 100", "samples = 100\nchunk_size = 0")),
      {"rs2.toml:4: chunk_size = 0 is out of range: it must be an integer in [1, 4294967296]"});
  expect_refused(
      validate("rs3.toml", std::string(kBase) + "[output]\nhistogram_spacing = \"cubic\"\n"),
      {"output.histogram_spacing = \"cubic\" is invalid: use one of auto, linear, log"});
  expect_refused(validate("rs4.toml", replace_text(kBase, "samples = 100", "samples = 1")),
                 {"samples = 1", "[2, "});
  expect_refused(validate("rs5.toml", std::string(kBase) + "[limits]\nmax_core_hours = 0\n"),
                 {"limits.max_core_hours = 0", "(0, 1e+12] core-hours"});
}

TEST_CASE("run settings: each declared rule refuses in one line") {
  expect_refused(
      validate("rr1.toml", replace_text(kBase, "samples = 100", "samples = 100\nreplications = 4")),
      {"give samples or replications (they are the same setting), not both"});
  expect_refused(validate("rr2.toml", std::string(kBase) +
                                          "[output]\nraw_samples = true\nraw_phase_times = true\n"),
                 {"output.raw_phase_times and output.raw_samples are the same setting"});
  expect_refused(
      validate("rr3.toml", std::string(kBase) + "[precision]\nmin_samples = 10\n"),
      {"[precision] needs mean_relative_half_width, quantile_relative_half_width or until"});
  expect_refused(
      validate("rr4.toml", replace_text(kPrecise, "max_samples", "quantile = 0.5\nmax_samples")),
      {"precision.quantile and precision.quantile_relative_half_width go together"});
  expect_refused(validate("rr5.toml", replace_text(kPrecise, "seed = 7", "seed = 7\nsamples = 9")),
                 {"a precision target replaces samples"});
  expect_refused(validate("rr6.toml", replace_text(kPrecise, "max_samples = 5000\n", "")),
                 {"a precision target needs precision.max_samples"});
  expect_refused(validate("rr7.toml", replace_text(kPrecise, "max_samples = 5000",
                                                   "max_samples = 500\nmin_samples = 600")),
                 {"precision.min_samples = 600 exceeds precision.max_samples = 500"});
  CHECK(validate("rr8.toml", kPrecise).code == 0);
}

TEST_CASE("run settings: every declared setting is accepted, and only those") {
  const auto ok =
      validate("ra1.toml",
               std::string(kBase) +
                   "[output]\nraw_phase_times = true\nhistogram_bins = 50\n"
                   "[plot]\ntitle = \"t\"\nx = \"collective.N\"\n[limits]\nmax_memory_gib = 2\n");
  INFO(ok.output);
  CHECK(ok.code == 0);
  expect_refused(validate("ra2.toml", std::string(kBase) + "[output]\nhistogram_binz = 50\n"),
                 {"unknown key 'output.histogram_binz'"});
  // Every rule names declared settings only.
  for (const SettingRule& rule : run_setting_rules()) {
    for (const auto& key : rule.keys) CHECK(is_run_setting(key));
    for (const auto& key : rule.others) CHECK(is_run_setting(key));
  }
  // A model's own settings table is the model's, not a point's.
  bool any_model_settings = false;
  for (const ModelKind& model : model_kinds())
    for (const KeySpec& key : model.settings) {
      any_model_settings = true;
      CHECK_FALSE(is_run_setting(key.name));
    }
  CHECK(any_model_settings);
}

TEST_CASE("run settings: a range ends where it says, in every digit") {
  CHECK(Bounds{1.0, 4294967296.0}.describe() == "[1, 4294967296]");
  CHECK(Bounds{0.0, 1.0e6}.describe() == "[0, 1e+06]");
  CHECK(Bounds{0.0, 1.0, true, true}.describe() == "(0, 1)");
}

TEST_CASE("run settings: the run kinds are the analysis models' own") {
  // "sample", then each analysis model's run kind, in the order of model_kinds().
  std::vector<std::string> expected = {kSampleRunKind};
  for (const ModelKind& model : model_kinds())
    if (!model.run_kind.empty()) expected.push_back(model.run_kind);
  CHECK(run_kinds() == expected);
  CHECK(std::find(expected.begin(), expected.end(), "nhalf") != expected.end());
  CHECK(std::find(expected.begin(), expected.end(), "isoefficiency") != expected.end());
  const auto& settings = run_setting_keys();
  const auto kind = std::find_if(settings.begin(), settings.end(),
                                 [](const KeySpec& k) { return k.name == "kind"; });
  REQUIRE(kind != settings.end());
  CHECK(kind->choices == expected);
  expect_refused(
      validate("rk1.toml", replace_text(kBase, "seed = 7", "seed = 7\nkind = \"bogus\"")),
      {"kind = \"bogus\" is invalid: use one of sample,", "nhalf", "isoefficiency"});
}
