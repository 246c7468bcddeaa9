// Measured latency pools at several sizes (docs/models/netgauge-files.md): files told apart by
// their sizes, quantile-space interpolation between measured sizes, extrapolation beyond the
// largest from the bandwidth files, the transforms, and damaged files refused. Every file is
// small, written here in Netgauge's `size<TAB>rtt` layout, with values worked by hand.
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/units.hpp"
#include "distributions/latency_samples.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

namespace {

std::string write_file(const std::string& name, const std::string& text) {
  std::filesystem::create_directories("latency_pools");
  const std::string path = "latency_pools/" + name;
  std::ofstream(path) << text;
  return path;
}

// A time written in microseconds, in seconds, as the reader converts it.
double us(double x) {
  return value_in_seconds(x, time_unit("us", "test"));
}

}  // namespace

TEST_CASE("latency pools: a file's kind from its sizes, one pool per size") {
  const auto lat = write_file("lat.out", "#size\trtt\n1\t2\n1\t4\n");
  const auto bw = write_file("bw.out", "#size\trtt\n4096\t8\n4096\t16\n");
  const auto one = write_file("one.out", "#size\trtt\n1\t3\n2\t5\n4\t7\n");
  const auto pools = LatencySamples::from_files({lat, bw, one}, 1e-9, LatencyColumn::kOneWay);
  const auto& r = pools.records();
  REQUIRE(r.size() == 5);
  CHECK(r[0].file == lat);
  CHECK(r[0].kind == LatencyFileKind::kLatency);
  CHECK(r[1].kind == LatencyFileKind::kBandwidth);
  CHECK(r[1].message_bytes == 4096);
  CHECK(r[2].kind == LatencyFileKind::kOneOne);
  CHECK(r[4].message_bytes == 4);
  CHECK(std::string(latency_file_kind_name(r[2].kind)) == "one-one");
  // The latency file's and the one-one file's 1-byte samples share one pool.
  CHECK(pools.pool(1) == std::vector<double>{us(2.0), us(3.0), us(4.0)});
  CHECK(pools.smallest_size() == 1);
  CHECK(pools.has_bandwidth());
  // The bandwidth file's per-byte times: 8 and 16 us over 4096 bytes.
  CHECK(pools.draw_per_byte(0.0) == us(8.0) / 4096.0);
  CHECK(pools.draw_per_byte(0.5) == us(16.0) / 4096.0);
}

TEST_CASE("latency pools: between measured sizes, in quantile space, linear in size") {
  // Pools of 100 bytes {10, 20} us and of 300 bytes {30, 50, 70} us (one-way).
  const auto file = write_file("two.out", "100\t10\n100\t20\n300\t30\n300\t50\n300\t70\n");
  const auto pools = LatencySamples::from_file(file, 0.0, LatencyColumn::kOneWay);
  // 150 bytes: w = 50 / 200 = 0.25. At u = 0.4: Q_100 = 10 (index 0), Q_300 = 50 (index 1):
  // 10 + 40 * 0.25 = 20 us.
  CHECK(pools.draw(150, 0.4) == us(10.0) + (us(50.0) - us(10.0)) * 0.25);
  CHECK(pools.draw(150, 0.4) == Approx(20e-6).epsilon(1e-14));
  // 250 bytes, u = 0.9: Q_100 = 20, Q_300 = 70, w = 0.75: 20 + 50 * 0.75 = 57.5 us.
  CHECK(pools.draw(250, 0.9) == Approx(57.5e-6).epsilon(1e-14));
  // At a measured size, its own pool.
  CHECK(pools.draw(300, 0.4) == us(50.0));
  // The share of draws below 32.5 us at 200 bytes (w = 0.5): on u in [0, 1/3) 20, [1/3, 1/2)
  // 30, [1/2, 2/3) 35 and [2/3, 1) 45 us, so half.
  CHECK(pools.share_below(200, us(32.5)) == Approx(0.5).epsilon(1e-15));
  CHECK(pools.share_below(200, us(15.0)) == 0.0);
  CHECK(pools.share_below(200, us(100.0)) == Approx(1.0).epsilon(1e-15));
}

