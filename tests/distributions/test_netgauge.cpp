// Readers of Netgauge's measurement files (docs/models/netgauge-files.md): detour traces split
// into measurements, pooled message latencies, LogGP rows. Every file is small, written here (in
// the suite's scratch directory) in the layout Netgauge writes, with values worked by hand.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/errors.hpp"
#include "core/param_reader.hpp"
#include "core/units.hpp"
#include "distributions/detour_trace.hpp"
#include "distributions/latency_samples.hpp"
#include "distributions/netgauge_loggp.hpp"
#include "distributions/time_noise_kind.hpp"
#include "engine/loggops/netgauge_loggops.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

namespace {

std::string write_file(const std::string& name, const std::string& text) {
  std::filesystem::create_directories("netgauge");
  const std::string path = "netgauge/" + name;
  std::ofstream(path) << text;
  return path;
}

// A time written in microseconds, in seconds, as every reader converts it: the decimal in
// seconds rounded once (core/units.hpp), not x * 1e-6.
double us(double x) {
  return value_in_seconds(x, time_unit("us", "test"));
}

std::vector<std::pair<double, double>> busy_of(const DetourPattern& p) {
  std::vector<std::pair<double, double>> out;
  for (const auto& d : p.busy()) out.emplace_back(d.start, d.end);
  return out;
}

using Busy = std::vector<std::pair<double, double>>;

// Two runs of the noise benchmark appended to one file, each with its header, its trailer and a
// time axis from 0 (unit: seconds, so that every value is exact).
const char* kTwoMeasurements =
    "# Benchmark Method: selfish\n"
    "# Time [s]\tselfish duration [s]\n"
    "0.00\t1.00\n"
    "10.00\t2.00\n"
    "30.00\t0.50\n"
    "# CPU overhead due to noise: 11.29%\n"
    "# Measurement period: 30.50 s\n"
    "# Benchmark Method: selfish\n"
    "# Time [s]\tselfish duration [s]\n"
    "0.00\t3.00\n"
    "20.00\t1.00\n"
    "# Measurement period: 21.00 s\n";

}  // namespace

TEST_CASE("netgauge traces: a file of two measurements is two patterns") {
  const std::string path = write_file("two.txt", kTwoMeasurements);
  CHECK(count_measurements(path) == 2);
  const auto all = read_detour_measurements(path, trace_unit("s"));
  REQUIRE(all.size() == 2);
  CHECK(busy_of(all[0]) == Busy{{0.0, 1.0}, {10.0, 12.0}, {30.0, 30.5}});
  CHECK(all[0].span() == 30.5);  // the end of its own last detour
  CHECK(all[1].busy().size() == 2);
  CHECK(busy_of(all[1]) == Busy{{0.0, 3.0}, {20.0, 21.0}});
  CHECK(all[1].span() == 21.0);
  CHECK(all[1].free_per_period() == 17.0);

  // Chosen by index; 0 by default.
  CHECK(busy_of(read_detour_trace(path, trace_unit("s"))) == busy_of(all[0]));
  const auto second = read_detour_trace(path, trace_unit("s"), std::nullopt, 1);
  CHECK(busy_of(second) == busy_of(all[1]));
  CHECK(second.advance(0.0, 0.0, 1.0) == 4.0);    // waits out [0, 3)
  CHECK(second.advance(0.0, 19.0, 2.0) == 25.0);  // 1 s, [20, 21), [21, 24) repeats [0, 3), 1 s

  // Out of range: the file and how many it holds.
  CHECK_THROWS_AS(read_detour_trace(path, trace_unit("s"), std::nullopt, 2), InputError);
  CHECK_THROWS_WITH(read_detour_trace(path, trace_unit("s"), std::nullopt, 2),
                    Contains("two.txt") && Contains("holds 2 measurements") &&
                        Contains("no measurement 2") && Contains("from 0 to 1"));
  CHECK_THROWS_WITH(
      read_detour_trace(write_file("one.txt", "0\t1\n"), trace_unit("s"), std::nullopt, 1),
      Contains("one.txt") && Contains("holds 1 measurement:"));

  // A span, if given, is every measurement's; too short for one of them, the error names it.
  const auto spanned = read_detour_measurements(path, trace_unit("s"), 40.0);
  CHECK(spanned[0].span() == 40.0);
  CHECK(spanned[1].span() == 40.0);
  CHECK_THROWS_WITH(read_detour_measurements(path, trace_unit("s"), 25.0),
                    Contains("measurement 0 of 2") && Contains("noise.span"));
  CHECK(read_detour_trace(path, trace_unit("s"), 25.0, 1).span() ==
        25.0);  // 20 < 25: fine for this one
}

