// Whether a sample's slowest rank drew from a fitted tail beyond the data (docs/models/tails.md):
// which pools' draws come from their tails, the rate at which Poisson detours draw their
// durations from the trace's fitted tail (thinning: an exact probability), each sample's flag
// against the message's own uniform by hand, and the summary's share and warning end to end.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "distributions/empirical.hpp"
#include "distributions/gpd_tail.hpp"
#include "distributions/latency_samples.hpp"
#include "distributions/poisson_detours.hpp"
#include "distributions/spliced_tail_law.hpp"
#include "engine/schedules/schedule_study.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/hand_sources.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;

namespace {

// 400 distinct values: the threshold rule fits a tail to the 20 largest, so k/n = 0.05.
std::vector<double> four_hundred(double scale) {
  std::vector<double> values;
  for (int i = 0; i < 400; ++i) values.push_back(scale * (1.0 + 0.01 * i));
  return values;
}

}  // namespace

TEST_CASE("tail share: a draw is from a pool's fitted tail exactly in its top k/n") {
  // Sizes 8 (400 samples, a tail) and 64 (30 samples, too few for one).
  LatencySamples samples({{8, four_hundred(1e-6)}, {64, std::vector<double>(30, 2e-6)}}, 0.0,
                         "pools");
  CHECK_FALSE(samples.has_fitted_tails());
  CHECK(samples.fit_gpd_tails() == std::vector<std::uint64_t>{64});
  CHECK(samples.has_fitted_tails());
  REQUIRE(samples.tail(8)->tail_probability() == Approx(0.05).epsilon(1e-15));
  CHECK_FALSE(samples.in_fitted_tail(8, 0.9499));
  CHECK(samples.in_fitted_tail(8, 0.95));
  CHECK(samples.in_fitted_tail(8, 1.0));
  // Below the smallest size its pool serves; between 8 and 64 both are read, 8's has the tail.
  CHECK(samples.in_fitted_tail(1, 0.96));
  CHECK(samples.in_fitted_tail(32, 0.96));
  CHECK_FALSE(samples.in_fitted_tail(32, 0.5));
  // 64's own pool has none, nor do sizes beyond it.
  CHECK_FALSE(samples.in_fitted_tail(64, 0.999));
  CHECK_FALSE(samples.in_fitted_tail(4096, 0.999));
}

TEST_CASE("tail share: Poisson detours draw from the tail as a Poisson process of rate r k/n") {
  const std::vector<double> durations = four_hundred(1.0);
  std::string why;
  const auto tail = fit_gpd_tail(durations, kTailFitLevel, kTailFitSeed, why, 0);
  INFO(why);
  REQUIRE(tail.has_value());
  const auto spliced = std::make_shared<const SplicedTailLaw>(durations, *tail, "durations");
  REQUIRE(spliced->fitted_tail_share() == Approx(0.05).epsilon(1e-15));
  // Rate 1 per unit, mean duration 0.01: tail detours start as a Poisson process of rate 0.05,
  // so one starts in [0, T) with probability 1 - exp(-0.05 T) = 1/2 at T = 20 ln 2.
  const PoissonDetours tailed(1.0, 0.01, spliced);
  const double until = 20.0 * std::log(2.0);
  const int streams = 4000;
  int drew = 0;
  for (int i = 0; i < streams; ++i)
    if (tailed.drew_from_fitted_tail(hash_combine(99, static_cast<std::uint64_t>(i)), 0.0, until))
      ++drew;
  // Binomial(4000, 1/2): sd 0.0079; 0.035 is 4.4 sd, a two-sided error rate below 1e-5 (the
  // seed is fixed, so the outcome is too).
  CHECK(static_cast<double>(drew) / streams == Approx(0.5).margin(0.035));
  // Nothing before the first detour, and never without a fitted tail.
  CHECK_FALSE(tailed.drew_from_fitted_tail(hash_combine(99, 1), 0.0, 0.0));
  const PoissonDetours plain(1.0, 0.01, std::make_shared<const EmpiricalLaw>(durations, "d"));
  for (int i = 0; i < 100; ++i)
    CHECK_FALSE(
        plain.drew_from_fitted_tail(hash_combine(99, static_cast<std::uint64_t>(i)), 0.0, 1e6));
}

