// One table of time units for every reader (core/units.hpp): the same number written in the
// same unit gives the same double, bit for bit, in run-file values, detour traces, Netgauge
// latency and LogGP files, measured-times lists and tables, and compare's --unit; and that double
// is the decimal in seconds rounded once, not the number times 10^power (which rounds twice).
#include <fmt/format.h>
#include <bit>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <charconv>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/param_reader.hpp"
#include "core/units.hpp"
#include "distributions/detour_trace.hpp"
#include "distributions/latency_samples.hpp"
#include "distributions/measured_times.hpp"
#include "distributions/netgauge_loggp.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

using namespace collnoise;
using collnoise::testing::run_command_line;
using collnoise::testing::small_schedule_run;
using collnoise::testing::write_text;

namespace {

// Texts that 10^power times their double misses in some unit, and some it does not.
const std::vector<std::string> kTexts = {"2.5", "0.1", "1e-3", "123456.789", "7", "100", "0.3"};
// Every spelling of the table, the micro sign's two code points included.
const std::vector<std::string> kUnits = {"s", "ms", "us", "\u00b5s", "\u03bcs", "ns"};

std::uint64_t bits(double x) {
  return std::bit_cast<std::uint64_t>(x);
}

// The reference: the decimal `text` times 10^power written out as one decimal and read once.
double decimal_seconds(const std::string& text, int power) {
  const auto e = text.find('e');
  const std::string mantissa = text.substr(0, e);
  const long long exponent = e == std::string::npos ? 0 : std::stoll(text.substr(e + 1));
  const std::string decimal = fmt::format("{}e{}", mantissa, exponent + power);
  double value = 0.0;
  std::from_chars(decimal.data(), decimal.data() + decimal.size(), value);
  return value;
}

double parsed(const std::string& text) {
  return std::stod(text);
}

// A run file's value "<text><unit>" on a time key, through the parameter reader.
double run_file_value(const std::string& text, const std::string& unit) {
  const KeySpec key{.name = "collective.tau", .unit = "seconds", .bounds = {0.0, kMaxSeconds}};
  ParamReader reader(ParamMap{{key.name, ParamValue(text + unit)}});
  return reader.number(key);
}

// A trace of one detour "<text>\t<text>": its start.
double trace_start(const std::string& text, const std::string& unit) {
  const std::string path = write_text("ut_trace.txt", fmt::format("{}\t{}\n", text, text));
  return read_detour_trace(path, trace_unit(unit)).busy().front().start;
}

double trace_end(const std::string& text, const std::string& unit) {
  const std::string path = write_text("ut_trace.txt", fmt::format("{}\t{}\n", text, text));
  return read_detour_trace(path, trace_unit(unit)).busy().front().end;
}

// A latency file's one-way sample "<text>" (Netgauge's microseconds).
double latency_sample(const std::string& text, LatencyColumn column) {
  const std::string path = write_text("ut_lat.out", fmt::format("#size\trtt\n8\t{}\n", text));
  return LatencySamples::from_file(path, 0.0, column).pool(8).front();
}

// A LogGP file whose L, o_s, o_r, g and G are all "<text>" (microseconds, per byte for G).
NetgaugeLogGPRow loggp_row(const std::string& text) {
  const std::string path = write_text(
      "ut_loggp.out",
      fmt::format("# size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s) L o_s o_r g G lsqu(g,G)\n"
                  "8 10 5.0 9.0 40.0 {0} {0} {0} {0} {0} 0\n",
                  text));
  return NetgaugeLogGPTable::from_file(path).rows().front();
}

double measured_list(const std::string& text, const std::string& unit) {
  const std::string path = write_text("ut_list.txt", text + "\n");
  return read_measured_times(path, {.unit = unit}).seconds.front();
}

double measured_table(const std::string& text, const std::string& unit) {
  const std::string path =
      write_text("ut_table.csv", fmt::format("#MessageSize Rank0Time({})\n8 {}\n", unit, text));
  return read_measured_times(path, {}).seconds.front();
}

const std::string kRun = small_schedule_run(
    {.name = "unit-table", .seed = 5, .samples = 20, .log2_N = 1, .raw_samples = true});

// compare's measured mean of a list of four copies of "<text>" read with --unit <unit>: the
// mean of equal values is each of them, exactly (a sum of four, then a division by four).
double compare_measured(const std::string& text, const std::string& unit) {
  write_text("ut_list4.txt", fmt::format("{0}\n{0}\n{0}\n{0}\n", text));
  // Its warnings (few values above the quantiles) go to stderr, away from the JSON.
  const auto r = collnoise::testing::run_shell(fmt::format(
      "({} compare ut.h5 ut_list4.txt --unit {} --json 2>/dev/null)", COLLNOISE_BINARY, unit));
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(r.output)["measured"]["mean"].get<double>();
}

}  // namespace