TEST_CASE("netgauge traces: where a measurement starts") {
  // A start earlier than the previous one starts a measurement, even without a header.
  const std::string back = write_file("back.txt", "0\t1\n10\t2\n5\t1\n8\t1\n");
  CHECK(count_measurements(back) == 2);
  const auto parts = read_detour_measurements(back, trace_unit("s"));
  CHECK(busy_of(parts[0]) == Busy{{0.0, 1.0}, {10.0, 12.0}});
  CHECK(busy_of(parts[1]) == Busy{{5.0, 6.0}, {8.0, 9.0}});
  CHECK(parts[1].span() == 9.0);
  // An equal start, blank lines, comments after numbers, a header before the first detour and a
  // trailer after the last one start nothing.
  CHECK(count_measurements(write_file("same.txt", "0\t1\n0\t2\n")) == 1);
  CHECK(count_measurements(write_file("blank.txt", "# head\n0\t1\n\n  \n10\t1\n")) == 1);
  CHECK(count_measurements(write_file("inline.txt", "0\t1 # first\n10\t1\n# end\n")) == 1);
  CHECK(count_measurements(write_file("none.txt", "# nothing measured\n")) == 0);
  // Unit conversion, per measurement (nanoseconds, as Netgauge writes them).
  const auto ns = read_detour_measurements(back, trace_unit("ns"));
  CHECK(ns[1].span() == Approx(9e-9));

  // Errors keep their file and line, wherever the measurement.
  CHECK_THROWS_WITH(
      read_detour_trace(write_file("bad2.txt", "0\t1\n# x\n0\t1\nabc\n"), trace_unit("s")),
      Contains("bad2.txt:4") && Contains("abc"));
  CHECK_THROWS_WITH(count_measurements(write_file("neg2.txt", "0\t1\n# x\n0\t-1\n")),
                    Contains("neg2.txt:3") && Contains("negative"));
  // A measurement of zero-length detours only exists, but has no detours.
  const std::string empty_second = write_file("empty2.txt", "0\t1\n2\t1\n# x\n5\t0\n");
  CHECK(count_measurements(empty_second) == 2);
  CHECK(read_detour_trace(empty_second, trace_unit("s")).busy().size() == 2);
  CHECK_THROWS_WITH(read_detour_trace(empty_second, trace_unit("s"), std::nullopt, 1),
                    Contains("measurement 1 of 2") && Contains("no detours"));
  CHECK_THROWS_WITH(read_detour_trace("netgauge/missing.txt", trace_unit("s")),
                    Contains("missing.txt"));
}

