// Time-based noise (docs/models/time-noise.md): advance() against hand-computed cases for each law,
// trace parsing errors with file and line, and the per-rank drop lists of the redundant engine.
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <vector>

#include "core/errors.hpp"
#include "distributions/detour_pattern.hpp"
#include "distributions/detour_trace.hpp"
#include "distributions/exponential.hpp"
#include "distributions/time_noise.hpp"
#include "engine/cpu_noise.hpp"
#include "engine/cycles/drop_pool.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

namespace {
std::string write_file(const std::string& name, const std::string& text) {
  std::ofstream(name) << text;
  return name;
}
}  // namespace

TEST_CASE("periodic noise: advance by hand") {
  // P = 10 s, D = 2 s, offset 3: detours [3 + 10k, 5 + 10k), free time 8 s a period.
  const auto noise = periodic_noise(10.0, 2.0);
  const DetourPattern& p = *noise.pattern;
  CHECK(p.advance(3.0, 0.0, 1.0) == 1.0);  // free all along
  CHECK(p.advance(3.0, 0.0, 3.0) == 3.0);  // ends as the detour starts
  CHECK(p.advance(3.0, 0.0, 4.0) == 6.0);  // 3 s, suspended over [3, 5), 1 s more
  CHECK(p.advance(3.0, 4.0, 0.0) == 4.0);  // zero work, even inside a detour
  CHECK(p.advance(3.0, 4.0, 1.0) == 6.0);  // starts inside: resumes at 5
  CHECK(p.advance(3.0, 3.0, 1.0) == 6.0);  // detours are half-open: [3, 5) holds 3
  CHECK(p.advance(3.0, 5.0, 1.0) == 6.0);  // ... and not 5
  // 20 s of work from 0: [0,3) 3 s, [5,13) 8 s, [15,23) 8 s, [25,26) 1 s.
  CHECK(p.advance(3.0, 0.0, 20.0) == 26.0);
  // A thousand periods later, still exact (the whole-period skip).
  CHECK(p.advance(3.0, 0.0, 8000.0 + 3.0) == Approx(10003.0).epsilon(1e-15));
  // Detours exist for every k: with offset 9 the detour [-1, 1) holds t = 0.
  CHECK(p.advance(9.0, 0.0, 1.0) == 2.0);
  CHECK_THROWS_WITH(periodic_noise(0.01, 0.02), Contains("noise.D"));
  CHECK_THROWS_WITH(periodic_noise(-1.0, 0.001), Contains("noise.P"));
}

TEST_CASE("trace noise: advance by hand, wrap-around and parsing") {
  // Detours [0, 1) and [2.5, 3) repeating every 4 s (the span given), unit seconds.
  const auto pattern = read_detour_trace(
      write_file("trace_hand.txt", "# start\tduration\n0\t1\n2.5\t0.5\n"), trace_unit("s"), 4.0);
  CHECK(pattern.free_per_period() == 2.5);
  CHECK(pattern.advance(0.0, 0.0, 1.0) == 2.0);  // inside [0, 1): resumes at 1
  CHECK(pattern.advance(0.0, 1.0, 2.0) == 3.5);  // [1, 2.5) then [3, 3.5)
  CHECK(pattern.advance(0.0, 1.0, 4.0) == 6.5);  // 1.5 + 1 + 1.5: ends as [6.5, 7) starts
  CHECK(pattern.advance(0.5, 1.0, 1.0) == 2.5);  // shifted by 0.5: inside [0.5, 1.5) until 1.5
  // A detour past the span wraps to the start of the next period: [3.5, 4) and [0, 0.5).
  const auto wrapped =
      read_detour_trace(write_file("trace_wrap.txt", "1\t1\n3.5\t1\n"), trace_unit("s"), 4.0);
  REQUIRE(wrapped.busy().size() == 3);
  CHECK(wrapped.advance(0.0, 0.0, 1.0) == 2.5);  // waits over [0, 0.5), 0.5 s, [1, 2), 0.5 s
  // Nanoseconds by default (Netgauge); the span defaults to the end of the last detour.
  const auto ns =
      read_detour_trace(write_file("trace_ns.txt", "100\t50\n400\t100\n"), trace_unit("ns"));
  CHECK(ns.span() == Approx(500e-9));
  CHECK(ns.advance(0.0, 0.0, 200e-9) == Approx(250e-9));

  CHECK_THROWS_WITH(read_detour_trace(write_file("trace_bad.txt", "0\t5\nabc\n"), trace_unit("ns")),
                    Contains("trace_bad.txt:2"));
  CHECK_THROWS_WITH(
      read_detour_trace(write_file("trace_neg.txt", "# x\n0\t5\n9\t-3\n"), trace_unit("ns")),
      Contains("trace_neg.txt:3") && Contains("negative"));
  CHECK_THROWS_WITH(
      read_detour_trace(write_file("trace_empty.txt", "# only a comment\n"), trace_unit("ns")),
      Contains("trace_empty.txt") && Contains("no detours"));
  CHECK_THROWS_WITH(read_detour_trace("no_such_trace.txt", trace_unit("ns")),
                    Contains("no_such_trace.txt"));
  CHECK_THROWS_WITH(read_detour_trace(write_file("trace_full.txt", "0\t4\n"), trace_unit("s"), 4.0),
                    Contains("whole period"));
  CHECK_THROWS_WITH(trace_unit("minutes"), Contains("noise.unit"));
}