TEST_CASE("latency pools: beyond the largest size from the bandwidth measurement") {
  const auto lat = write_file("small.out", "1\t2\n1\t3\n");
  const auto bw = write_file("large.out", "2048\t4\n2048\t6\n2048\t10\n");
  const double model_G = 1e-9;
  // Without a bandwidth file: the model's G, Q_last(u) + (s - s_last) G.
  const auto alone = LatencySamples::from_file(lat, model_G, LatencyColumn::kOneWay);
  CHECK(alone.draw(11, 0.0) == us(2.0) + 10.0 * model_G);
  // With one: G is the median of its per-byte times, 6 us / 2048 bytes.
  const auto both = LatencySamples::from_files({lat, bw}, model_G, LatencyColumn::kOneWay);
  CHECK(both.extrapolation_seconds_per_byte() == us(6.0) / 2048.0);
  CHECK(both.draw(4096, 0.7) == us(10.0) + 2048.0 * (us(6.0) / 2048.0));
  CHECK(both.draw(4096, 0.7) == Approx(16e-6).epsilon(1e-14));
  // Below the smallest size: the smallest pool as it is.
  const auto only_bw = LatencySamples::from_file(bw, model_G, LatencyColumn::kOneWay);
  CHECK(only_bw.draw(1, 0.0) == us(4.0));
}

TEST_CASE("latency pools: transforms in order: warm-up, window, trim, median") {
  // Two blocks of 4 one-way samples of 1 byte: 9 1 2 3 | 8 4 5 6 us.
  const auto file = write_file("blocks.out", "1\t9\n1\t1\n1\t2\n1\t3\n1\t8\n1\t4\n1\t5\n1\t6\n");
  const auto read = [&](const PoolTransform& t) {
    return LatencySamples::from_files({file}, 0.0, LatencyColumn::kOneWay, t).pool(1);
  };
  PoolTransform t;
  t.block = 4;
  t.warmup = 1;  // drops indices 0 and 4: the 9 and the 8
  CHECK(read(t) == std::vector<double>{us(1.0), us(2.0), us(3.0), us(4.0), us(5.0), us(6.0)});
  t.first = 1;
  t.last = 7;  // indices 1, 2, 3, 5, 6 of those
  CHECK(read(t) == std::vector<double>{us(1.0), us(2.0), us(3.0), us(4.0), us(5.0)});
  t.trim_quantile = 0.8;  // the ceil(0.8 * 5) = 4 smallest
  CHECK(read(t) == std::vector<double>{us(1.0), us(2.0), us(3.0), us(4.0)});
  // Median (2 + 3) / 2 = 2.5 us, scaled to 5 us: times 2.
  t.median_seconds = us(5.0);
  const double factor = us(5.0) / ((us(2.0) + us(3.0)) / 2.0);
  const auto scaled = read(t);
  CHECK(scaled == std::vector<double>{us(1.0) * factor, us(2.0) * factor, us(3.0) * factor,
                                      us(4.0) * factor});
  CHECK(scaled[3] == Approx(8e-6).epsilon(1e-14));
  // Shifted instead: plus 2.5 us.
  t.scale = false;
  const auto shifted = read(t);
  CHECK(shifted.front() == Approx(3.5e-6).epsilon(1e-14));
  CHECK(shifted.back() == Approx(6.5e-6).epsilon(1e-14));
  // A shift below 0 stops at 0.
  t.median_seconds = us(1.0);
  CHECK(read(t).front() == 0.0);
  // What the result records.
  t.median_seconds = us(5.0);
  t.scale = true;
  const auto pools = LatencySamples::from_files({file}, 0.0, LatencyColumn::kOneWay, t);
  REQUIRE(pools.records().size() == 1);
  CHECK(pools.records()[0].read == 8);
  CHECK(pools.records()[0].kept == 4);
  CHECK(pools.transform().describe() ==
        "warm-up 1 of each 4, window [1, 7), trim above quantile 0.8, median 5e-06 s by scaling");
  CHECK(PoolTransform{}.describe() == "none");
  // A transform that leaves a pool empty is refused, naming the file and size.
  PoolTransform none;
  none.first = 100;
  CHECK_THROWS_WITH(LatencySamples::from_files({file}, 0.0, LatencyColumn::kOneWay, none),
                    Contains("blocks.out") && Contains("1 bytes") && Contains("none"));
}