TEST_CASE("the same number in the same time unit gives the same bits in every reader", "[units]") {
  std::filesystem::create_directories("unit_table");
  std::filesystem::current_path("unit_table");
  write_text("ut.toml", kRun);
  REQUIRE(run_command_line("run ut.toml --out ut.h5 --force --quiet").code == 0);
  for (const auto& unit : kUnits) {
    const int power = find_time_unit(unit)->power_of_ten;
    for (const auto& text : kTexts) {
      INFO(text << " " << unit);
      const double seconds = decimal_seconds(text, power);
      CHECK(bits(run_file_value(text, unit)) == bits(seconds));
      CHECK(bits(*decimal_in_seconds(text, *find_time_unit(unit))) == bits(seconds));
      CHECK(bits(value_in_seconds(parsed(text), *find_time_unit(unit))) == bits(seconds));
      CHECK(bits(trace_start(text, unit)) == bits(seconds));
      // The end, start + duration, is a sum the file does not write: its double converts.
      CHECK(bits(trace_end(text, unit)) ==
            bits(value_in_seconds(parsed(text) + parsed(text), *find_time_unit(unit))));
      CHECK(bits(measured_list(text, unit)) == bits(seconds));
      CHECK(bits(measured_table(text, unit)) == bits(seconds));
      CHECK(bits(compare_measured(text, unit)) == bits(seconds));
      if (power == -6) {  // Netgauge's files are in microseconds
        CHECK(bits(latency_sample(text, LatencyColumn::kOneWay)) == bits(seconds));
        CHECK(bits(latency_sample(text, LatencyColumn::kRoundTrip)) == bits(seconds / 2.0));
        const NetgaugeLogGPRow row = loggp_row(text);
        for (const double value : {row.L, row.o_s, row.o_r, row.g, row.G})
          CHECK(bits(value) == bits(seconds));
      }
    }
  }
  // Rounding twice would miss: 10^power times the double differs in the last bit for these.
  CHECK(bits(decimal_seconds("2.5", -6)) != bits(2.5 * 1e-6));
  CHECK(bits(decimal_seconds("100", -9)) != bits(100.0 * 1e-9));
  std::filesystem::current_path("..");
}

TEST_CASE("every reader names the same time units", "[units]") {
  CHECK(accepted_units(Dimension::kTime) == "s, ms, us (or \u00b5s), ns");
  CHECK(accepted_units(Dimension::kTimePerByte) == "s/B, ms/B, us/B (or \u00b5s/B), ns/B");
  CHECK(measured_time_units() == accepted_units(Dimension::kTime));
  for (const TimeUnit& unit : time_units()) {
    INFO(unit.name);
    CHECK(trace_unit(std::string(unit.name)).power_of_ten == unit.power_of_ten);
    CHECK(bits(seconds_per_unit(std::string(unit.name), "--unit")) ==
          bits(decimal_seconds("1", unit.power_of_ten)));
  }
  CHECK_THROWS_WITH(trace_unit("min"),
                    "noise.unit = \"min\" is invalid: use s, ms, us (or \u00b5s), ns (\"ns\" for "
                    "Netgauge)");
  CHECK_THROWS_WITH(time_unit("min", "--unit"),
                    "--unit 'min' is not a time unit (s, ms, us (or \u00b5s), ns)");
  const auto refused = run_command_line("compare a.h5 b.txt --unit min");
  CHECK(refused.code == 2);
  CHECK(refused.output.find("'min' is not a time unit (s, ms, us (or \u00b5s), ns)") !=
        std::string::npos);
}