TEST_CASE("Poisson noise: advance agrees with the explicit list of its merged detours") {
  // Dense detours (rate x mean = 2), so that many overlap and merge.
  const PoissonDetours poisson(2e5, 1e-5, std::make_shared<ExponentialLaw>());
  for (std::uint64_t key : {1u, 2u, 3u}) {
    const auto detours = poisson.detours_until(key, 2e-2);
    REQUIRE(detours.size() > 50);
    for (std::size_t k = 1; k < detours.size(); ++k)
      REQUIRE(detours[k].start > detours[k - 1].end);  // merged: disjoint, in order
    ListedCpu listed({detours});
    auto cursor = poisson.start_cursor(key);
    double t = 0.0;
    std::mt19937_64 pick(key);
    for (int step = 0; step < 200; ++step) {
      const double x = std::uniform_real_distribution<double>(0.0, 2e-5)(pick);
      const double expected = listed.op(0, t, x);
      INFO("key " << key << " step " << step);
      REQUIRE(poisson.advance(cursor, key, t, x) == expected);
      t = expected + (step % 3 == 0 ? 1e-6 : 0.0);
    }
  }
  // The long-run busy fraction is 1 - exp(-rate E[duration]).
  const PoissonDetours light(1e4, 2e-5, std::make_shared<ExponentialLaw>());
  double busy = 0.0;
  const double horizon = 5.0;
  for (const auto& d : light.detours_until(7, horizon)) busy += d.end - d.start;
  CHECK(busy / horizon == Approx(-std::expm1(-0.2)).epsilon(0.02));
  CHECK_THROWS_WITH(PoissonDetours(0.0, 1e-5, std::make_shared<ExponentialLaw>()),
                    Contains("noise.rate"));
}

TEST_CASE("listed detours: advance by hand") {
  ListedCpu cpu({{{1.0, 2.0}, {1.5, 3.0}, {5.0, 6.0}}, {}});
  CHECK(cpu.op(0, 0.0, 1.0) == 1.0);
  CHECK(cpu.op(0, 0.0, 2.0) == 4.0);  // [1, 3) merged
  CHECK(cpu.op(0, 2.0, 3.0) == 7.0);  // from 3: [3,5) 2 s, then [6,7)
  CHECK(cpu.op(1, 0.0, 5.0) == 5.0);  // no detours
}

