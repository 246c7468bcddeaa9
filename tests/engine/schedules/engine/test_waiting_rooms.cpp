// Waiting rooms (engine/schedules/engine/waiting_rooms.hpp) against LogGOPSim's own handling of an
// operation that finds its CPU or NIC busy (queued again, examined again): the schedule engine
// with rooms and without gives every rank the same finishing time, bit for bit, on the built-in
// algorithms under every kind of noise, eager and rendezvous, with zero overheads (where a room's
// operations go back to the queue) and with large ones. The linear gather and scatter are where
// rooms matter: their root has N - 1 operations waiting at once.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "distributions/detour_pattern.hpp"
#include "distributions/exponential.hpp"
#include "distributions/poisson_detours.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;
using collnoise::test::net_of;

namespace {

template <class Noise>
void expect_same_with_and_without_rooms(const Schedule& s, const ScheduleNet& net,
                                        const std::function<Noise()>& make_noise) {
  Noise with_noise = make_noise();
  Noise without_noise = make_noise();
  ScheduleEngineMemory memory;
  const ScheduleRun with =
      schedule_detail::simulate_with<std::uint32_t>(s, net, with_noise, true, memory.buffers());
  const ScheduleRun without =
      schedule_detail::simulate_with<std::uint32_t>(s, net, without_noise, false, memory.buffers());
  CHECK(with.complete == without.complete);
  CHECK(with.events == without.events);
  REQUIRE(with.finish.size() == without.finish.size());
  std::size_t differ = 0;
  for (std::size_t r = 0; r < with.finish.size(); ++r)
    differ += with.finish[r] != without.finish[r];
  CHECK(differ == 0);
}

}  // namespace

TEST_CASE("waiting rooms give the times of operations queued again one by one (LogGOPSim's)") {
  const std::vector<ScheduleNet> nets = {
      net_of(1000, 1, 0, 1, 0, 65535),        // the shipped runs' parameters
      net_of(2500, 1500, 1000, 6, 0, 65535),  // overheads larger than the latency
      net_of(1000, 100, 50, 1, 3, 4096),      // rendezvous beyond 4 kB, per-byte overhead
      net_of(500, 0, 0, 0, 0, 8),             // nothing busy: no room holds anything for long
      net_of(300, 0, 200, 2, 0, 65535),       // only the NIC busy: rooms go back to the queue
  };
  const DetourPattern periodic({{0.0, 2500.0}}, 10000.0, "periodic");
  const DetourPattern trace({{0.0, 500.0}, {1200.0, 4200.0}, {9000.0, 9150.0}}, 12000.0, "trace");
  const PoissonDetours poisson(2.0e-4, 700.0, std::make_shared<ExponentialLaw>());
  const std::vector<std::string> algorithms = {
      "linear_gather",     "linear_scatter", "binomial_reduce",        "binomial_broadcast",
      "pairwise_alltoall", "ring_allreduce", "rabenseifner_allreduce", "tree_barrier"};
  for (const std::string& name : algorithms)
    for (const std::uint32_t n : {2U, 7U, 64U, 300U})
      for (const std::uint64_t bytes : {std::uint64_t{8}, std::uint64_t{10000}}) {
        // Beyond 64 ranks only where a root has them all waiting (the others grow as N^2 or N).
        if (n > 64 && name.rfind("linear_", 0) != 0) continue;
        AlgorithmParams p;
        p.ranks = n;
        p.message_bytes = bytes;
        p.segments = 2;
        const Schedule s = find_algorithm(name)->generate(p);
        for (std::size_t k = 0; k < nets.size(); ++k) {
          INFO(name << " on " << n << " ranks, " << bytes << " bytes, parameters " << k);
          expect_same_with_and_without_rooms<QuietSchedule>(s, nets[k],
                                                            [] { return QuietSchedule{}; });
          for (const auto semantics : {TimeSemantics::kPreempt, TimeSemantics::kLogGOPSim})
            expect_same_with_and_without_rooms<PatternScheduleNoise>(
                s, nets[k], [&] { return PatternScheduleNoise(periodic, semantics, 5, n, 1); });
          expect_same_with_and_without_rooms<PatternScheduleNoise>(s, nets[k], [&] {
            return PatternScheduleNoise(trace, TimeSemantics::kPreempt, 6, n, n);  // co-scheduled
          });
          expect_same_with_and_without_rooms<PoissonScheduleNoise>(
              s, nets[k], [&] { return PoissonScheduleNoise(poisson, 7, n, 1); });
        }
      }
}