TEST_CASE("tail share: each sample's flag is its one message's draw from the tail, by hand") {
  // Rank 0 sends 8 bytes to rank 1, which finishes last (its receive ends after L + delay + o,
  // rank 0 at o): its flag is whether the message's first uniform lies in the pool's top 5 %.
  const ScheduleSource source = collnoise::test::hand_pair_source();
  auto pools = std::make_shared<LatencySamples>(
      std::map<std::uint64_t, std::vector<double>>{{8, four_hundred(1e-6)}}, 0.0, "pool");
  REQUIRE(pools->fit_gpd_tails().empty());
  ScheduleNoiseSpec noise;
  noise.delays.emplace(pools, LatencyUse::kExcess, collnoise::test::hand_net());
  ScheduleStudy study(source, collnoise::test::hand_net(), std::move(noise));
  study.set_stream_key(42);
  REQUIRE(study.tracks_tails());
  const std::size_t samples = 400;
  std::vector<double> rows(2 * samples);
  study.simulate(0, rows, {}, 2);
  std::size_t flagged = 0;
  for (std::size_t i = 0; i < samples; ++i) {
    // The message is the schedule's operation 0; its delay's stream is the replication's.
    const std::uint64_t key = stream_key(42, StreamPurpose::kReplication, i);
    const double u =
        make_stream(
            hash_combine(
                hash_combine(key, static_cast<std::uint64_t>(StreamPurpose::kMessageDelay)), 0))
            .next_uniform();
    INFO("sample " << i << ", u " << u);
    CHECK(rows[2 * i] == study.replicate(i));
    CHECK(rows[2 * i + 1] == (u >= 0.95 ? 1.0 : 0.0));
    if (rows[2 * i + 1] == 1.0) ++flagged;
  }
  // Both outcomes met (about 20 of 400 flagged).
  CHECK(flagged > 0);
  CHECK(flagged < samples);
}

TEST_CASE("tail share: the summary gives the share with its interval, and warns above one half") {
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  // 400 detours 1 us apart, of 10 to 106 ns: about 10^6 detours per second, 5 % of them from
  // the fitted tail. A 16-rank dissemination barrier with L = 20 us takes about 80 us: its
  // slowest rank meets a tail detour in nearly every sample (1 - exp(-0.05 x 80) = 0.98).
  {
    std::ofstream f("tail-share-trace.txt");
    for (int i = 0; i < 400; ++i) f << 1000 * i << "\t" << 10 + (i * 7919) % 97 << "\n";
  }
  const auto summary_of = [&](const std::string& tail) {
    write_text("tail-share.toml", fmt::format(R"(name = "t"
seed = 3
samples = 64
[collective]
kind = "schedule"
algorithm = "dissemination_barrier"
N = 16
message_bytes = 8
[loggops]
L = 2.0e-5
o = 1.0e-7
g = 0.0
G = 0.0
[noise]
law = "trace"
file = "tail-share-trace.txt"
replay = "poisson"
{})",
                                              tail));
    std::filesystem::remove("tail-share.h5");
    const auto ran = run_command_line("run tail-share.toml --out tail-share.h5 --quiet");
    INFO(ran.output);
    REQUIRE(ran.code == 0);
    return run_command_line("summary tail-share.h5 --json").output;
  };
  const std::string with = summary_of("tail = \"gpd\"");
  INFO(with);
  const auto number = [&](const std::string& key) {
    const auto at = with.find("\"" + key + "\": ");
    REQUIRE(at != std::string::npos);
    return std::stod(with.substr(at + key.size() + 4));
  };
  const double share = number("slowest_tail_share");
  CHECK(share > 0.8);
  CHECK(number("slowest_tail_share_ci_low") <= share);
  CHECK(number("slowest_tail_share_ci_high") >= share);
  CHECK(with.find("rests on the tail model more than on measurements") != std::string::npos);
  // Without the tail nothing is tracked.
  const std::string without = summary_of("");
  CHECK(without.find("slowest_tail_share") == std::string::npos);
}
