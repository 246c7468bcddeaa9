// The cases of a cycle run (collective.cases, docs/models/loggops-cycles.md): a run simulates,
// tallies and summarises only the cases it chooses, each with exactly the bits it has in a run of
// all of them; the default is every case, as before the key existed; bad lists are refused with
// one line naming the key and the valid names.
#include <fmt/format.h>
#include <bit>
#include <catch2/catch.hpp>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/param_reader.hpp"
#include "engine/cycles/cycle_study.hpp"
#include "runs/point_factory.hpp"
#include "runs/run_file.hpp"
#include "tests/fixtures/command_line.hpp"

namespace fs = std::filesystem;
using namespace collnoise;
using collnoise::testing::replace_text;
using collnoise::testing::run_command_line;
using collnoise::testing::write_text;

namespace {

// Five points: the butterfly under periodic, Poisson and per-stage noise and on the reference
// simulator, and the dissemination barrier.
const char* kHeader = R"(name = "cycle-cases"
seed = 31
replications = 6
[collective]
kind = "butterfly"
N = 64
cycles = 3
W = 2.0e-4
)";
const char* kPoints[] = {
    R"("noise.law" = "periodic"
"noise.P" = 1.0e-3
"noise.D" = 5.0e-5
)",
    R"("noise.law" = "poisson"
"noise.rate" = 2000.0
"noise.duration.mean" = 2.0e-5
)",
    R"("noise.law" = "exponential"
"noise.f" = 0.05
)",
    R"("collective.engine" = "reference"
"collective.N" = 16
"noise.law" = "periodic"
"noise.P" = 1.0e-3
"noise.D" = 5.0e-5
)",
    R"("collective.kind" = "dissemination"
"collective.N" = 50
"noise.law" = "periodic"
"noise.P" = 7.0e-4
"noise.D" = 3.0e-5
)"};
constexpr std::size_t kDissemination = 4;

// Every non-empty subset of `all`, in the order given and reversed (order must not matter).
std::vector<std::vector<std::string>> subsets(const std::vector<std::string>& all) {
  std::vector<std::vector<std::string>> out;
  for (unsigned mask = 1; mask < (1u << all.size()); ++mask) {
    std::vector<std::string> s;
    for (std::size_t i = 0; i < all.size(); ++i)
      if (mask & (1u << i)) s.push_back(all[i]);
    out.push_back(s);
    if (s.size() > 1) out.emplace_back(s.rbegin(), s.rend());
  }
  return out;
}

std::string toml_list(const std::vector<std::string>& names) {
  return names.empty() ? "[]" : fmt::format("[\"{}\"]", fmt::join(names, "\", \""));
}

// Point p of kPoints with `cases` (a TOML list; empty: the default).
PreparedPoint point_with(std::size_t p, const std::string& cases) {
  std::string text = std::string(kHeader) + "[[case]]\n" + kPoints[p];
  if (!cases.empty()) text += "\"collective.cases\" = " + cases + "\n";
  auto points = prepare_points(parse_run_text(text, "cycle-cases.toml"));
  REQUIRE(points.size() == 1);
  return std::move(points.front());
}

// What one point's study produces for replications first..first+count-1: each metric's values
// by name (bit patterns) and each histogram's counts by name.
struct Simulated {
  std::map<std::string, std::vector<std::uint64_t>> metrics;
  std::map<std::string, std::vector<std::uint64_t>> histograms;
};

Simulated simulate(const SampledStudy& study, std::uint64_t first, std::size_t count, int threads) {
  const TallyLayout layout = study.layout(64, "auto");
  const std::size_t width = layout.metrics.size();
  std::vector<double> rows(count * width);
  std::vector<Histogram> histograms;
  for (const auto& h : layout.histograms) histograms.push_back(h.histogram);
  std::vector<Histogram*> extra;
  for (auto& h : histograms) extra.push_back(&h);
  study.simulate(first, rows, extra, threads);
  Simulated out;
  for (std::size_t m = 0; m < width; ++m)
    for (std::size_t k = 0; k < count; ++k)
      out.metrics[layout.metrics[m]].push_back(std::bit_cast<std::uint64_t>(rows[k * width + m]));
  for (std::size_t h = 0; h < histograms.size(); ++h) {
    auto counts = histograms[h].counts();
    counts.push_back(histograms[h].underflow());
    counts.push_back(histograms[h].overflow());
    out.histograms[layout.histograms[h].name] = counts;
  }
  return out;
}

// Whether a metric is one case's own: its T_M ("<case>_total") or a T_c ("<case>_T<c>").
bool of_cases(const std::string& name, const std::vector<std::string>& cases) {
  for (const auto& c : cases)
    if (name == c + "_total" || (name.rfind(c + "_T", 0) == 0 && name.size() > c.size() + 2 &&
                                 std::isdigit(static_cast<unsigned char>(name[c.size() + 2]))))
      return true;
  return false;
}