TEST_CASE("netgauge traces: the measurement key, its default and the stream identity") {
  const std::string path = write_file("kind.txt", kTwoMeasurements);
  const TimeNoiseKind kind = trace_noise_kind();
  const auto read = [&](ParamMap given, std::string* identity = nullptr) {
    ParamReader reader(std::move(given));
    const TimeNoiseLaw law = kind.make(reader, "noise");
    if (identity) *identity = reader.stream_identity();
    return std::get<PatternNoise>(law);
  };
  std::string omitted;
  std::string spelt;
  std::string second_id;
  const auto first = read({{"noise.file", path}, {"noise.unit", std::string("s")}}, &omitted);
  const auto zero = read({{"noise.file", path},
                          {"noise.unit", std::string("s")},
                          {"noise.measurement", std::int64_t{0}}},
                         &spelt);
  const auto second = read({{"noise.file", path},
                            {"noise.unit", std::string("s")},
                            {"noise.measurement", std::int64_t{1}}},
                           &second_id);
  CHECK(busy_of(*first.pattern) == Busy{{0.0, 1.0}, {10.0, 12.0}, {30.0, 30.5}});
  CHECK(busy_of(*second.pattern) == Busy{{0.0, 3.0}, {20.0, 21.0}});
  CHECK(second.description.find("measurement 1 of 2") != std::string::npos);
  // The default spelt out is no other model; another measurement is.
  CHECK(spelt == omitted);
  CHECK(busy_of(*zero.pattern) == busy_of(*first.pattern));
  CHECK(second_id != omitted);
  CHECK(second_id.find("noise.measurement=1") != std::string::npos);
  // A file of one measurement is described as before.
  const auto single = read(
      {{"noise.file", write_file("single.txt", "0\t1\n2\t1\n")}, {"noise.unit", std::string("s")}});
  CHECK(single.description == "trace(netgauge/single.txt, 2 busy intervals, span 3 s)");

  CHECK_THROWS_WITH(read({{"noise.file", path},
                          {"noise.unit", std::string("s")},
                          {"noise.measurement", std::int64_t{2}}}),
                    Contains("kind.txt") && Contains("holds 2 measurements"));
  CHECK_THROWS_WITH(read({{"noise.file", path},
                          {"noise.unit", std::string("s")},
                          {"noise.measurement", std::int64_t{-1}}}),
                    Contains("noise.measurement"));
}