TEST_CASE("latency pools: damaged or unknown files are refused with their file and line") {
  // Netgauge's console output (a .cmdout file) is not a sample file.
  const auto cmdout = write_file("x.cmdout",
                                 "# Info:   (0): Netgauge v2.4.6\n"
                                 "1 bytes \t -> 1.90 us \t == 3.73 Mbit/s\n");
  CHECK_THROWS_WITH(LatencySamples::from_files({cmdout}, 0.0),
                    Contains("x.cmdout:2") && Contains("size<TAB>rtt"));
  // An LogGP table (ng_loggp.out) neither.
  const auto loggp = write_file("loggp.out",
                                "# size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s) L o_s "
                                "o_r g G lsqu(g,G)\n1 16 6 30 120 3 0.4 0.6 -nan -nan 0\n");
  CHECK_THROWS_WITH(LatencySamples::from_files({loggp}, 0.0), Contains("loggp.out:2"));
  // A line cut short, in the second of two files.
  const auto good = write_file("good.out", "1\t2\n");
  const auto cut = write_file("cut.out", "#size\trtt\n16777216\t1388.3\n16777216\t13\n16777\n");
  CHECK_THROWS_WITH(LatencySamples::from_files({good, cut}, 0.0), Contains("cut.out:4"));
  // A file of comments only.
  const auto empty = write_file("empty.out", "#size\trtt\n");
  CHECK_THROWS_WITH(LatencySamples::from_files({good, empty}, 0.0),
                    Contains("empty.out") && Contains("no samples"));
}

TEST_CASE("latency pools: a pool moved to a mean, scaled or shifted") {
  // One-way samples 1, 2, 3, 10 us: mean 4 us (median 2.5). Scaled to a mean of 2 us: halved;
  // shifted: minus 2 us, the 1 us sample stopping at 0.
  const auto file = write_file("mean.out", "1\t1\n1\t2\n1\t3\n1\t10\n");
  PoolTransform t;
  t.mean_seconds = us(2.0);
  const auto scaled = LatencySamples::from_files({file}, 0.0, LatencyColumn::kOneWay, t).pool(1);
  REQUIRE(scaled.size() == 4);
  CHECK(scaled[0] == Approx(0.5e-6).epsilon(1e-14));
  CHECK(scaled[3] == Approx(5.0e-6).epsilon(1e-14));
  CHECK((scaled[0] + scaled[1] + scaled[2] + scaled[3]) / 4.0 == Approx(2.0e-6).epsilon(1e-14));
  t.scale = false;
  const auto shifted = LatencySamples::from_files({file}, 0.0, LatencyColumn::kOneWay, t).pool(1);
  CHECK(shifted[0] == 0.0);
  CHECK(shifted[1] == Approx(0.0).margin(1e-20));
  CHECK(shifted[2] == Approx(1.0e-6).epsilon(1e-14));
  CHECK(shifted[3] == Approx(8.0e-6).epsilon(1e-14));
  CHECK(t.describe() == "mean 2e-06 s by shifting");
  CHECK_FALSE(t.identity());
}

TEST_CASE("latency pools: per-pool transforms, each file scaled to its own median") {
  // The latency file's 1-byte samples {1, 2, 3} us to a median of 1.5 us, the bandwidth file's
  // 4096-byte samples {4, 8} us (median 6) to 12 us: factors 0.75 and 2.
  const auto lat = write_file("per-lat.out", "1\t1\n1\t2\n1\t3\n");
  const auto bw = write_file("per-bw.out", "4096\t4\n4096\t8\n");
  PoolTransform to_L, to_G;
  to_L.median_seconds = 1.5e-6;
  to_G.median_seconds = 12e-6;
  const auto pools =
      LatencySamples::from_files({lat, bw}, 1e-9, LatencyColumn::kOneWay, {to_L, to_G});
  const double f_lat = 1.5e-6 / us(2.0), f_bw = 12e-6 / ((us(4.0) + us(8.0)) / 2.0);
  CHECK(pools.pool(1) == std::vector<double>{us(1.0) * f_lat, us(2.0) * f_lat, us(3.0) * f_lat});
  CHECK(pools.pool(4096) == std::vector<double>{us(4.0) * f_bw, us(8.0) * f_bw});
  CHECK(pools.pool(1)[1] == Approx(1.5e-6).epsilon(1e-14));
  CHECK(pools.pool(4096)[1] == Approx(16e-6).epsilon(1e-14));
  CHECK_FALSE(pools.uniform_transform());
  REQUIRE(pools.records().size() == 2);
  CHECK(pools.records()[0].transform == to_L);
  CHECK(pools.records()[1].transform.describe() == "median 1.2e-05 s by scaling");
  // One transform for every file, as before: uniform.
  CHECK(LatencySamples::from_files({lat, bw}, 1e-9, LatencyColumn::kOneWay, to_L)
            .uniform_transform());
  // A count of transforms that is not the files' is refused.
  CHECK_THROWS_WITH(LatencySamples::from_files({lat, bw}, 1e-9, LatencyColumn::kOneWay,
                                               std::vector<PoolTransform>{to_L}),
                    Contains("1 transforms for 2 files"));
}