std::string run_out(const std::string& args) {
  const auto r = run_command_line(args);
  INFO(r.output);
  REQUIRE(r.code == 0);
  return r.output;
}

// The summary --json text of the value of `key` (up to the end of its line).
std::string json_line(const std::string& json, const std::string& key) {
  const auto at = json.find("\"" + key + "\":");
  if (at == std::string::npos) return "<absent>";
  return json.substr(at, json.find('\n', at) - at);
}

const char* kRun = R"(name = "cases-run"
seed = 12
replications = 6
output.raw_samples = true
[collective]
kind = "butterfly"
N = 128
cycles = 4
W = 1.0e-4
[noise]
law = "periodic"
P = 1.0e-3
D = 5.0e-5
)";

}  // namespace

TEST_CASE("cycle cases: a chosen case has the same bits with or without the others") {
  for (std::size_t p = 0; p < std::size(kPoints); ++p) {
    const PreparedPoint full = point_with(p, "");
    const auto all_cases = CycleStudy::available_cases(
        p == kDissemination ? CycleAlgorithm::kDissemination : CycleAlgorithm::kButterfly);
    for (int threads : {1, 2}) {
      const Simulated reference = simulate(*full.sampled, 3, 5, threads);
      for (const auto& chosen : subsets(all_cases)) {
        INFO("point " << p << ", threads " << threads << ", cases " << toml_list(chosen));
        const PreparedPoint some = point_with(p, toml_list(chosen));
        // Not an identity key: the same streams.
        REQUIRE(some.stream_key == full.stream_key);
        const Simulated got = simulate(*some.sampled, 3, 5, threads);
        // Every metric and histogram of the subset is the full run's, bit for bit...
        for (const auto& [name, values] : got.metrics) {
          INFO(name);
          REQUIRE(reference.metrics.contains(name));
          CHECK(values == reference.metrics.at(name));
        }
        for (const auto& [name, counts] : got.histograms) {
          INFO(name);
          REQUIRE(reference.histograms.contains(name));
          CHECK(counts == reference.histograms.at(name));
        }
        // ... and every one of a chosen case is there; none of a case left out is.
        std::vector<std::string> left;
        for (const auto& c : all_cases)
          if (std::find(chosen.begin(), chosen.end(), c) == chosen.end()) left.push_back(c);
        for (const auto& [name, values] : reference.metrics) {
          INFO(name);
          if (of_cases(name, chosen)) CHECK(got.metrics.contains(name));
          if (of_cases(name, left)) CHECK_FALSE(got.metrics.contains(name));
        }
        for (const auto& c : chosen) CHECK(got.histograms.contains("finish_time_" + c));
        CHECK(got.histograms.size() == chosen.size());
        if (std::find(chosen.begin(), chosen.end(), "redundant") == chosen.end())
          CHECK_FALSE(got.metrics.contains("adoptions_per_rank_cycle"));
        // Fewer cases cost less and, without the redundant case, hold less.
        if (chosen.size() < all_cases.size()) {
          CHECK(some.sampled->cost_per_sample() < full.sampled->cost_per_sample());
          CHECK(some.sampled->working_bytes(2) <= full.sampled->working_bytes(2));
        }
      }
    }
  }
}

TEST_CASE("cycle cases: the default is every case, spelt out or not") {
  for (std::size_t p = 0; p < std::size(kPoints); ++p) {
    const bool butterfly = p != kDissemination;
    const PreparedPoint defaults = point_with(p, "");
    const PreparedPoint spelt =
        point_with(p, butterfly ? R"(["quiet", "redundant", "conventional"])"
                                : R"(["quiet", "conventional"])");
    CHECK(defaults.stream_key == spelt.stream_key);
    CHECK(defaults.sampled->layout(64, "auto").metrics ==
          spelt.sampled->layout(64, "auto").metrics);
    const Field* cases = defaults.params.find("collective.cases");
    REQUIRE(cases);
    CHECK(std::get<std::string>(*cases) == (butterfly ? R"(["conventional", "redundant", "quiet"])"
                                                      : R"(["conventional", "quiet"])"));
  }
  // The layout of every case, as before collective.cases: totals, differences, series.
  const TallyLayout butterfly = point_with(0, "").sampled->layout(64, "auto");
  REQUIRE(butterfly.metrics.size() == 6 + 3 * 3);
  CHECK(std::vector<std::string>(butterfly.metrics.begin(), butterfly.metrics.begin() + 6) ==
        std::vector<std::string>{"conventional_total", "redundant_total", "quiet_total",
                                 "conventional_minus_redundant", "conventional_minus_quiet",
                                 "adoptions_per_rank_cycle"});
  CHECK(butterfly.pairs == std::vector<std::pair<std::size_t, std::size_t>>{{3, 4}});
  const TallyLayout barrier = point_with(kDissemination, "").sampled->layout(64, "auto");
  REQUIRE(barrier.metrics.size() == 3 + 2 * 3);
  CHECK(std::vector<std::string>(barrier.metrics.begin(), barrier.metrics.begin() + 3) ==
        std::vector<std::string>{"conventional_total", "quiet_total", "conventional_minus_quiet"});
  CHECK(barrier.pairs.empty());
}

