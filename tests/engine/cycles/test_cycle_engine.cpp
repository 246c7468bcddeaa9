// Repeated cycles under LogGOPS (docs/models/loggops-cycles.md): closed forms, hand-worked
// examples, and the fast engine against the reference discrete-event simulator, to the last bit.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>

#include "distributions/detour_trace.hpp"
#include "distributions/exponential.hpp"
#include "distributions/law_spec.hpp"
#include "engine/cycles/cycle_engine.hpp"
#include "engine/cycles/cycle_reference.hpp"

using namespace collnoise;

namespace {

CycleSetup setup_of(CycleAlgorithm algorithm, std::uint64_t n, std::uint64_t cycles, double work) {
  CycleSetup s;
  s.algorithm = algorithm;
  s.ranks = n;
  s.cycles = cycles;
  s.work = work;
  return s;  // the paper's LogGOPS: L = 1 us, o = 1 ns, g = 0, G = 1 ns/byte, O = 0, 8 bytes
}

const CycleAlgorithm kAll[] = {CycleAlgorithm::kButterfly, CycleAlgorithm::kRedundantButterfly,
                               CycleAlgorithm::kDissemination};

std::uint64_t adoptions_seen = 0;

// Both engines on fresh CPUs of the same replication key; every time must agree exactly.
void expect_engines_agree(const CycleSetup& setup, const CpuNoiseSpec& noise, std::uint64_t key,
                          bool quiet_overheads, const CycleTuning& tuning = {}) {
  auto reference_cpu = make_replication_cpu(noise, key, setup.ranks);
  const CycleResult reference = with_cpu(reference_cpu, quiet_overheads, [&](auto& cpu) {
    return simulate_cycles_reference(setup, cpu);
  });
  for (int threads : {1, 3}) {
    auto fast_cpu = make_replication_cpu(noise, key, setup.ranks);
    const CycleResult fast = with_cpu(fast_cpu, quiet_overheads, [&](auto& cpu) {
      return simulate_cycles(setup, cpu, threads, CycleRecording{}, tuning);
    });
    INFO("algorithm " << static_cast<int>(setup.algorithm) << ", N = " << setup.ranks << ", key "
                      << key << ", threads " << threads << ", block bits " << tuning.block_bits
                      << ", pass bits " << tuning.pass_bits << ", lanes " << tuning.lane_ranks);
    REQUIRE(fast.cycle_end == reference.cycle_end);
    REQUIRE(fast.last_finish == reference.last_finish);
    REQUIRE(fast.adoptions == reference.adoptions);
  }
  adoptions_seen += reference.adoptions;
}

}  // namespace

TEST_CASE("noiseless cycles match the closed form, in both engines") {
  for (const auto algorithm : kAll) {
    for (std::uint64_t n : {1, 2, 4, 8, 64, 1024}) {
      for (double work : {0.0, 1e-6, 6.66667e-3}) {
        auto setup = setup_of(algorithm, n, 4, work);
        const auto closed = noiseless_closed_form(setup);
        REQUIRE(closed);
        QuietCpu quiet;
        const auto fast = simulate_cycles(setup, quiet, 2);
        const auto reference = simulate_cycles_reference(setup, quiet);
        INFO("algorithm " << static_cast<int>(algorithm) << " N " << n << " W " << work);
        CHECK(fast.cycle_end.back() == Approx(*closed).epsilon(1e-13));
        CHECK(reference.cycle_end == fast.cycle_end);
      }
    }
  }
  // The paper's figures: one round is 2o + L + (s-1)G = 1.009 us; the redundant butterfly owes
  // one trailing send per cycle, and with W = 0 the next cycle's first send waits for the NIC
  // (g + (s-1)G = 7 ns after the trailing send started).
  const auto conv = setup_of(CycleAlgorithm::kButterfly, 1 << 10, 10, 0.0);
  CHECK(*noiseless_closed_form(conv) == Approx(10 * 10 * 1.009e-6).epsilon(1e-12));
  const auto red = setup_of(CycleAlgorithm::kRedundantButterfly, 1 << 10, 10, 0.0);
  CHECK(*noiseless_closed_form(red) == Approx(10 * 10 * 1.009e-6 + 9 * 7e-9).epsilon(1e-12));
  const auto red_w = setup_of(CycleAlgorithm::kRedundantButterfly, 1 << 10, 10, 1e-3);
  CHECK(*noiseless_closed_form(red_w) ==
        Approx(10 * (1e-3 + 10 * 1.009e-6) + 9 * 1e-9).epsilon(1e-12));
}

