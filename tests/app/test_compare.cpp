// collnoise compare (app/compare_command.hpp): the two-sample statistics against hand-computed
// values (estimators/two_sample.hpp), the measured files read as documented
// (distributions/measured_times.hpp), and the command end to end on small runs and generated
// files.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <vector>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "distributions/measured_times.hpp"
#include "estimators/quantile_interval.hpp"
#include "estimators/two_sample.hpp"
#include "outputs/result_file.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

using namespace collnoise;
using namespace collnoise::testing;

namespace {

// n exponential values of mean `mean`, sorted, from a fixed stream.
std::vector<double> exponential_sample(std::size_t n, double mean, std::uint64_t stream) {
  Pcg32 rng(2024, stream);
  std::vector<double> x;
  for (std::size_t i = 0; i < n; ++i) x.push_back(-mean * std::log(rng.next_uniform()));
  std::sort(x.begin(), x.end());
  return x;
}

std::string refusal(const std::string& path, const MeasuredOptions& options) {
  try {
    read_measured_times(path, options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(read without error)";
}

}  // namespace

TEST_CASE("two-sample: KS and Wasserstein-1 distances by hand", "[compare]") {
  // F_a = 1/3, 2/3, 1 at 1, 2, 3; G_b = 1/2, 1 at 2, 4: |F - G| is 1/3 on [1, 2), 1/6 on
  // [2, 3), 1/2 on [3, 4).
  const std::vector<double> a{1, 2, 3}, b{2, 4};
  CHECK(ks_distance(a, b) == Approx(0.5));
  CHECK(wasserstein1_distance(a, b) == Approx(1.0 / 3 + 1.0 / 6 + 1.0 / 2));
  CHECK(ks_distance(b, a) == ks_distance(a, b));
  // Ties across the samples: after 1, 2/3 against 1/3; equal after 2.
  const std::vector<double> c{1, 1, 2}, d{1, 2, 2};
  CHECK(ks_distance(c, d) == Approx(1.0 / 3));
  CHECK(wasserstein1_distance(c, d) == Approx(1.0 / 3));
  // One sample below the other: W1 is the difference of the means.
  const std::vector<double> low{0, 0}, high{1, 3};
  CHECK(ks_distance(low, high) == 1.0);
  CHECK(wasserstein1_distance(low, high) == Approx(2.0));
  // A sample against itself: 0, exactly.
  CHECK(ks_distance(a, a) == 0.0);
  CHECK(wasserstein1_distance(a, a) == 0.0);
}

TEST_CASE("two-sample: DKW band, Kolmogorov's law, the intervals' arithmetic", "[compare]") {
  CHECK(dkw_half_width(100, 0.05) == Approx(std::sqrt(std::log(40.0) / 200.0)));
  // Kolmogorov's survival function at known points (both series meet at 1.18).
  CHECK(kolmogorov_survival(1.0) == Approx(0.26999967).epsilon(1e-6));
  CHECK(kolmogorov_survival(0.5) == Approx(0.96394524).epsilon(1e-6));
  CHECK(kolmogorov_survival(1.3580986) == Approx(0.05).epsilon(1e-4));
  CHECK(kolmogorov_survival(1.17999) == Approx(kolmogorov_survival(1.18001)).epsilon(1e-4));
  CHECK(kolmogorov_survival(0.0) == 1.0);
  CHECK(kolmogorov_survival(40.0) == 0.0);
  // The KS interval is D -+ (eps_n + eps_m), each band at (1 - level) / 2.
  const std::vector<double> a{1, 2, 3}, b{2, 4};
  const TwoSampleDistances t = two_sample_distances(a, b, 0.9);
  const double e = dkw_half_width(3, 0.05) + dkw_half_width(2, 0.05);
  CHECK(t.ks.value == Approx(0.5));
  CHECK(t.ks.ci_low == std::max(0.0, 0.5 - e));
  CHECK(t.ks.ci_high == std::min(1.0, 0.5 + e));
  CHECK(t.ks_p_value == Approx(kolmogorov_survival(std::sqrt(6.0 / 5.0) * 0.5)));
  // W1's bounds bracket it; bands this wide allow |F - G| = 0 everywhere.
  CHECK(t.wasserstein1.ci_low == 0.0);
  CHECK(t.wasserstein1.ci_high >= t.wasserstein1.value);
  CHECK(t.wasserstein1.ci_high <= 3.0);  // |F - G| <= 1 over the samples' range [1, 4]
}

TEST_CASE("two-sample: two samples of one law are not told apart, of two laws they are",
          "[compare]") {
  const auto x = exponential_sample(2000, 1.0, 1);
  const auto same = exponential_sample(1500, 1.0, 2);
  const TwoSampleDistances s = two_sample_distances(x, same, 0.95);
  INFO("D " << s.ks.value << " p " << s.ks_p_value << " W1 " << s.wasserstein1.value);
  CHECK(s.ks.ci_low == 0.0);
  CHECK(s.ks.ci_high < 0.12);
  CHECK(s.wasserstein1.ci_low == 0.0);
  CHECK(s.ks_p_value > 0.1);
  const auto slower = exponential_sample(1500, 1.5, 2);
  const TwoSampleDistances d = two_sample_distances(x, slower, 0.95);
  INFO("D " << d.ks.value << " p " << d.ks_p_value << " W1 " << d.wasserstein1.value);
  CHECK(d.ks.ci_low > 0.03);
  CHECK(d.wasserstein1.ci_low > 0.1);
  CHECK(d.ks_p_value < 1e-9);
  // The true W1 between the laws is the difference of the means, 0.5: inside the interval.
  CHECK(d.wasserstein1.ci_low < 0.5);
  CHECK(d.wasserstein1.ci_high > 0.5);
  const MeanRatio r = ratio_of_independent_means(slower, x, 0.95);
  CHECK(*r.ci_low.value < 1.5);
  CHECK(*r.ci_high.value > 1.5);
  CHECK(*r.ci_low.value > 1.3);
}

TEST_CASE("two-sample: quantiles, their bootstrap and distribution-free intervals", "[compare]") {
  std::vector<double> ten;
  for (int i = 1; i <= 10; ++i) ten.push_back(i);
  CHECK(quantile_rank(10, 0.5) == 5);
  CHECK(quantile_rank(1000, 0.9) == 900);
  CHECK(quantile_rank(1000, 0.999) == 999);
  CHECK(quantile_rank(3, 0.999) == 3);
  // The resampled median x*_(5) <= x_(j) with probability P(Bin(10, j/10) >= 5): 0.0016 at
  // j = 1, 0.033 at j = 2 (the first >= 0.025); 0.953 at j = 7, 0.994 at j = 8 (>= 0.975).
  const SampleQuantile m = bootstrap_quantile(ten, 0.5, 0.95);
  CHECK(m.estimate == 5.0);
  CHECK(*m.ci_low.value == 2.0);
  CHECK(*m.ci_high.value == 8.0);
  // The same endpoints from 20000 resamples at a fixed seed: the exact form is the bootstrap.
  Pcg32 rng(7, 1);
  std::vector<double> medians;
  for (int b = 0; b < 20000; ++b) {
    std::vector<double> resample;
    for (int i = 0; i < 10; ++i) resample.push_back(ten[rng.next_below(10)]);
    std::nth_element(resample.begin(), resample.begin() + 4, resample.end());
    medians.push_back(resample[4]);
  }
  std::sort(medians.begin(), medians.end());
  CHECK(medians[static_cast<std::size_t>(0.025 * 20000)] == 2.0);
  CHECK(medians[static_cast<std::size_t>(0.975 * 20000)] == 8.0);
  // Distribution-free: ranks 39 and 61 of 100 bracket the median at 95 % (the 2.5 % and 97.5 %
  // quantiles of Bin(100, 1/2), 39.x and 59.x, rounded outwards, the upper one plus 1:
  // P(39 <= Bin < 61) = 0.972), as the summaries' histogram intervals take them.
  std::vector<double> hundred;
  for (int i = 1; i <= 100; ++i) hundred.push_back(i);
  const QuantileEstimate q = quantile_from_sorted(hundred, 0.5, 0.95);
  CHECK(*q.estimate.value == 50.0);
  CHECK(*q.ci_low.value == 39.0);
  CHECK(*q.ci_high.value == 61.0);
  // Too few samples for a p999's upper bound: null, with the reason.
  const QuantileEstimate tail = quantile_from_sorted(hundred, 0.999, 0.95);
  CHECK_FALSE(tail.ci_high.has_value());
  CHECK(tail.ci_high.reason.find("too few samples") != std::string::npos);
  // The ratio of means: 3 / 2, se^2 = 2 / (2 * 9) + 2 / (2 * 4) on the log scale.
  const std::vector<double> num{2, 4}, den{1, 3};
  const MeanRatio r = ratio_of_independent_means(num, den, 0.95);
  const double se = std::sqrt(1.0 / 9 + 1.0 / 4);
  CHECK(*r.ratio.value == Approx(1.5));
  CHECK(*r.ci_low.value == Approx(1.5 * std::exp(-1.959963985 * se)));
  CHECK(*r.ci_high.value == Approx(1.5 * std::exp(1.959963985 * se)));
}

TEST_CASE("measured times: the per-rank table and the list, read as documented", "[compare]") {
  write_text("cmp_table.csv",
             "#MessageSize Rank0Time(us) Rank1Time(us) Rank2Time(us) \n"
             "16 1.5 4.0 2.0 \n"
             "16 3.0 1.0 2.5 \n"
             "\n"
             "# a comment between rows\n"
             "1024 10.0 11.0 12.0 \n");
  // Two sizes: one must be chosen.
  CHECK(refusal("cmp_table.csv", {}).find("16, 1024 bytes: choose one with --size") !=
        std::string::npos);
  const MeasuredTimes small = read_measured_times("cmp_table.csv", {.size = 16});
  CHECK(small.per_rank);
  CHECK(small.ranks == 3);
  CHECK(small.iterations() == 2);
  CHECK(small.message_bytes == 16);
  CHECK(small.unit == "us");
  CHECK(small.seconds == std::vector<double>{1.5e-6, 4e-6, 2e-6, 3e-6, 1e-6, 2.5e-6});
  CHECK(small.iteration_maxima() == std::vector<double>{4e-6, 3e-6});
  const MeasuredTimes large = read_measured_times("cmp_table.csv", {.unit = "us", .size = 1024});
  CHECK(large.iteration_maxima() == std::vector<double>{12e-6});
  CHECK(refusal("cmp_table.csv", {.size = 8}).find("rows of 16, 1024 bytes only") !=
        std::string::npos);
  CHECK(refusal("cmp_table.csv", {.unit = "ns", .size = 16}).find("gives its times in us") !=
        std::string::npos);

  // Bad rows, named by their line.
  write_text("cmp_short.csv", "#MessageSize Rank0Time(us) Rank1Time(us)\n16 1 2\n16 3\n");
  CHECK(refusal("cmp_short.csv", {})
            .find("'cmp_short.csv', line 3: 2 values, expected the "
                  "message size and 2 rank times") != std::string::npos);
  write_text("cmp_text.csv", "#MessageSize Rank0Time(us)\n16 1\n\n16 fast\n");
  CHECK(refusal("cmp_text.csv", {}).find("line 4: 'fast' is not a time") != std::string::npos);
  write_text("cmp_negative.csv", "#MessageSize Rank0Time(us)\n16 -1\n");
  CHECK(refusal("cmp_negative.csv", {}).find("line 2: '-1' us (-1e-06 seconds) is out of range") !=
        std::string::npos);
  write_text("cmp_header.csv", "#MessageSize Rank0Time(us) Rank2Time(us)\n16 1 2\n");
  CHECK(refusal("cmp_header.csv", {}).find("line 1: header column 3 is 'Rank2Time(us)'") !=
        std::string::npos);
  write_text("cmp_units.csv", "#MessageSize Rank0Time(us) Rank1Time(ms)\n16 1 2\n");
  CHECK(refusal("cmp_units.csv", {}).find("one unit for all") != std::string::npos);

  // A list: comments and blank lines skipped, its unit given.
  write_text("cmp_list.txt", "# measured\n\n1.5\n2.5e3 # a slow one\n\n0.5\n");
  CHECK(refusal("cmp_list.txt", {})
            .find("give their unit with --unit (s, ms, us (or \u00b5s), ns)") != std::string::npos);
  const MeasuredTimes list = read_measured_times("cmp_list.txt", {.unit = "ms"});
  CHECK_FALSE(list.per_rank);
  CHECK(list.seconds == std::vector<double>{1.5e-3, 2.5, 0.5e-3});
  CHECK(list.iteration_maxima() == list.seconds);
  CHECK(refusal("cmp_list.txt", {.unit = "min"}).find("'min' is not a time unit") !=
        std::string::npos);
  CHECK(refusal("cmp_list.txt", {.unit = "ms", .size = 16}).find("is a list of times") !=
        std::string::npos);
  write_text("cmp_two.txt", "1.5\n2.5 3.5\n");
  CHECK(refusal("cmp_two.txt", {.unit = "s"}).find("'cmp_two.txt', line 2: 2 values") !=
        std::string::npos);
  write_text("cmp_nan.txt", "1.5\nnan\n");
  CHECK(refusal("cmp_nan.txt", {.unit = "s"}).find("line 2: 'nan' is not a time") !=
        std::string::npos);
  write_text("cmp_empty.txt", "# nothing\n\n");
  CHECK(refusal("cmp_empty.txt", {.unit = "s"}).find("holds no times") != std::string::npos);
}

namespace {

const std::string kRun =
    small_schedule_run({.name = "compare", .seed = 11, .samples = 400, .raw_samples = true});

// The raw samples of a result's point 0 as a list of times in ns, each scaled by `scale`.
void write_as_list(const std::string& result, const std::string& path, double scale) {
  const auto raw = read_raw_samples(result, 0);
  REQUIRE(raw);
  std::ofstream out(path);
  out << "# simulated times, in ns\n";
  for (const double t : raw->values) out << fmt::format("{:.6f}\n", t * 1e9 * scale);
}

nlohmann::json compared(const std::string& args) {
  const auto r = run_command_line("compare " + args + " --json");
  INFO(r.output);
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(r.output.substr(r.output.find('{')));
}

}  // namespace

TEST_CASE("compare: a result against measured times of its own law and of another", "[compare]") {
  write_text("cmp_run.toml", kRun);
  REQUIRE(run_command_line("run cmp_run.toml --out cmp_a.h5 --force --quiet").code == 0);
  REQUIRE(run_command_line("run cmp_run.toml --seed 12 --out cmp_b.h5 --force --quiet").code == 0);
  write_as_list("cmp_b.h5", "cmp_same.txt", 1.0);
  write_as_list("cmp_b.h5", "cmp_slower.txt", 1.2);

  const auto same = compared("cmp_a.h5 cmp_same.txt --unit ns");
  CHECK(same["simulated"]["values"] == 400);
  CHECK(same["measured"]["values"] == 400);
  CHECK(same["confidence"] == 0.95);  // the result's
  CHECK(same["ks_distance"]["ci_low"] == 0.0);
  CHECK(same["wasserstein1"]["ci_low"] == 0.0);
  CHECK(same["ks_p_value"]["value"].get<double>() > 0.05);
  CHECK(same["ratio_of_means"]["ci_low"].get<double>() < 1.0);
  CHECK(same["ratio_of_means"]["ci_high"].get<double>() > 1.0);
  REQUIRE(same["quantiles"].size() == 4);
  CHECK(same["quantiles"][0]["name"] == "median");
  CHECK(same["quantiles"][3]["simulated"]["ci_high"].is_null());  // 400 samples: no p999 bound
  CHECK(same["qq"]["simulated"].size() == 200);

  const auto slower = compared("cmp_a.h5 cmp_slower.txt --unit ns --confidence 0.9");
  CHECK(slower["confidence"] == 0.9);
  CHECK(slower["ks_distance"]["ci_low"].get<double>() > 0.1);
  CHECK(slower["ks_p_value"]["value"].get<double>() < 1e-6);
  CHECK(slower["ratio_of_means"]["ci_low"].get<double>() > 1.1);
  // The simulated quantiles are the result's, the measured ones 1.2 times those of the other run.
  for (const auto& q : slower["quantiles"])
    CHECK(q["measured"]["value"].get<double>() > q["simulated"]["value"].get<double>());

  // Deterministic: the same output every time.
  CHECK(run_command_line("compare cmp_a.h5 cmp_slower.txt --unit ns").output ==
        run_command_line("compare cmp_a.h5 cmp_slower.txt --unit ns").output);
  const auto table = run_command_line("compare cmp_a.h5 cmp_slower.txt --unit ns");
  INFO(table.output);
  CHECK(table.code == 0);
  CHECK(table.output.find("Kolmogorov-Smirnov distance") != std::string::npos);
  CHECK(table.output.find("p999") != std::string::npos);
}

TEST_CASE("compare: a per-rank table, by iteration maxima and by pooled ranks", "[compare]") {
  write_text("cmp_ranks.toml", replace_text(replace_text(kRun, "message_bytes = 8\n",
                                                         "message_bytes = 8\nfinish_sample = 3\n"),
                                            "name = \"compare\"", "name = \"compare-ranks\""));
  REQUIRE(run_command_line("run cmp_ranks.toml --out cmp_ranks.h5 --force --quiet").code == 0);
  // 8 ranks, 300 iterations at 8 bytes (and a few rows of another size), in us.
  Pcg32 rng(5, 9);
  std::string table = "#MessageSize";
  for (int r = 0; r < 8; ++r) table += fmt::format(" Rank{}Time(us)", r);
  table += " \n";
  for (int i = 0; i < 300; ++i) {
    table += "8";
    for (int r = 0; r < 8; ++r) table += fmt::format(" {:.6f}", 3.0 + rng.next_uniform());
    table += " \n";
  }
  table += "64 1 1 1 1 1 1 1 1\n";
  write_text("cmp_netgauge.csv", table);

  const auto by_max = compared("cmp_ranks.h5 cmp_netgauge.csv --size 8");
  CHECK(by_max["mode"] == "max");
  CHECK(by_max["measured"]["values"] == 300);
  // The simulated side says how it was timed and entered; a per-rank table against
  // completion-timed samples is compared, with one warning.
  CHECK(by_max["simulated"]["timing"] == "completion");
  CHECK(by_max["simulated"]["entry"] == "together");
  const auto timing_warnings = std::count_if(
      by_max["warnings"].begin(), by_max["warnings"].end(), [](const nlohmann::json& w) {
        return w.get<std::string>().find(
                   "timing.measure = \"per_rank\" compares like with "
                   "like") != std::string::npos;
      });
  CHECK(timing_warnings == 1);
  CHECK(by_max["measured"]["what"].get<std::string>().find("8 ranks x 300 iterations at 8 "
                                                           "bytes") != std::string::npos);
  const auto pooled =
      compared("cmp_ranks.h5 cmp_netgauge.csv --size 8 --mode ranks --rank-samples 5");
  CHECK(pooled["measured"]["values"] == 2400);
  CHECK(pooled["simulated"]["values"] == 40);  // the first 5 samples' 8 ranks
  CHECK(pooled["simulated"]["what"].get<std::string>().find("samples 0 to 4") != std::string::npos);
  // The replay is the run: the largest rank time of sample 0 is its completion, and of sample 3
  // the largest the run recorded of it (collective.finish_sample = 3).
  const auto raw = read_raw_samples("cmp_ranks.h5", 0);
  REQUIRE(raw);
  const auto first =
      compared("cmp_ranks.h5 cmp_netgauge.csv --size 8 --mode ranks --rank-samples 1");
  CHECK(first["simulated"]["values"] == 8);
  CHECK(first["quantiles"][3]["simulated"]["value"].get<double>() == raw->values[0]);
  const auto summary =
      nlohmann::json::parse(run_command_line("summary cmp_ranks.h5 --json").output)["points"][0];
  const auto recorded = summary["sample_finish"].get<std::vector<double>>();
  const auto four =
      compared("cmp_ranks.h5 cmp_netgauge.csv --size 8 --mode ranks --rank-samples 4");
  CHECK(four["quantiles"][3]["simulated"]["value"].get<double>() ==
        std::max(*std::max_element(recorded.begin(), recorded.end()),
                 *std::max_element(raw->values.begin(), raw->values.begin() + 3)));
  // The pooled rank times lie in [3, 4) us, their maxima near 4 us.
  CHECK(pooled["quantiles"][0]["measured"]["value"].get<double>() < 3.7e-6);
  CHECK(by_max["quantiles"][0]["measured"]["value"].get<double>() > 3.8e-6);

  // A point and a table that differ in size are compared, with a warning.
  const auto other = run_command_line("compare cmp_ranks.h5 cmp_netgauge.csv --size 64");
  CHECK(other.code == 0);
  CHECK(other.output.find("warning: the point's message is 8 bytes, the table's rows 64") !=
        std::string::npos);
  expect_refused(run_command_line("compare cmp_ranks.h5 cmp_netgauge.csv"),
                 {"cmp_netgauge.csv", "8, 64 bytes: choose one with --size"});
}

TEST_CASE("compare --mode ranks: the within-iteration spread of both sides", "[compare]") {
  // Two ranks of a noiseless recursive doubling finish together: every simulated spread is 0.
  write_text(
      "cmp_spread.toml",
      replace_text(small_schedule_run(
                       {.name = "compare-spread", .samples = 20, .log2_N = 1, .raw_samples = true}),
                   "law = \"periodic\"\nP = 1.0e-5\nD = 1.0e-6\n", "law = \"none\"\n"));
  REQUIRE(run_command_line("run cmp_spread.toml --out cmp_spread.h5 --force --quiet").code == 0);
  // Three iterations of two ranks, in us: spreads 2, 0 and 3 us, relative 2/3, 0 and 3/4.
  write_text("cmp_spread.csv",
             "#MessageSize Rank0Time(us) Rank1Time(us)\n8 1.0 3.0\n8 2.0 2.0\n8 4.0 1.0\n");
  const auto c = compared("cmp_spread.h5 cmp_spread.csv --mode ranks --rank-samples 10");
  const auto& spread = c["spread"];
  REQUIRE(spread.is_object());
  CHECK(spread["simulated_values"] == 10);
  CHECK(spread["measured_values"] == 3);
  // Medians are order statistics of rank ceil(n/2): the 2nd of {0, 2, 3} us, of {0, 2/3, 3/4}.
  CHECK(spread["absolute"][0]["name"] == "median");
  CHECK(spread["absolute"][0]["measured"]["value"].get<double>() == Approx(2.0e-6).epsilon(1e-12));
  CHECK(spread["absolute"][0]["simulated"]["value"].get<double>() == 0.0);
  CHECK(spread["relative"][0]["measured"]["value"].get<double>() ==
        Approx(2.0 / 3.0).epsilon(1e-12));
  CHECK(spread["relative"][1]["measured"]["value"].get<double>() == Approx(0.75).epsilon(1e-12));
  CHECK(spread["relative"][0]["simulated"]["value"].get<double>() == 0.0);
  // The table says it too; --mode max has no spread.
  const auto table =
      run_command_line("compare cmp_spread.h5 cmp_spread.csv --mode ranks --rank-samples 10");
  CHECK(table.output.find("within-iteration spread") != std::string::npos);
  CHECK(compared("cmp_spread.h5 cmp_spread.csv")["spread"].is_null());
}

TEST_CASE("compare: what cannot be compared is refused", "[compare]") {
  write_text("cmp_raw.toml", kRun);
  REQUIRE(run_command_line("run cmp_raw.toml --out cmp_raw.h5 --force --quiet").code == 0);
  write_text("cmp_plain.toml", replace_text(kRun, "raw_samples = true", "raw_samples = false"));
  REQUIRE(run_command_line("run cmp_plain.toml --out cmp_plain.h5 --force --quiet").code == 0);
  write_text("cmp_times.txt", "1.0\n2.0\n3.0\n");
  expect_refused(run_command_line("compare cmp_plain.h5 cmp_times.txt --unit us"),
                 {"point 0 of 'cmp_plain.h5' kept no raw samples", "raw_samples = true"});
  expect_refused(run_command_line("compare cmp_raw.h5 cmp_times.txt --unit us --point 1"),
                 {"--point 1: 'cmp_raw.h5' holds points 0 to 0"});
  write_text("cmp_tree.toml",
             "name = \"t\"\nseed = 1\nsamples = 100\n[collective]\nkind = "
             "\"tree_barrier\"\nN = 7\nw = 1.0e-3\ntau = 1.0e-6\n[noise]\nlaw = "
             "\"exponential\"\nf = 0.1\n[output]\nraw_samples = true\n");
  REQUIRE(run_command_line("run cmp_tree.toml --out cmp_tree.h5 --force --quiet").code == 0);
  expect_refused(run_command_line("compare cmp_tree.h5 cmp_times.txt --unit us --mode ranks"),
                 {"--mode ranks replays the samples of schedule points"});
  expect_refused(run_command_line("compare cmp_raw.h5 cmp_times.txt"),
                 {"'cmp_times.txt' is a list of times: give their unit with --unit"});
  expect_refused(run_command_line("compare cmp_raw.h5 cmp_times.txt --unit us --confidence 1.5"),
                 {"--confidence: 1.5 is invalid: give a number in [0, 1]"});
  write_text("cmp_bad.txt", "1.0\n2.0 ms\n");
  expect_refused(run_command_line("compare cmp_raw.h5 cmp_bad.txt --unit us"),
                 {"'cmp_bad.txt', line 2"});
  // A damaged result: refused by its seal, before anything is read.
  std::string bytes = slurp("cmp_raw.h5");
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x10);
  std::ofstream("cmp_damaged.h5", std::ios::binary) << bytes;
  expect_refused(run_command_line("compare cmp_damaged.h5 cmp_times.txt --unit us"),
                 {"cmp_damaged.h5", "damaged"});
  // The figure may not replace an input.
  expect_refused(
      run_command_line("compare cmp_raw.h5 cmp_times.txt --unit us --figure cmp_times.txt"),
      {"--figure"});
}

TEST_CASE("compare --resolution: times closer than it are one time on both sides", "[compare]") {
  // A noise-free point: every sample the same time, which another simulator writes in whole
  // picoseconds, so that its list differs from collnoise's doubles in the last bits.
  write_text("cmp_res.toml",
             "name = \"resolution\"\nseed = 1\nsamples = 10\n[collective]\nkind = \"schedule\"\n"
             "algorithm = \"recursive_doubling_allreduce\"\nlog2_N = 2\nmessage_bytes = 8\n"
             "[loggops]\nL = 1.0e-6\no = 1.0e-7\ng = 0.0\nG = 1.0e-9\n"
             "[output]\nraw_samples = true\n");
  REQUIRE(run_command_line("run cmp_res.toml --out cmp_res.h5 --force --quiet").code == 0);
  const auto raw = read_raw_samples("cmp_res.h5", 0);
  REQUIRE(raw);
  {
    std::ofstream out("cmp_res.txt");
    for (const double t : raw->values) out << fmt::format("{:.12f}\n", t * 1e9 * (1.0 + 1e-12));
  }
  // As they are, the two atoms are apart: distance 1.
  CHECK(compared("cmp_res.h5 cmp_res.txt --unit ns")["ks_distance"]["value"] == 1.0);
  // Rounded to whole picoseconds, they are one: distance 0.
  const auto rounded = compared("cmp_res.h5 cmp_res.txt --unit ns --resolution 1e-12");
  CHECK(rounded["ks_distance"]["value"] == 0.0);
  CHECK(rounded["resolution"] == 1e-12);
  const auto table =
      run_command_line("compare cmp_res.h5 cmp_res.txt --unit ns --resolution 1e-12");
  CHECK(table.output.find("both sides rounded to whole multiples of 1e-12 s") != std::string::npos);
  CHECK(run_command_line("compare cmp_res.h5 cmp_res.txt --unit ns --resolution -1").code != 0);
}