TEST_CASE("netgauge latencies: pools per size, rtt/2, and (s - s0) G between sizes") {
  // Two runs appended, each with Netgauge's header; sizes 1 and 1024 bytes.
  const std::string path = write_file("lat.out",
                                      "#size\trtt\n"
                                      "1\t4.000000\n"
                                      "1\t2.000000\n"
                                      "1\t6.000000\n"
                                      "#size\trtt\n"
                                      "1\t8.000000\n"
                                      "1024\t20.000000\n"
                                      "1024\t10.000000\n");
  const double G = 1.0e-9;
  const auto lat = LatencySamples::from_file(path, G);
  CHECK(lat.total_samples() == 6);
  // One-way = rtt / 2, in seconds; the pool of 1 byte is {1, 2, 3, 4} us.
  REQUIRE(lat.pool(1).size() == 4);
  CHECK(lat.pool(1) == std::vector<double>{us(1.0), us(2.0), us(3.0), us(4.0)});
  CHECK(lat.pool(1024) == std::vector<double>{us(5.0), us(10.0)});
  CHECK(lat.pool(100).empty());
  // Index floor(u n) of the sorted pool.
  CHECK(lat.draw(1, 0.0) == us(1.0));
  CHECK(lat.draw(1, 0.24) == us(1.0));
  CHECK(lat.draw(1, 0.25) == us(2.0));
  CHECK(lat.draw(1, 0.5) == us(3.0));
  CHECK(lat.draw(1, 0.99) == us(4.0));
  CHECK(lat.draw(1, 1.0) == us(4.0));  // clamped
  CHECK(lat.draw(1, -0.5) == us(1.0));
  CHECK(lat.draw(1024, 0.49) == us(5.0));
  CHECK(lat.draw(1024, 0.5) == us(10.0));
  // Between sizes: in quantile space, linear in size, w = (s - 1) / 1023: at u = 0 the
  // smallest samples 1 and 5 us, at u = 0.75 the samples 4 (index 3 of 4) and 10 us (1 of 2).
  CHECK(lat.pool_size_for(101) == 1);
  CHECK(lat.draw(101, 0.0) == us(1.0) + (us(5.0) - us(1.0)) * (100.0 / 1023.0));
  CHECK(lat.draw(101, 0.0) == Approx(1.0e-6 + 4.0e-6 * 100.0 / 1023.0).epsilon(1e-14));
  CHECK(lat.draw(101, 0.75) == us(4.0) + (us(10.0) - us(4.0)) * (100.0 / 1023.0));
  CHECK(lat.draw(1023, 0.5) == us(3.0) + (us(10.0) - us(3.0)) * (1022.0 / 1023.0));
  CHECK(lat.pool_size_for(4096) == 1024);
  // Beyond the largest size, without a bandwidth file: (s - s_last) G with the G given.
  CHECK(lat.draw(4096, 0.0) == us(5.0) + 3072.0 * G);
  CHECK(lat.draw(4096, 0.0) == Approx(8.072e-6).epsilon(1e-12));
  // Summaries: min and mean of each pool.
  const auto pools = lat.summaries();
  REQUIRE(pools.size() == 2);
  CHECK(pools[0].message_bytes == 1);
  CHECK(pools[0].samples == 4);
  CHECK(pools[0].min_seconds == us(1.0));
  CHECK(pools[0].mean_seconds == Approx(2.5e-6).epsilon(1e-14));
  CHECK(pools[1].message_bytes == 1024);
  CHECK(pools[1].min_seconds == us(5.0));
  CHECK(pools[1].mean_seconds == Approx(7.5e-6).epsilon(1e-14));

  // A file that already holds one-way times.
  const auto one_way = LatencySamples::from_file(path, G, LatencyColumn::kOneWay);
  CHECK(one_way.draw(1, 0.0) == us(2.0));
  CHECK(one_way.draw(1024, 0.99) == us(20.0));

  // A latency file and a bandwidth file of the same format, pooled by size.
  const std::string bw = write_file("bw.out", "#size\trtt\n16777216\t2000.0\n16777216\t3000.0\n");
  const auto both = LatencySamples::from_files({path, bw}, G);
  CHECK(both.summaries().size() == 3);
  CHECK(both.pool(16777216) == std::vector<double>{us(1000.0), us(1500.0)});
  // 1 MiB lies between 1024 bytes and 16 MiB: w = (2^20 - 1024) / (2^24 - 1024).
  CHECK(both.draw(1u << 20, 0.0) ==
        us(5.0) + (us(1000.0) - us(5.0)) * (static_cast<double>((1u << 20) - 1024) /
                                            static_cast<double>(16777216 - 1024)));
  // Beyond 16 MiB: G measured by the bandwidth file, the median of its one-way times per byte.
  const double measured_G = (us(1000.0) / 16777216.0 + us(1500.0) / 16777216.0) / 2.0;
  CHECK(both.extrapolation_seconds_per_byte() == measured_G);
  CHECK(both.draw(1u << 25, 0.5) == us(1500.0) + 16777216.0 * measured_G);
  CHECK_THROWS_WITH(LatencySamples::from_files({path, "netgauge/no_bw.out"}, G),
                    Contains("no_bw.out"));

  // Below the smallest measured size: that pool as it is, no negative adjustment.
  const auto sizes =
      LatencySamples::from_file(write_file("lat_sizes.out", "8\t2.0\n8\t4.0\n64\t6.0\n"), 1.0e-6);
  CHECK(sizes.pool_size_for(4) == 8);
  CHECK(sizes.draw(4, 0.0) == us(1.0));
  CHECK(sizes.draw(0, 0.99) == us(2.0));
  CHECK(sizes.draw(8, 0.99) == us(2.0));
  // 9 bytes lie between 8 and 64: w = 1/56 of the way from 1 us to 3 us.
  CHECK(sizes.draw(9, 0.0) == us(1.0) + (us(3.0) - us(1.0)) * (1.0 / 56.0));
  CHECK(sizes.draw(64, 0.0) == us(3.0));
}

TEST_CASE("netgauge latencies: errors name the file and line") {
  CHECK_THROWS_WITH(
      LatencySamples::from_file(write_file("lat_bad.out", "#size\trtt\n1\t2.0\nx\t3\n"), 1e-9),
      Contains("lat_bad.out:3") && Contains("'x\\t3'"));  // the tab shown escaped
  CHECK_THROWS_WITH(LatencySamples::from_file(write_file("lat_three.out", "1\t2.0\t7\n"), 1e-9),
                    Contains("lat_three.out:1") && Contains("size<TAB>rtt"));
  CHECK_THROWS_WITH(LatencySamples::from_file(write_file("lat_frac.out", "1.5\t2.0\n"), 1e-9),
                    Contains("lat_frac.out:1"));
  CHECK_THROWS_WITH(LatencySamples::from_file(write_file("lat_neg.out", "1\t2\n1\t-2.5\n"), 1e-9),
                    Contains("lat_neg.out:2") && Contains("negative"));
  CHECK_THROWS_WITH(
      LatencySamples::from_file(write_file("lat_nan.out", "#size\trtt\n1\t-nan\n"), 1e-9),
      Contains("lat_nan.out:2") && Contains("not a finite"));
  CHECK_THROWS_WITH(LatencySamples::from_file(write_file("lat_inf.out", "1\tinf\n"), 1e-9),
                    Contains("lat_inf.out:1"));
  CHECK_THROWS_WITH(LatencySamples::from_file(write_file("lat_empty.out", "#size\trtt\n"), 1e-9),
                    Contains("lat_empty.out") && Contains("no samples"));
  CHECK_THROWS_WITH(LatencySamples::from_file("netgauge/no_such.out", 1e-9),
                    Contains("no_such.out") && Contains("cannot be read"));
  CHECK_THROWS_WITH(LatencySamples::from_file(write_file("lat_ok.out", "1\t2\n"), -1e-9),
                    Contains("G"));
  CHECK_THROWS_AS(LatencySamples({}, 1e-9, "none"), InputError);
}