TEST_CASE("noiseless closed form under other LogGOPS parameters") {
  // A NIC gap no longer than the overhead: the mate's last redundant copy arrives exactly as a
  // rank finishes, and is paid for before the next compute (trail = 2c).
  for (const auto algorithm : kAll) {
    for (std::uint64_t n : {2, 4, 8, 32}) {
      auto setup = setup_of(algorithm, n, 3, 2e-6);
      setup.net = LogGops{2e-6, 5e-8, 1e-8, 1e-9, 2e-10, 16};
      const auto closed = noiseless_closed_form(setup);
      REQUIRE(closed);
      QuietCpu quiet;
      const auto reference = simulate_cycles_reference(setup, quiet);
      INFO("algorithm " << static_cast<int>(algorithm) << " N " << n);
      CHECK(reference.cycle_end.back() == Approx(*closed).epsilon(1e-13));
      CHECK(simulate_cycles(setup, quiet, 2).cycle_end == reference.cycle_end);
    }
  }
}

TEST_CASE("fast engine equals the reference simulator: periodic noise") {
  CpuNoiseSpec noise;
  noise.time = periodic_noise(2e-5, 3e-6);  // dense noise: detours hit most operations
  for (const auto algorithm : kAll) {
    for (std::uint64_t n : {2, 4, 8, 16, 128, 1024}) {
      if (algorithm == CycleAlgorithm::kDissemination) n -= (n > 4);  // any N
      for (std::uint64_t key = 1; key <= 6; ++key) {
        const auto setup = setup_of(algorithm, n, 5, 3e-6);
        expect_engines_agree(setup, noise, key, false);
        expect_engines_agree(setup, noise, key, true);
      }
    }
  }
  CHECK(adoptions_seen > 1000);  // the redundant paths were exercised, not only the plain ones
}

TEST_CASE("fast engine equals the reference simulator: Poisson, trace and per-stage noise") {
  std::vector<CpuNoiseSpec> laws(3);
  laws[0].time =
      std::make_shared<const PoissonDetours>(1.5e5, 2e-6, std::make_shared<ExponentialLaw>());
  {
    std::ofstream trace("cycles_trace.txt");
    trace << "# start\tduration (ns)\n0\t500\n1200\t3000\n2500\t800\n9000\t150\n";
  }
  laws[1].time = PatternNoise{std::make_shared<const DetourPattern>(
                                  read_detour_trace("cycles_trace.txt", trace_unit("ns"))),
                              "t"};
  LawSpec pareto{"pareto", {{"f", 0.2}, {"a", 1.5}}, "", {}, "noise"};
  laws[2].stage = make_stage_noise(pareto, 4e-6);
  for (const auto& noise : laws) {
    for (const auto algorithm : kAll) {
      for (std::uint64_t n : {2, 8, 64, 512}) {
        for (std::uint64_t key = 11; key <= 14; ++key) {
          const auto setup = setup_of(algorithm, n, 4, 4e-6);
          expect_engines_agree(setup, noise, key, false);
          expect_engines_agree(setup, noise, key, true);
        }
      }
    }
  }
}

TEST_CASE("worked example: butterfly on 2 ranks, one detour") {
  // W = 10 us; rank 1 is unavailable on [10, 30) us. Times in ns: overhead 1, wire 1007.
  // Rank 0 computes to 10000, sends [10000, 10001], its message reaches rank 1 at 11008.
  // Rank 1 computes to 10000 exactly as its detour starts (work that ends at a detour's start is
  // done), then sends: suspended until 30000, [30000, 30001], reaching rank 0 at 31008.
  // Rank 1 receives at max(30001, 11008): done at 30002. Rank 0 receives at 31008: done 31009.
  auto setup = setup_of(CycleAlgorithm::kButterfly, 2, 1, 10e-6);
  for (int engine = 0; engine < 2; ++engine) {
    ListedCpu cpu({{}, {{10e-6, 30e-6}}});
    const auto r = engine ? simulate_cycles(setup, cpu, 1) : simulate_cycles_reference(setup, cpu);
    CHECK(r.last_finish[0] == Approx(31009e-9).epsilon(1e-12));
    CHECK(r.last_finish[1] == Approx(30002e-9).epsilon(1e-12));
    CHECK(r.cycle_end[0] == Approx(31009e-9).epsilon(1e-12));
  }
}