TEST_CASE("cycle cases: the summary of the conventional case alone") {
  write_text("cases_all.toml", kRun);
  write_text("cases_conv.toml",
             replace_text(kRun, "cycles = 4\n", "cycles = 4\ncases = [\"conventional\"]\n"));
  run_out("run cases_all.toml --out cases_all.h5 --force --quiet --threads 2");
  const std::string table = run_out("run cases_conv.toml --out cases_conv.h5 --force --threads 1");
  const std::string all = run_out("summary cases_all.h5 --json");
  const std::string conv = run_out("summary cases_conv.h5 --json");
  // The conventional case's estimates and series: the same text, so the same bits.
  for (const char* key :
       {"conventional_samples", "conventional_mean", "conventional_ci_low", "conventional_ci_high",
        "conventional_standard_error", "conventional_T", "conventional_T_ci_low",
        "conventional_T_ci_high", "noiseless_closed_form", "noiseless_closed_form_redundant",
        "noise_busy_fraction", "warnings"}) {
    INFO(key);
    CHECK(json_line(conv, key) == json_line(all, key));
    CHECK(json_line(conv, key) != "<absent>");
  }
  // The cases left out: null with the reason; their series absent.
  CHECK(json_line(conv, "quiet_mean") == "\"quiet_mean\": null,");
  CHECK(json_line(conv, "quiet_mean_reason")
            .find("collective.cases = [\\\"conventional\\\"] "
                  "leaves out the quiet case") != std::string::npos);
  CHECK(json_line(conv, "redundant_mean") == "\"redundant_mean\": null,");
  CHECK(json_line(conv, "quiet_T") == "<absent>");
  CHECK(json_line(conv, "redundant_T") == "<absent>");
  CHECK(json_line(conv, "adoptions_per_rank_cycle") == "\"adoptions_per_rank_cycle\": null,");
  CHECK(json_line(conv, "recovery_ratio") == "\"recovery_ratio\": null,");
  CHECK(json_line(conv, "recovery_ratio_reason").find("leaves out redundant and quiet") !=
        std::string::npos);
  CHECK(json_line(conv, "recovery_ratio_method") == "<absent>");
  CHECK(json_line(conv, "collective.cases") == R"("collective.cases": "[\"conventional\"]",)");
  // The table shows the conventional case only.
  CHECK(table.find("conv[s]") != std::string::npos);
  for (const char* gone : {"quiet[s]", "red[s]", "ratio"})
    CHECK(table.find(gone) == std::string::npos);
  // The raw samples (metric 0, the conventional T_M) are the full run's.
  const auto raw = [](const std::string& file) {
    const auto points = prepare_points(load_run_file(file));
    return points.front().sampled->layout(64, "auto").metrics.front();
  };
  CHECK(raw("cases_all.toml") == "conventional_total");
  CHECK(raw("cases_conv.toml") == "conventional_total");
}

TEST_CASE("cycle cases: without the conventional case the first case run is the primary one") {
  write_text("cases_quiet.toml", replace_text(kRun, "cycles = 4\n",
                                              "cycles = 4\ncases = [\"quiet\", \"redundant\"]\n"));
  const std::string table =
      run_out("run cases_quiet.toml --out cases_quiet.h5 --force --threads 2");
  const auto points = prepare_points(load_run_file("cases_quiet.toml"));
  const auto& study = *points.front().sampled;
  CHECK(study.layout(64, "auto").metrics.front() == "redundant_total");
  CHECK(study.plot_hints().y == "redundant_mean");
  CHECK(study.plot_hints().references ==
        std::vector<std::string>{"quiet_mean", "noiseless_closed_form"});
  std::vector<std::string> fields;
  for (const auto& c : study.columns()) fields.push_back(c.field);
  CHECK(fields == std::vector<std::string>{"redundant_samples", "quiet_mean", "redundant_mean",
                                           "noiseless_closed_form"});
  CHECK(table.find("conv[s]") == std::string::npos);
  const std::string json = run_out("summary cases_quiet.h5 --json");
  CHECK(json_line(json, "conventional_mean") == "\"conventional_mean\": null,");
  CHECK(json_line(json, "adoptions_per_rank_cycle") != "\"adoptions_per_rank_cycle\": null,");
  CHECK(json_line(json, "recovery_ratio_reason").find("leaves out conventional") !=
        std::string::npos);
  // The same values as the run of every case.
  write_text("cases_all.toml", kRun);
  run_out("run cases_all.toml --out cases_all.h5 --force --quiet --threads 1");
  const std::string all = run_out("summary cases_all.h5 --json");
  for (const char* key : {"quiet_mean", "quiet_T", "redundant_mean", "redundant_ci_low",
                          "redundant_T", "adoptions_per_rank_cycle"})
    CHECK(json_line(json, key) == json_line(all, key));
}

TEST_CASE("cycle cases: a sweep over the cases, one case per point") {
  write_text("cases_sweep.toml",
             std::string(kRun) + "[sweep]\n\"collective.cases\" = [\"conventional\", \"quiet\"]\n");
  run_out("run cases_sweep.toml --out cases_sweep.h5 --force --quiet");
  const std::string json = run_out("summary cases_sweep.h5 --json");
  CHECK(json.find(R"("collective.cases": "[\"conventional\"]")") != std::string::npos);
  CHECK(json.find(R"("collective.cases": "[\"quiet\"]")") != std::string::npos);
}

TEST_CASE("cycle cases: bad lists are refused in one line naming the key and the valid names") {
  const auto refused = [](const std::string& list, const std::string& kind,
                          const std::vector<std::string>& expected) {
    std::string text = replace_text(kRun, "cycles = 4\n", "cycles = 4\ncases = " + list + "\n");
    if (kind != "butterfly") text = replace_text(text, "\"butterfly\"", "\"" + kind + "\"");
    write_text("cases_bad.toml", text);
    fs::remove("cases_bad.h5");
    const auto r = run_command_line("run cases_bad.toml --out cases_bad.h5 --quiet");
    INFO(list << " (" << kind << "): " << r.output);
    CHECK(r.code == 2);
    CHECK_FALSE(fs::exists("cases_bad.h5"));
    // One line (the message, then its newline).
    CHECK(r.output.find('\n') == r.output.size() - 1);
    for (const auto& e : expected) CHECK(r.output.find(e) != std::string::npos);
  };
  const std::vector<std::string> butterfly = {"collective.cases", "\"conventional\"",
                                              "\"redundant\"", "\"quiet\""};
  refused(R"(["conventional", "noisy"])", "butterfly", butterfly);
  refused(R"(["Quiet"])", "butterfly", butterfly);
  refused("[]", "butterfly", butterfly);
  refused(R"(["quiet", "quiet"])", "butterfly", butterfly);
  refused(R"(["redundant"])", "dissemination",
          {"collective.cases", "no redundant variant", "\"conventional\", \"quiet\""});
  refused("[1, 2]", "butterfly", {"collective.cases", "a list of strings"});
  refused(R"(["quiet", 2])", "butterfly", {"collective.cases", "list of strings"});
  refused("true", "butterfly", {"collective.cases", "a list of strings"});
  // Only cycle models read the key.
  write_text("cases_tree.toml", R"(name = "t"
seed = 1
samples = 10
[collective]
kind = "tree_barrier"
N = 8
w = 1.0e-3
cases = ["conventional"]
[noise]
law = "exponential"
f = 0.01
)");
  const auto tree = run_command_line("run cases_tree.toml --out cases_tree.h5 --quiet");
  CHECK(tree.code == 2);
  CHECK(tree.output.find("collective.cases") != std::string::npos);
}

TEST_CASE("cycle cases: lists of strings as parameter values") {
  // The cycle models' own declaration of the key.
  KeySpec key;
  for (const auto& k : cycle_model_kind().keys)
    if (k.name == "collective.cases") key = k;
  REQUIRE(key.type == KeyType::kTextList);
  CHECK_FALSE(key.identity);
  // A list as given, a single string as a list of one, TOML's empty list as an empty list.
  ParamReader reader({{"collective.cases", TextList{"quiet", "conventional"}}});
  CHECK(reader.texts(key) == TextList{"quiet", "conventional"});
  CHECK(ParamReader({{"collective.cases", std::string("quiet")}}).texts(key) == TextList{"quiet"});
  CHECK(ParamReader({{"collective.cases", NumberList{}}}).texts(key).empty());
  CHECK_THROWS_WITH(ParamReader({{"collective.cases", NumberList{1.0}}}).texts(key),
                    Catch::Contains("collective.cases must be a list of strings"));
  // Their text (in a point's params record) is a JSON list, quotes escaped.
  CHECK(to_text(TextList{"conventional", "quiet"}) == R"(["conventional", "quiet"])");
  CHECK(to_text(TextList{R"(a"b\c)"}) == R"(["a\"b\\c"])");
  CHECK(to_text(TextList{}) == "[]");
  // Not an identity key: no stream identity, whatever the list.
  CHECK(reader.stream_identity().empty());
}