TEST_CASE("netgauge LogGP: the nearest usable rows, in seconds") {
  const std::string header =
      "# size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s) L o_s o_r g G lsqu(g,G)\n"
      "# to get o: plot \"./loggp.out\" using 1:(($5-$3)/($2-1)-$3)\n"
      "# to get g,G: plot \"./loggp.out\" using 1:($4-$3)/($2-1)\n";
  // Overheads usable at 1, 1025, 2049, 3073 (not 4097: o_s < 0); g and G usable at 1025, 3073
  // (its later row) and 4097 (not 1: -nan, nor 2049: g < 0).
  const std::string path =
      write_file("loggp.out", header +
                                  "1 10 5.0 9.0 40.0 2.5 0.5 1.0 -nan -nan -nan\n"
                                  "1025 10 6.0 12.0 60.0 2.5 0.75 1.25 1.0 0.001 -nan\n"
                                  "2049 10 8.0 14.0 80.0 2.5 1.0 1.5 -0.5 0.002 0.1\n"
                                  "3073 10 9.0 15.0 90.0 2.5 1.25 2.0 1.5 0.0015 0.2\n"
                                  "3073 10 9.0 15.0 90.0 2.5 1.25 2.0 2.0 0.0025 0.2\n"
                                  "4097 10 9.5 16.0 95.0 2.5 -1.5 2.5 2.5 0.003 0.3\n");
  const auto table = NetgaugeLogGPTable::from_file(path);
  REQUIRE(table.rows().size() == 5);  // one per size
  CHECK(table.rows()[3].message_bytes == 3073);
  CHECK(table.rows()[3].g == us(2.0));  // the later row of 3073
  CHECK(table.rows()[3].line == 8);
  CHECK(std::isnan(table.rows()[0].g));
  CHECK_FALSE(table.rows()[0].gaps_usable);
  CHECK(table.rows()[0].overheads_usable);
  CHECK_FALSE(table.rows()[4].overheads_usable);

  // A small message: overheads of its own row, g and G of the first row that has them.
  const NetgaugeLogGP small = table.nearest(1);
  CHECK(small.message_bytes == 1);
  CHECK(small.L == us(2.5));
  CHECK(small.o_s == us(0.5));
  CHECK(small.o_r == us(1.0));
  CHECK(small.o == (us(0.5) + us(1.0)) / 2.0);
  CHECK(small.o == Approx(0.75e-6).epsilon(1e-14));
  CHECK(small.line == 4);
  CHECK(small.gap_message_bytes == 1025);
  CHECK(small.g == us(1.0));
  CHECK(small.G == us(0.001));  // seconds per byte
  CHECK(small.gap_line == 5);

  const auto sizes = [&](std::uint64_t s) {
    const auto p = table.nearest(s);
    return std::pair(p.message_bytes, p.gap_message_bytes);
  };
  CHECK(sizes(0) == std::pair<std::uint64_t, std::uint64_t>(1, 1025));
  CHECK(sizes(2049) == std::pair<std::uint64_t, std::uint64_t>(2049, 1025));  // g, G: a tie
  CHECK(sizes(2050) == std::pair<std::uint64_t, std::uint64_t>(2049, 3073));
  CHECK(sizes(2561) == std::pair<std::uint64_t, std::uint64_t>(2049, 3073));  // overheads: a tie
  CHECK(sizes(2562) == std::pair<std::uint64_t, std::uint64_t>(3073, 3073));
  CHECK(sizes(3585) == std::pair<std::uint64_t, std::uint64_t>(3073, 3073));  // g, G: a tie
  CHECK(sizes(3586) == std::pair<std::uint64_t, std::uint64_t>(3073, 4097));
  CHECK(sizes(std::uint64_t{1} << 40) == std::pair<std::uint64_t, std::uint64_t>(3073, 4097));

  const auto direct = read_netgauge_loggp(path, 3000);
  CHECK(direct.message_bytes == 3073);
  CHECK(direct.o == (us(1.25) + us(2.0)) / 2.0);
  CHECK(direct.g == us(2.0));
  CHECK(direct.G == us(0.0025));
  const LogGops net = to_loggops(direct, 8);
  CHECK(net.L == us(2.5));
  CHECK(net.o == direct.o);
  CHECK(net.g == us(2.0));
  CHECK(net.G == us(0.0025));
  CHECK(net.O == 0.0);
  CHECK(net.message_bytes == 8);
  CHECK_THROWS_AS(to_loggops(direct, 0), InputError);

  // Another column order, named by its header.
  const auto other = NetgaugeLogGPTable::from_file(
      write_file("loggp_cols.out", "# size L o_s o_r g G\n64 1.0 2.0 3.0 4.0 0.5\n"));
  REQUIRE(other.rows().size() == 1);
  const auto p = other.nearest(1);
  CHECK(p.L == us(1.0));
  CHECK(p.o == (us(2.0) + us(3.0)) / 2.0);
  CHECK(p.g == us(4.0));
  CHECK(p.G == us(0.5));
}