TEST_CASE("worked example: redundant butterfly on 4 ranks, one rank stuck") {
  // W = 0; rank 2 is unavailable on [500, 100000) ns. Round 0: everyone sends [0, 1]; messages
  // arrive at 1008. Ranks 0, 1, 3 receive [1008, 1009]; rank 2's receive waits to 100000 and
  // ends at 100001. Round 1 (0<->2, 1<->3): ranks 0, 1, 3 send at 1009 (arrivals 2017); rank 2
  // sends [100001, 100002] (arrival at rank 0: 101009).
  // Ranks 1 and 3 receive [2017, 2018] and finish at 2018 by exchange; each owes a redundant copy
  // to its mate, sent [2018, 2019], arriving at 3026.
  // Rank 0 adopts rank 1's copy: [3026, 3027], finished at 3027; rank 2's late message arrives
  // after that and is discarded at no cost.
  // Rank 2 receives rank 0's message (arrived 2017, earlier than rank 3's copy): [100002,
  // 100003], finished at 100003 by exchange. T_red = 100003 ns.
  // Conventionally rank 0 waits for rank 2: [101009, 101010], T_conv = 101010 ns.
  const std::vector<std::vector<Detour>> stuck = {{}, {}, {{500e-9, 100000e-9}}, {}};
  for (int engine = 0; engine < 2; ++engine) {
    auto red = setup_of(CycleAlgorithm::kRedundantButterfly, 4, 1, 0.0);
    ListedCpu cpu_red(stuck);
    const auto r =
        engine ? simulate_cycles(red, cpu_red, 1) : simulate_cycles_reference(red, cpu_red);
    CHECK(r.last_finish[0] == Approx(3027e-9).epsilon(1e-12));
    CHECK(r.last_finish[1] == Approx(2018e-9).epsilon(1e-12));
    CHECK(r.last_finish[2] == Approx(100003e-9).epsilon(1e-12));
    CHECK(r.last_finish[3] == Approx(2018e-9).epsilon(1e-12));
    CHECK(r.adoptions == 1);
    auto conv = setup_of(CycleAlgorithm::kButterfly, 4, 1, 0.0);
    ListedCpu cpu_conv(stuck);
    const auto c =
        engine ? simulate_cycles(conv, cpu_conv, 1) : simulate_cycles_reference(conv, cpu_conv);
    CHECK(c.cycle_end[0] == Approx(101010e-9).epsilon(1e-12));
  }
}

TEST_CASE("worked example: dissemination on 3 ranks") {
  // W = 0; rank 1 is unavailable on [500, 10000) ns. Round 0 (i -> i+1): all send [0, 1],
  // arrivals 1008; ranks 0 and 2 receive [1008, 1009], rank 1 waits to 10000, done 10001.
  // Round 1 (i -> i+2): ranks 0 and 2 send at 1009 (arrivals 2017); rank 1 sends [10001, 10002]
  // to rank 0 (arrival 11009). Rank 2 receives [2017, 2018]; rank 1 [10002, 10003]; rank 0
  // [11009, 11010].
  auto setup = setup_of(CycleAlgorithm::kDissemination, 3, 1, 0.0);
  for (int engine = 0; engine < 2; ++engine) {
    ListedCpu cpu({{}, {{500e-9, 10000e-9}}, {}});
    const auto r = engine ? simulate_cycles(setup, cpu, 1) : simulate_cycles_reference(setup, cpu);
    CHECK(r.last_finish[0] == Approx(11010e-9).epsilon(1e-12));
    CHECK(r.last_finish[1] == Approx(10003e-9).epsilon(1e-12));
    CHECK(r.last_finish[2] == Approx(2018e-9).epsilon(1e-12));
  }
}

TEST_CASE("fast engine: blocked and streamed rounds, any thread count, equal the reference") {
  // 2^13 ranks: rounds 0-11 run block by block, round 12 streams over all ranks.
  CpuNoiseSpec noise;
  noise.time = periodic_noise(3e-5, 2e-6);
  for (const auto algorithm : kAll) {
    const auto setup = setup_of(algorithm, 1 << 13, 3, 5e-6);
    expect_engines_agree(setup, noise, 77, false);
  }
}

TEST_CASE("fast engine: any blocking, pass and lane sizes give the reference's times") {
  // Shrunk so that 2^10 ranks see every path: blocked low rounds, several passes of high rounds
  // (the last one short), lanes narrower and wider than a pass's stride.
  CpuNoiseSpec noise;
  noise.time = periodic_noise(3e-5, 2e-6);
  for (const CycleTuning tuning :
       {CycleTuning{3, 2, 2}, CycleTuning{1, 3, 4}, CycleTuning{4, 4, 1}, CycleTuning{2, 1, 8}})
    for (const auto algorithm : kAll)
      for (bool quiet : {false, true})
        expect_engines_agree(setup_of(algorithm, 1 << 10, 3, 5e-6), noise, 91, quiet, tuning);
}
