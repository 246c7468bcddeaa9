// Throughput of the repeated-cycle engines (bench/HISTORY.md, "Butterfly allreduce and
// dissemination under LogGOPS"). items_per_second is rank-rounds per second (N ranks x K rounds x M
// cycles per iteration); see bench/RESULTS.md for the figures and the command. The 2^23 benchmarks
// take a minute or two per iteration.
#include <benchmark/benchmark.h>

#include "engine/cycles/cycle_engine.hpp"
#include "engine/cycles/cycle_reference.hpp"

namespace {

using namespace collnoise;

// Chen & Suda's heaviest setting: P = 10 ms, D = 100 us, W = 6.67 ms, 10 cycles.
CycleSetup setup_of(CycleAlgorithm algorithm, int log2_n) {
  CycleSetup s;
  s.algorithm = algorithm;
  s.ranks = std::uint64_t{1} << log2_n;
  s.cycles = 10;
  s.work = 6.66667e-3;
  return s;
}

const PatternNoise& noise() {
  static const PatternNoise periodic = periodic_noise(0.01, 1e-4);
  return periodic;
}

template <bool kReference>
void run(benchmark::State& state, CycleAlgorithm algorithm, bool quiet) {
  const int log2_n = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  const CycleSetup setup = setup_of(algorithm, log2_n);
  std::uint64_t key = 1;
  for (auto _ : state) {
    PatternCpu cpu(*noise().pattern, key++, setup.ranks);
    const CycleRecording recording{false, nullptr};
    CycleResult r;
    if (quiet) {
      QuietOps<PatternCpu> q(cpu);
      r = kReference ? simulate_cycles_reference(setup, q, recording)
                     : simulate_cycles(setup, q, threads, recording);
    } else {
      r = kReference ? simulate_cycles_reference(setup, cpu, recording)
                     : simulate_cycles(setup, cpu, threads, recording);
    }
    benchmark::DoNotOptimize(r.cycle_end.back());
  }
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(setup.ranks * setup.cycles * log2_n));
}

void fast_conventional(benchmark::State& s) {
  run<false>(s, CycleAlgorithm::kButterfly, false);
}
void fast_redundant(benchmark::State& s) {
  run<false>(s, CycleAlgorithm::kRedundantButterfly, false);
}
void fast_quiet(benchmark::State& s) {
  run<false>(s, CycleAlgorithm::kButterfly, true);
}
void fast_dissemination(benchmark::State& s) {
  run<false>(s, CycleAlgorithm::kDissemination, false);
}
void reference_conventional(benchmark::State& s) {
  run<true>(s, CycleAlgorithm::kButterfly, false);
}
void reference_redundant(benchmark::State& s) {
  run<true>(s, CycleAlgorithm::kRedundantButterfly, false);
}

// Same model at 2^12, one thread: the engines' speed per rank-round.
BENCHMARK(reference_conventional)->Args({12, 1})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(reference_redundant)->Args({12, 1})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(fast_conventional)->Args({12, 1})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(fast_redundant)->Args({12, 1})->Unit(benchmark::kMillisecond)->UseRealTime();
// Mid sizes, one and two threads: run beside a busy process too (`sh -c 'while :; do :; done'
// &`), where two threads must not be slower than one (bench/HISTORY.md, "Chen & Suda figures").
BENCHMARK(fast_quiet)
    ->Args({17, 1})
    ->Args({17, 2})
    ->Args({19, 1})
    ->Args({19, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(fast_conventional)
    ->Args({17, 1})
    ->Args({17, 2})
    ->Args({19, 1})
    ->Args({19, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(fast_redundant)
    ->Args({17, 1})
    ->Args({17, 2})
    ->Args({19, 1})
    ->Args({19, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
// 2^23 ranks, one and two threads.
BENCHMARK(fast_quiet)
    ->Args({23, 1})
    ->Args({23, 2})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK(fast_conventional)
    ->Args({23, 1})
    ->Args({23, 2})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK(fast_redundant)
    ->Args({23, 1})
    ->Args({23, 2})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK(fast_dissemination)
    ->Args({23, 1})
    ->Args({23, 2})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