TEST_CASE("netgauge LogGP: malformed files and files without a usable row") {
  CHECK_THROWS_WITH(
      NetgaugeLogGPTable::from_file(write_file("loggp_bad.out",
                                               "1 10 5 9 40 2.5 0.5 1 1 0.1 0\n"
                                               "1025 10 abc 9 40 2.5 0.5 1 1 0.1 0\n")),
      Contains("loggp_bad.out:2") && Contains("abc"));
  CHECK_THROWS_WITH(NetgaugeLogGPTable::from_file(write_file("loggp_short.out", "1 10 5.0\n")),
                    Contains("loggp_short.out:1"));
  CHECK_THROWS_WITH(NetgaugeLogGPTable::from_file(
                        write_file("loggp_size.out", "-1 10 5 9 40 2.5 0.5 1 1 0.1 0\n")),
                    Contains("loggp_size.out:1"));
  CHECK_THROWS_WITH(NetgaugeLogGPTable::from_file(
                        write_file("loggp_header.out", "# size n L o_s g G\n1 10 1 1 1 1\n")),
                    Contains("loggp_header.out:1") && Contains("'o_r'"));
  CHECK_THROWS_WITH(
      NetgaugeLogGPTable::from_file(write_file("loggp_nan.out",
                                               "1 10 5 9 40 2.5 0.5 1 -nan -nan -nan\n"
                                               "1025 10 5 9 40 2.5 0.5 1 -1 0.1 0\n")),
      Contains("loggp_nan.out") && Contains("no usable row") && Contains("0 have g and G"));
  CHECK_THROWS_WITH(
      NetgaugeLogGPTable::from_file(write_file("loggp_neg.out",
                                               "1 10 5 9 40 2.5 -0.5 1 1 0.1 0\n"
                                               "1025 10 5 9 40 2.5 0.5 nan 1 0.1 0\n")),
      Contains("loggp_neg.out") && Contains("0 have L, o_s and o_r"));
  CHECK_THROWS_WITH(
      NetgaugeLogGPTable::from_file(write_file("loggp_empty.out", "# nothing measured\n")),
      Contains("no usable row"));
  CHECK_THROWS_WITH(NetgaugeLogGPTable::from_file("netgauge/no_loggp.out"),
                    Contains("no_loggp.out") && Contains("cannot be read"));
}