TEST_CASE("waiting rooms: a linear scatter's root serves its sends in stamp order, by hand") {
  // Rank 0 sends 8 bytes to ranks 1, 2, 3 at once (o = 100, g = 50, G = 1, L = 1000 ns): each send
  // holds the CPU 100 ns and the NIC 50 + 7 = 57 ns, so they start at 0, 100 and 200; rank k
  // receives at 1100 + 100 (k - 1) and is done 100 + 7 ns later (its receive overhead o + 7 G).
  AlgorithmParams p;
  p.ranks = 4;
  const Schedule s = find_algorithm("linear_scatter")->generate(p);
  QuietSchedule quiet;
  ScheduleEngineMemory memory;
  const ScheduleRun run = schedule_detail::simulate_with<std::uint32_t>(
      s, net_of(1000, 100, 50, 1, 0, 65535), quiet, true, memory.buffers());
  REQUIRE(run.complete);
  CHECK(run.finish == std::vector<double>{300.0, 1207.0, 1307.0, 1407.0});
}

namespace {

// A random schedule of `n` ranks: each sends a few messages (0 bytes to past the eager limit)
// to random peers and posts a receive for every message sent to it; calcs of 0 to 400 ns; each
// operation may depend (requires or irequires) on an earlier one of its rank. Rank 0 takes most
// of the traffic, so that its operations pile up waiting for its CPU and NIC.
Schedule random_schedule(std::mt19937_64& rng, std::uint32_t n) {
  std::uniform_int_distribution<std::uint32_t> peer(0, n - 1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const std::vector<std::uint64_t> sizes = {0, 8, 1000, 5000};
  struct Message {
    std::uint32_t from, to, tag;
    std::uint64_t bytes;
  };
  std::vector<Message> messages;
  for (std::uint32_t r = 0; r < n; ++r)
    for (int k = 0; k < 6; ++k) {
      std::uint32_t to = unit(rng) < 0.5 ? 0 : peer(rng);
      if (to == r) to = (r + 1) % n;
      if (r == 0 && unit(rng) < 0.6) to = 1 + peer(rng) % (n - 1);
      messages.push_back({r, to, static_cast<std::uint32_t>(messages.size()),
                          sizes[static_cast<std::size_t>(unit(rng) * 4.0)]});
    }
  ScheduleBuilder b;
  for (std::uint32_t r = 0; r < n; ++r) {
    std::vector<Operation> ops;
    for (const Message& m : messages) {
      if (m.from == r) ops.push_back(Operation{OpKind::kSend, m.bytes, m.to, m.tag, 0, 0});
      if (m.to == r) ops.push_back(Operation{OpKind::kRecv, m.bytes, m.from, m.tag, 0, 0});
    }
    for (int k = 0; k < 3; ++k)
      ops.push_back(
          Operation{OpKind::kCalc, static_cast<std::uint64_t>(unit(rng) * 400.0), 0, 0, 0, 0});
    std::shuffle(ops.begin(), ops.end(), rng);
    for (const Operation& op : ops) b.add(op);
    for (std::uint32_t k = 1; k < ops.size(); ++k)
      if (unit(rng) < 0.35) b.depend(k, static_cast<std::uint32_t>(unit(rng) * k), unit(rng) < 0.5);
    b.end_rank("random");
  }
  return b.finish();
}

}  // namespace

TEST_CASE("waiting rooms give LogGOPSim's times on random schedules, every rank to the bit") {
  std::mt19937_64 rng(2026);
  const DetourPattern periodic({{0.0, 700.0}}, 3000.0, "periodic");
  const std::vector<ScheduleNet> nets = {net_of(1000, 100, 50, 1, 0, 65535),
                                         net_of(300, 0, 200, 2, 0, 4096), net_of(50, 0, 0, 0, 0, 8),
                                         net_of(2500, 1500, 1000, 6, 3, 4096)};
  int complete = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const auto n = static_cast<std::uint32_t>(2 + trial % 9);
    const Schedule s = random_schedule(rng, n);
    for (std::size_t k = 0; k < nets.size(); ++k) {
      INFO("trial " << trial << ", " << n << " ranks, parameters " << k);
      expect_same_with_and_without_rooms<QuietSchedule>(s, nets[k], [] { return QuietSchedule{}; });
      expect_same_with_and_without_rooms<PatternScheduleNoise>(s, nets[k], [&] {
        return PatternScheduleNoise(periodic, TimeSemantics::kPreempt, 9, n, 1);
      });
      QuietSchedule quiet;
      complete += simulate_schedule(s, nets[k], quiet).complete;
    }
  }
  CHECK(complete > 300);  // most of them run to the end (the rest wait on each other)
}
