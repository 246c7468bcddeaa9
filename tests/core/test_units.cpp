// Values with units in run files (core/units.hpp, docs/run-files.md "Values with units"): a time
// with a unit is the same double as its decimal in seconds, a size is an exact number of bytes,
// both spellings give the same point, the same stream identity and the same numbers, and a bad
// unit is refused in one line naming the key.
#include <fmt/format.h>
#include <bit>
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <string>

#include "core/errors.hpp"
#include "core/param_reader.hpp"
#include "core/units.hpp"
#include "runs/point_factory.hpp"
#include "runs/run_file.hpp"
#include "tests/fixtures/command_line.hpp"

using namespace collnoise;
using collnoise::testing::run_command_line;
using collnoise::testing::write_text;

namespace {

std::uint64_t bits(double x) {
  return std::bit_cast<std::uint64_t>(x);
}

double seconds(const std::string& text) {
  return seconds_from_text("collective.tau", text, Dimension::kTime);
}

// The message of the InputError `read` throws ("" when it throws none).
template <class F>
std::string refusal(F read) {
  try {
    read();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const KeySpec kTime{.name = "noise.T", .unit = "seconds", .bounds = {0.0, kMaxSeconds}};
const KeySpec kPeriod{.name = "noise.P", .unit = "seconds", .bounds = {1.0e-9, kMaxSeconds}};
const KeySpec kTau{.name = "collective.tau", .unit = "seconds", .fallback = 0.0};
const KeySpec kPerByte{.name = "loggops.G", .unit = "seconds per byte", .bounds = {0.0, 1.0}};
const KeySpec kBytes{.name = "collective.message_bytes",
                     .type = KeyType::kInteger,
                     .unit = "bytes",
                     .bounds = {0.0, 1099511627776.0}};
const KeySpec kFraction{.name = "noise.f", .bounds = {0.0, 1.0, false, true}};
const KeySpec kRate{.name = "noise.rate", .unit = "1/seconds"};
const KeySpec kCycles{.name = "collective.cycles", .type = KeyType::kInteger};

std::string refusal_of(const KeySpec& spec, const ParamValue& value) {
  return refusal([&] {
    ParamReader reader(ParamMap{{spec.name, value}});
    if (spec.type == KeyType::kInteger)
      reader.integer(spec);
    else
      reader.number(spec);
  });
}

// The one error line names the key and the text as given.
void check_refused(const KeySpec& spec, const std::string& text, const std::string& why) {
  const std::string message = refusal_of(spec, text);
  INFO(message);
  CHECK(message.starts_with(spec.name + " "));
  CHECK(message.find("\"" + text + "\"") != std::string::npos);
  CHECK(message.find(why) != std::string::npos);
  CHECK(message.find('\n') == std::string::npos);
}

}  // namespace

TEST_CASE("a time with a unit is its decimal in seconds, rounded once", "[units]") {
  // Exactly the doubles of the literals, bit for bit.
  CHECK(bits(seconds("2.5us")) == bits(2.5e-6));
  CHECK(bits(seconds("6.67ms")) == bits(6.67e-3));
  CHECK(bits(seconds("100 ns")) == bits(1e-7));
  CHECK(bits(seconds("3.3us")) == bits(3.3e-6));
  CHECK(bits(seconds("1.7ns")) == bits(1.7e-9));
  CHECK(bits(seconds("0.1s")) == bits(0.1));
  CHECK(bits(seconds("1e3us")) == bits(1e-3));
  CHECK(bits(seconds("25E-1 us")) == bits(2.5e-6));
  CHECK(bits(seconds("+2.5us")) == bits(2.5e-6));
  CHECK(bits(seconds("-2.5us")) == bits(-2.5e-6));
  CHECK(bits(seconds("  2.5\tus ")) == bits(2.5e-6));
  CHECK(bits(seconds("0us")) == bits(0.0));
  CHECK(bits(seconds("2.5\u00b5s")) == bits(2.5e-6));  // micro sign
  CHECK(bits(seconds("2.5\u03bcs")) == bits(2.5e-6));  // Greek mu
  CHECK(bits(seconds("1000000 s")) == bits(1e6));
  // Multiplying would round twice and miss these by a bit: the test can fail.
  CHECK(bits(2.5 * 1e-6) != bits(2.5e-6));
  CHECK(bits(100.0 * 1e-9) != bits(1e-7));
  CHECK(bits(3.3 * 1e-6) != bits(3.3e-6));
  // Per byte: a time unit over B.
  CHECK(bits(seconds_from_text("loggops.G", "0.4ns/B", Dimension::kTimePerByte)) == bits(0.4e-9));
  CHECK(bits(seconds_from_text("loggops.G", "2.5 us/B", Dimension::kTimePerByte)) == bits(2.5e-6));
}

TEST_CASE("a size with a unit is an exact number of bytes", "[units]") {
  const auto bytes = [](const std::string& text) {
    return bytes_from_text("collective.message_bytes", text);
  };
  CHECK(bytes("64KiB") == 65536);
  CHECK(bytes("64 KiB") == 65536);
  CHECK(bytes("1.5KiB") == 1536);
  CHECK(bytes("8B") == 8);
  CHECK(bytes("1 MiB") == 1048576);
  CHECK(bytes("16MiB") == 16777216);
  CHECK(bytes("1GiB") == 1073741824);
  CHECK(bytes("1kB") == 1000);
  CHECK(bytes("2.5 MB") == 2500000);
  CHECK(bytes("1GB") == 1000000000);
  CHECK(bytes("1e3B") == 1000);
  CHECK(bytes("0.5KiB") == 512);
  CHECK(bytes("0.0009765625KiB") == 1);  // 2^-10 KiB
  CHECK(bytes("0B") == 0);
  CHECK(bytes("-8B") == -8);  // refused by the bounds, after conversion
  CHECK(bytes("9223372036854775807B") == INT64_MAX);
  CHECK(bytes("8589934591GiB") == 9223372035781033984);
  const auto refused = [&](const std::string& text, const std::string& why) {
    const std::string message = refusal([&] { bytes(text); });
    INFO(text << ": " << message);
    CHECK(message.find(why) != std::string::npos);
  };
  refused("1.5B", "is not a whole number of bytes");
  refused("0.1KiB", "is not a whole number of bytes");
  refused("1.0000001kB", "is not a whole number of bytes");
  refused("9223372036854775808B", "beyond 2^63 - 1 bytes");
  refused("8589934592GiB", "beyond 2^63 - 1 bytes");
  refused("1e30B", "beyond 2^63 - 1 bytes");
  refused("1e999999B", "its exponent is too large");
  refused("8EiB", "unknown unit \"EiB\"");
  refused("8KB", "unknown unit \"KB\"");  // 1000 or 1024? Neither: kB or KiB
}

TEST_CASE("the reader converts values with units before it checks the bounds", "[units]") {
  ParamReader reader(ParamMap{{"noise.T", std::string("2.5us")},
                              {"noise.P", std::string("1ns")},
                              {"loggops.G", std::string("0.4 ns/B")},
                              {"collective.message_bytes", std::string("64KiB")}});
  CHECK(bits(reader.number(kTime)) == bits(2.5e-6));
  CHECK(bits(reader.number(kPeriod)) == bits(1e-9));  // at the bound, so accepted
  CHECK(bits(reader.number(kPerByte)) == bits(0.4e-9));
  CHECK(reader.integer(kBytes) == 65536);
  // The record holds seconds and bytes, not the text.
  CHECK(std::get<double>(reader.resolved().at("noise.T")) == 2.5e-6);
  CHECK(std::get<std::int64_t>(reader.resolved().at("collective.message_bytes")) == 65536);

  // Numbers of seconds and bytes are read as before.
  ParamReader plain(ParamMap{{"noise.T", 2.5e-6},
                             {"noise.P", 1e-9},
                             {"loggops.G", 0.4e-9},
                             {"collective.message_bytes", std::int64_t{65536}}});
  plain.number(kTime);
  plain.number(kPeriod);
  plain.number(kPerByte);
  plain.integer(kBytes);
  CHECK(plain.resolved() == reader.resolved());
  CHECK(plain.stream_identity() == reader.stream_identity());
}

TEST_CASE("a value with a unit spelt at its default is the default", "[units]") {
  ParamReader omitted(ParamMap{});
  omitted.number(kTau);
  ParamReader spelt(ParamMap{{"collective.tau", std::string("0 ns")}});
  spelt.number(kTau);
  CHECK(spelt.stream_identity().empty());
  CHECK(spelt.stream_identity() == omitted.stream_identity());
  ParamReader other(ParamMap{{"collective.tau", std::string("1 ns")}});
  other.number(kTau);
  CHECK(other.stream_identity() == "collective.tau=" + canonical_text(1e-9) + "\n");
}

TEST_CASE("bad units are refused in one line naming the key", "[units]") {
  check_refused(kTime, "2.5xs", "unknown unit \"xs\"");
  check_refused(kTime, "2.5 sec", "unknown unit \"sec\"");
  check_refused(kTime, "2.5", "has no unit");
  check_refused(kTime, "us", "is not a number with a unit");
  check_refused(kTime, "2.5.1us", "unknown unit \".1us\"");
  check_refused(kTime, ".5us", "is not a number with a unit");
  check_refused(kTime, "5.us", "is not a number with a unit");
  check_refused(kTime, "nan us", "is not a number with a unit");
  check_refused(kTime, "inf s", "is not a number with a unit");
  check_refused(kTime, "0x10s", "unknown unit \"x10s\"");
  check_refused(kTime, "1e400s", "beyond what a double holds");
  check_refused(kTime, "64KiB", "is a size, but noise.T is a time in seconds");
  check_refused(kBytes, "2us", "is a time, but collective.message_bytes is a size in bytes");
  check_refused(kPerByte, "0.4ns", "is a time, but loggops.G is a time per byte");
  check_refused(kPerByte, "0.4KiB", "is a size, but loggops.G is a time per byte");
  // Bounds after conversion: in range as a number of microseconds, not as seconds.
  check_refused(kTime, "-2us", "is out of range: it must lie in [0, 1e+06] seconds");
  check_refused(kTime, "2000000s", "(2e+06 seconds) is out of range");
  check_refused(kPeriod, "0.5ns", "(5e-10 seconds) is out of range");
  check_refused(kBytes, "-8B", "(-8 bytes) is out of range");
  check_refused(kBytes, "2TiB", "unknown unit \"TiB\"");
  check_refused(kBytes, "2048GiB", "(2199023255552 bytes) is out of range");
  check_refused(kBytes, "1.5B", "is not a whole number of bytes");
  // Keys without a time or size unit take no unit.
  check_refused(kFraction, "0.5us", "must be a number (it takes no unit)");
  check_refused(kRate, "5/s", "must be a number of 1/seconds (units are read on time and size");
  CHECK(refusal_of(kCycles, std::string("2us")) == "collective.cycles must be an integer, got 2us");
  // A list of strings is no number.
  CHECK(refusal_of(kTime, TextList{"2us"}).starts_with("noise.T must be a number"));
}

namespace {

// A tree barrier whose times are given as `w` and `tau`, swept over `taus`.
std::string tree_run(const std::string& w, const std::string& taus) {
  return "name = \"units\"\nseed = 5\nsamples = 200\n[collective]\nkind = \"tree_barrier\"\n"
         "N = 63\nw = " +
         w + "\n[noise]\nlaw = \"exponential\"\nf = 0.01\n[sweep]\n\"collective.tau\" = " + taus +
         "\n";
}

// A schedule run under LogGOPS with every kind of unit: times, a time per byte, sizes.
std::string schedule_run(const std::string& loggops, const std::string& detour,
                         const std::string& sizes) {
  return "name = \"units-schedule\"\nseed = 8\nsamples = 4\n[collective]\nkind = \"schedule\"\n"
         "algorithm = \"recursive_doubling_allreduce\"\nlog2_N = 4\n[loggops]\n" +
         loggops + "\n[noise]\nlaw = \"periodic\"\nP = 1.0e-4\nD = " + detour +
         "\n[sweep]\n\"collective.message_bytes\" = " + sizes + "\n";
}

const char* kLogGOPSNumbers = "L = 1.0e-6\no = 1.0e-9\ng = 0.0\nG = 1.0e-9\nS = 65536";
const char* kLogGOPSUnits = "L = \"1us\"\no = \"1 ns\"\ng = \"0s\"\nG = \"1ns/B\"\nS = \"64KiB\"";

// Every field of a record, doubles in hexadecimal (every bit).
std::string record_text(const Record& record) {
  std::string out;
  for (const auto& [key, field] : record.fields())
    out += key + "=" +
           std::visit(
               [](const auto& v) -> std::string {
                 using T = std::decay_t<decltype(v)>;
                 if constexpr (std::is_same_v<T, double>)
                   return fmt::format("{:a}", v);
                 else if constexpr (std::is_same_v<T, std::string>)
                   return v;
                 else if constexpr (std::is_same_v<T, std::int64_t> ||
                                    std::is_same_v<T, std::uint64_t> || std::is_same_v<T, bool>)
                   return fmt::format("{}", v);
                 else
                   return "?";
               },
               field) +
           "\n";
  return out;
}

std::vector<PreparedPoint> points_of(const std::string& text) {
  return prepare_points(parse_run_text(text, "units.toml"));
}

// summary --json of a run of `text`, from its points on (the run file's text and path before).
std::string run_summary(const std::string& name, const std::string& text) {
  write_text(name + ".toml", text);
  std::filesystem::remove(name + ".h5");
  const auto run = run_command_line("run " + name + ".toml --out " + name + ".h5 --quiet");
  INFO(run.output);
  REQUIRE(run.code == 0);
  const auto json = run_command_line("summary " + name + ".h5 --json");
  REQUIRE(json.code == 0);
  return json.output.substr(json.output.find("\"points\""));
}

}  // namespace

TEST_CASE("units in run files: single and swept values, the same points as numbers", "[units]") {
  // Through TOML: the number 2.5e-6 and the string "2.5us" are the same double.
  const auto numbers = points_of(tree_run("1.0e-3", "[2.5e-6, 6.67e-3, 1e-7, 3.3e-6, 0.0]"));
  const auto units =
      points_of(tree_run("\"1ms\"", "[\"2.5us\", \"6.67ms\", \"100 ns\", 3.3e-6, \"0ns\"]"));
  REQUIRE(numbers.size() == 5);
  REQUIRE(units.size() == 5);
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    INFO("point " << i);
    const Field* tau = units[i].params.find("collective.tau");
    REQUIRE(tau != nullptr);
    CHECK(std::holds_alternative<double>(*tau));  // recorded in seconds
    CHECK(record_text(units[i].params) == record_text(numbers[i].params));
    CHECK(std::get<double>(*units[i].params.find("collective.w")) == 1.0e-3);
    CHECK(units[i].stream_key == numbers[i].stream_key);
  }
  CHECK(std::get<double>(*units[1].params.find("collective.tau")) == 6.67e-3);
  CHECK(units[0].stream_key != units[1].stream_key);

  // Sizes and times per byte, in a sweep and in the base point.
  const auto schedule_numbers = points_of(schedule_run(kLogGOPSNumbers, "2.5e-6", "[8, 65536]"));
  const auto schedule_units =
      points_of(schedule_run(kLogGOPSUnits, "\"2.5us\"", "[\"8B\", \"64KiB\"]"));
  REQUIRE(schedule_units.size() == 2);
  for (std::size_t i = 0; i < schedule_units.size(); ++i) {
    INFO("point " << i);
    CHECK(schedule_units[i].stream_key == schedule_numbers[i].stream_key);
    CHECK(record_text(schedule_units[i].params) == record_text(schedule_numbers[i].params));
  }
  CHECK(std::get<std::int64_t>(*schedule_units[1].params.find("collective.message_bytes")) ==
        65536);

  // A bad unit in a sweep is refused naming the key.
  const std::string message =
      refusal([] { points_of(tree_run("1.0e-3", "[\"1us\", \"2 parsecs\"]")); });
  CHECK(message ==
        "collective.tau = \"2 parsecs\" has an unknown unit \"parsecs\": collective.tau "
        "takes s, ms, us (or \u00b5s), ns");
}

TEST_CASE("units in run files give the same numbers as seconds and bytes", "[units]") {
  const std::string numbers =
      run_summary("units-numbers", schedule_run(kLogGOPSNumbers, "2.5e-6", "[8, 65536]"));
  const std::string units =
      run_summary("units-units", schedule_run(kLogGOPSUnits, "\"2.5us\"", "[\"8B\", \"64KiB\"]"));
  CHECK(units == numbers);
  const auto refused = run_command_line(
      "run --validate-only " + write_text("units-bad.toml", tree_run("\"1 ms\"", "[\"2uss\"]")));
  CHECK(refused.code == 2);
  CHECK(refused.output ==
        "collnoise: error: collective.tau = \"2uss\" has an unknown unit \"uss\": collective.tau "
        "takes s, ms, us (or \u00b5s), ns\n");
}