TEST_CASE("drop lists keep every arrival and give them back in order") {
  DropPool pool(5, 1);
  std::vector<RankDrops> lists(5);
  std::vector<std::multiset<double>> expected(5);
  std::vector<double> last_mate(5, 0.0);
  std::mt19937_64 rng(42);
  for (int step = 0; step < 20000; ++step) {
    const std::size_t r = rng() % 5;
    const int action = static_cast<int>(rng() % 4);
    if (action == 0 && !expected[r].empty()) {
      REQUIRE(lists[r].front() == *expected[r].begin());
      pool.pop_front(r, lists[r], 0);
      expected[r].erase(expected[r].begin());
    } else {
      const double x = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
      if (action == 1) {  // mate copies usually come in order
        last_mate[r] += x / 100;
        pool.insert_mate_copy(r, lists[r], last_mate[r], 0);
        expected[r].insert(last_mate[r]);
      } else {
        pool.insert_late(r, lists[r], x, 0);
        expected[r].insert(x);
      }
    }
    REQUIRE(lists[r].empty() == expected[r].empty());
    if (!expected[r].empty()) REQUIRE(lists[r].front() == *expected[r].begin());
    if (step % 2000 == 1999) {
      pool.clear(r, lists[r], 0);
      expected[r].clear();
    }
  }
}

TEST_CASE("the cached detour bound is the largest float not above the time") {
  // Against nextafter, on values that round up, round down, and sit exactly on floats.
  const auto reference = [](double x) {
    float f = static_cast<float>(x);
    if (static_cast<double>(f) > x) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
    return f;
  };
  std::vector<double> values = {0.0,        1.0,  -1.0,  1e-300,
                                -1e-300,    0.1,  -0.1,  1.0 / 3.0,
                                -1.0 / 3.0, 1e39, -1e39, 3.4028235677973366e38};
  std::mt19937_64 bits(7);
  for (int k = 0; k < 10000; ++k)
    values.push_back(std::ldexp(static_cast<double>(bits() >> 11), -53 + (k % 40) - 20) *
                     (k % 3 == 0 ? -1.0 : 1.0));
  for (const double x : values) {
    const float f = DetourPattern::float_at_or_below(x);
    INFO("x = " << x);
    CHECK(std::bit_cast<std::uint32_t>(f) == std::bit_cast<std::uint32_t>(reference(x)));
    CHECK(static_cast<double>(f) <= x);
  }
}

TEST_CASE(
    "the first detour ending after a time is found through the pattern's index as by a "
    "walk over every detour") {
  // Against a walk over every detour from two periods early (the same formula for each time), on
  // patterns sparse and clustered (a hundred detours within a thousandth of the period, where the
  // index's buckets hold many), at times inside detours, on their ends, between them and many
  // periods away, for offsets either side of zero.
  std::mt19937_64 bits(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto reference = [](const DetourPattern& p, double t, double offset) {
    const auto n = static_cast<std::int64_t>(p.busy().size());
    std::int64_t g = (static_cast<std::int64_t>(std::floor((t - offset) / p.span())) - 2) * n;
    while (p.detour(g, offset).end <= t) ++g;
    return g;
  };
  for (int pattern = 0; pattern < 40; ++pattern) {
    const double span = 1.0 + 1000.0 * unit(bits);
    const bool clustered = pattern % 2 == 1;
    const int count = 1 + pattern * 7;
    std::vector<Detour> detours;
    for (int i = 0; i < count; ++i) {
      const double start = clustered ? span * (0.5 + 1e-3 * unit(bits)) : span * unit(bits);
      detours.push_back({start, start + span * 1e-5 * (0.1 + unit(bits))});
    }
    const DetourPattern p(detours, span, "a random pattern");
    for (int probe = 0; probe < 2000; ++probe) {
      const double offset = span * (2.0 * unit(bits) - 1.0);
      const double periods = probe % 4 == 0 ? 1e6 * unit(bits) : 3.0 * unit(bits);
      double t = offset + span * periods;
      if (probe % 3 == 0) {  // on a detour's end or start, exactly
        const Detour d = p.detour(reference(p, t, offset), offset);
        t = probe % 2 == 0 ? d.end : d.start;
      }
      INFO("pattern " << pattern << ", t " << t << ", offset " << offset);
      REQUIRE(p.first_ending_after(t, offset) == reference(p, t, offset));
    }
  }
}
