// Schedules generated on the fly (engine/schedules/schedule/generated_schedule.hpp): operation by
// operation the stored schedule of every algorithm.
#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "core/work_in_flight.hpp"
#include "distributions/exponential.hpp"
#include "distributions/latency_samples.hpp"
#include "engine/cycles/cycle_model.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/engine/message_delays.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/goal/goal_writer.hpp"
#include "engine/schedules/schedule/generated_schedule.hpp"
#include "engine/schedules/schedule_study.hpp"
#include "engine/schedules/simulate.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/same_operations.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;
using collnoise::test::hand_net;

TEST_CASE("algorithms generated on the fly equal the stored ones, operation by operation") {
  std::size_t checked = 0;
  for (const auto& algorithm : algorithm_kinds()) {
    if (!algorithm.generate_on_the_fly) continue;
    for (std::uint32_t n = 1; n <= 40; ++n)
      for (const auto order : {ReceiveOrder::kInOrder, ReceiveOrder::kPreposted}) {
        INFO(algorithm.name << " on " << n << " ranks");
        AlgorithmParams p;
        p.ranks = n;
        // A multiple of every power of two up to 64: Rabenseifner's blocks are then equal.
        p.message_bytes = 64 * 125;
        p.receives = order;
        const Schedule stored = algorithm.generate(p);
        const std::optional<GeneratedSchedule> generated = algorithm.generate_on_the_fly(p);
        REQUIRE(generated);
        const GeneratedSchedule& fly = *generated;
        test::expect_same_operations(stored, fly);
        const ScheduleRun x = run_schedule(stored, hand_net());
        const ScheduleRun y = run_schedule(fly, hand_net());
        REQUIRE(x.complete);
        CHECK(x.finish == y.finish);
        CHECK(x.events == y.events);
        ++checked;
      }
  }
  // Dissemination, Bruck, pairwise, recursive doubling, Rabenseifner, the tree barrier (counted
  // from the registry, so that a new algorithm needs no edit here).
  std::size_t on_the_fly = 0;
  for (const auto& algorithm : algorithm_kinds())
    if (algorithm.generate_on_the_fly) ++on_the_fly;
  CHECK(on_the_fly >= 6);
  CHECK(checked == on_the_fly * 40 * 2);
  // Rabenseifner's unequal blocks are stored instead.
  AlgorithmParams odd;
  odd.ranks = 8;
  odd.message_bytes = 12;
  CHECK_FALSE(find_algorithm("rabenseifner_allreduce")->generate_on_the_fly(odd));
  // Memory independent of N.
  AlgorithmParams big;
  big.ranks = 1U << 23;
  CHECK(find_algorithm("recursive_doubling_allreduce")->generate_on_the_fly(big)->memory_bytes() <
        8192);
}
