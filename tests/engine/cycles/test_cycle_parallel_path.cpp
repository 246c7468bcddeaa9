// The cycle engine's ways of sharing the ranks among threads (engine/cycles/cycle_engine.hpp):
// one thread alone below CycleTuning::parallel_from_ranks, above it parts of the ranks taken by
// the threads in any order and joined by one pass a cycle. Every way must give the reference
// simulator's times to the last bit, for any thread count.
#include <catch2/catch.hpp>

#include "distributions/time_noise.hpp"
#include "engine/cycles/cycle_engine.hpp"
#include "engine/cycles/cycle_reference.hpp"

using namespace collnoise;

namespace {

CycleSetup setup_of(CycleAlgorithm algorithm, std::uint64_t n, std::uint64_t cycles) {
  CycleSetup s;
  s.algorithm = algorithm;
  s.ranks = n;
  s.cycles = cycles;
  s.work = 5e-6;
  return s;  // the paper's LogGOPS: L = 1 us, o = 1 ns, g = 0, G = 1 ns/byte, O = 0, 8 bytes
}

const CycleAlgorithm kAll[] = {CycleAlgorithm::kButterfly, CycleAlgorithm::kRedundantButterfly,
                               CycleAlgorithm::kDissemination};

CycleResult fast(const CycleSetup& setup, const CpuNoiseSpec& noise, std::uint64_t key, bool quiet,
                 int threads, const CycleTuning& tuning) {
  auto cpu = make_replication_cpu(noise, key, setup.ranks);
  return with_cpu(cpu, quiet, [&](auto& c) {
    return simulate_cycles(setup, c, threads, CycleRecording{}, tuning);
  });
}

void require_same(const CycleResult& a, const CycleResult& b) {
  REQUIRE(a.cycle_end == b.cycle_end);
  REQUIRE(a.last_finish == b.last_finish);
  REQUIRE(a.adoptions == b.adoptions);
}

}  // namespace

TEST_CASE("cycle speed: the parallel path equals the reference, any threads, parts and passes") {
  // parallel_from_ranks = 1 sends 2^10 ranks down the parallel path: parts of 2^(10 - s) ranks,
  // s = 1 .. 4 joint rounds (capped by pass_bits), blocks and passes inside the parts.
  CpuNoiseSpec noise;
  noise.time = periodic_noise(3e-5, 2e-6);
  std::uint64_t adoptions = 0;
  for (const CycleTuning base :
       {CycleTuning{12, 6, 64}, CycleTuning{3, 2, 2}, CycleTuning{1, 1, 1}, CycleTuning{2, 3, 8}})
    for (const auto algorithm : kAll)
      for (bool quiet : {false, true}) {
        const CycleSetup setup = setup_of(algorithm, 1 << 10, 3);
        auto cpu = make_replication_cpu(noise, 91, setup.ranks);
        const CycleResult reference =
            with_cpu(cpu, quiet, [&](auto& c) { return simulate_cycles_reference(setup, c); });
        adoptions += reference.adoptions;
        CycleTuning tuning = base;
        tuning.parallel_from_ranks = 1;
        for (int threads : {1, 2, 3, 4}) {
          INFO("algorithm " << static_cast<int>(algorithm) << ", quiet " << quiet << ", threads "
                            << threads << ", block bits " << tuning.block_bits << ", pass bits "
                            << tuning.pass_bits << ", lanes " << tuning.lane_ranks);
          require_same(fast(setup, noise, 91, quiet, threads, tuning), reference);
        }
      }
  CHECK(adoptions > 0);  // the redundant exchange's adoptions and drops were exercised
}

TEST_CASE("cycle speed: one thread below the threshold, shared above it, the same bits") {
  // The default thresholds (2^16 ranks for the redundant exchange, 2^18 for the others): the
  // same run alone, with the threshold above N (one thread whatever --threads says) and with
  // threads sharing the parts.
  CpuNoiseSpec noise;
  noise.time = periodic_noise(1e-4, 2e-6);
  for (const auto algorithm : kAll) {
    const bool redundant = algorithm == CycleAlgorithm::kRedundantButterfly;
    const CycleSetup setup = setup_of(algorithm, redundant ? 1 << 16 : 1 << 18, 2);
    const CycleTuning shared{};
    REQUIRE(setup.ranks == (redundant ? 1 : 4) * shared.parallel_from_ranks);
    CycleTuning alone{};
    alone.parallel_from_ranks = setup.ranks + 1;
    const CycleResult one = fast(setup, noise, 5, false, 1, shared);
    INFO("algorithm " << static_cast<int>(algorithm));
    require_same(fast(setup, noise, 5, false, 2, alone), one);
    require_same(fast(setup, noise, 5, false, 2, shared), one);
    require_same(fast(setup, noise, 5, false, 3, shared), one);
  }
}

TEST_CASE("cycle speed: small N, where parts cannot form, runs on one thread") {
  CpuNoiseSpec noise;
  noise.time = periodic_noise(3e-5, 2e-6);
  CycleTuning tuning{};
  tuning.parallel_from_ranks = 1;
  for (const auto algorithm : kAll)
    for (std::uint64_t n : {1, 2, 3, 4, 8}) {
      if (algorithm != CycleAlgorithm::kDissemination && (n & (n - 1)) != 0) continue;
      const CycleSetup setup = setup_of(algorithm, n, 3);
      auto cpu = make_replication_cpu(noise, 13, setup.ranks);
      const CycleResult reference =
          with_cpu(cpu, false, [&](auto& c) { return simulate_cycles_reference(setup, c); });
      INFO("algorithm " << static_cast<int>(algorithm) << ", N = " << n);
      require_same(fast(setup, noise, 13, false, 2, tuning), reference);
      require_same(fast(setup, noise, 13, false, 4, tuning), reference);
    }
}
