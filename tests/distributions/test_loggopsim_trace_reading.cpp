// LogGOPSim's reading of a trace of appended measurements (docs/models/time-noise.md,
// "LogGOPSim's reading of appended measurements"): its binary search and walk worked by hand on
// an unsorted list, the detours it therefore replays, and the run-file key that asks for it.
#include <catch2/catch.hpp>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/param_reader.hpp"
#include "distributions/detour_trace.hpp"
#include "distributions/loggopsim_trace_reading.hpp"
#include "distributions/time_noise.hpp"
#include "distributions/time_noise_kind.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

namespace {

using Busy = std::vector<std::pair<double, double>>;

Busy busy_of(const DetourPattern& p) {
  Busy b;
  for (const Detour& d : p.busy()) b.emplace_back(d.start, d.end);
  return b;
}

// Two measurements appended: (1,1) (4,1) (7,1), then (2,.5) (5,.5) (8,.5), then an empty entry
// at 9 (the list's last start: LogGOPSim's period).
const std::vector<TraceEntry> kAppended{{1, 1},   {4, 1},   {7, 1}, {2, 0.5},
                                        {5, 0.5}, {8, 0.5}, {9, 0}};

}  // namespace

TEST_CASE("LogGOPSim's search on an unsorted list, step by step") {
  // x = 1.5: pos 3 (2 >= 1.5: max 2), pos 1 (4 >= 1.5: max 0), stop; walk down to 0.
  CHECK(loggopsim_search(kAppended, 1.5) == 0);
  // x = 3: pos 3 (2 < 3: min 4), pos 5 (8 >= 3: max 4), stop; walk 5 -> 4 -> 3 (2 <= 3 < 5).
  CHECK(loggopsim_search(kAppended, 3.0) == 3);
  // x = 7.5: the same path stops at 5, walks to 4 (5 <= 7.5 < 8): the first measurement's
  // detour at 7 is never reached.
  CHECK(loggopsim_search(kAppended, 7.5) == 4);
  // x = 8.5: pos 3 (min 4), pos 5 (8 < 8.5: min 6), stop at 5, where 8 <= 8.5 < 9.
  CHECK(loggopsim_search(kAppended, 8.5) == 5);
  // An exact hit stops the search at once.
  CHECK(loggopsim_search(kAppended, 2.0) == 3);
}

TEST_CASE("LogGOPSim's reading replays the detours its search reaches") {
  // Between consecutive starts 1 2 4 5 7 8 (and the period 9) the search reaches entries 0, 3,
  // 3, 4, 4, 5: detours [1, 2), [2, 2.5), [5, 5.5), [8, 8.5); the first measurement's (4, 1) and
  // (7, 1) are never replayed.
  const DetourPattern p = loggopsim_trace_pattern(kAppended, "hand");
  CHECK(p.span() == 9.0);
  CHECK(busy_of(p) == Busy{{1.0, 2.5}, {5.0, 5.5}, {8.0, 8.5}});
  // A sorted list (one measurement) is itself, less its last entry, whose start is the period.
  const DetourPattern sorted = loggopsim_trace_pattern({{1, 1}, {4, 1}, {7, 1}, {9, 1}}, "one");
  CHECK(sorted.span() == 9.0);
  CHECK(busy_of(sorted) == Busy{{1.0, 2.0}, {4.0, 5.0}, {7.0, 8.0}});
  // A switch of measurement inside a detour: (1,2) (3,3) (7,2), then (6,2) (8,1), then (10,0).
  // For x in (6, 7) the search reaches (3, 3), ended; for x = 7.5 it reaches the second
  // measurement's (6, 2) (pos 2: min 3; pos 4: max 3; walk 4 -> 3): its rest [7, 8) is a detour
  // from 7 on, and the first measurement's (7, 2) is never replayed.
  const DetourPattern inside =
      loggopsim_trace_pattern({{1, 2}, {3, 3}, {7, 2}, {6, 2}, {8, 1}, {10, 0}}, "in");
  CHECK(loggopsim_search({{1, 2}, {3, 3}, {7, 2}, {6, 2}, {8, 1}, {10, 0}}, 7.5) == 3);
  CHECK(busy_of(inside) == Busy{{1.0, 6.0}, {7.0, 9.0}});
  CHECK_THROWS_WITH(loggopsim_trace_pattern({{1, 1}}, "short.txt"), Contains("short.txt"));
  CHECK_THROWS_WITH(loggopsim_trace_pattern({{1, 1}, {0, 0}}, "zero.txt"),
                    Contains("zero.txt") && Contains("period"));
}

TEST_CASE("noise.reading = \"loggopsim\" reads a file of appended measurements as LogGOPSim does") {
  // The list above as a Netgauge file: two measurements, each with its header.
  {
    std::ofstream("appended.txt") << "#start\tduration\n1\t1\n4\t1\n7\t1\n#start\tduration\n"
                                     "2\t0.5\n5\t0.5\n8\t0.5\n9\t0\n";
  }
  const TimeNoiseKind kind = trace_noise_kind();
  const auto read = [&](ParamMap given) {
    given.emplace("noise.file", std::string("appended.txt"));
    given.emplace("noise.unit", std::string("s"));
    ParamReader reader(std::move(given));
    return std::get<PatternNoise>(kind.make(reader, "noise"));
  };
  const PatternNoise loggopsim = read({{"noise.reading", std::string("loggopsim")}});
  CHECK(loggopsim.pattern->span() == 9.0);
  CHECK(busy_of(*loggopsim.pattern) == Busy{{1.0, 2.5}, {5.0, 5.5}, {8.0, 8.5}});
  CHECK(loggopsim.description ==
        "trace(appended.txt, as LogGOPSim reads it, 3 busy intervals, span 9 s)");
  // collnoise's own reading: the measurements apart, the first by default.
  CHECK(busy_of(*read({}).pattern) == Busy{{1.0, 2.0}, {4.0, 5.0}, {7.0, 8.0}});
  CHECK_THROWS_WITH(
      read({{"noise.reading", std::string("loggopsim")}, {"noise.measurement", std::int64_t{1}}}),
      Contains("noise.measurement does not apply"));
  CHECK_THROWS_WITH(read({{"noise.reading", std::string("loggopsim")}, {"noise.span", 20.0}}),
                    Contains("noise.span does not apply"));
  ParamReader per_rank(
      {{"noise.file", std::string("appended.txt")}, {"noise.reading", std::string("loggopsim")}});
  CHECK_THROWS_WITH(read_trace_measurements(per_rank, "noise"),
                    Contains("noise.reading = \"loggopsim\""));
}
