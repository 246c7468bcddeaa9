// Throughput of the tree-barrier samplers (bench/HISTORY.md, "Tree barrier"). Rank-samples per
// second are reported as items_per_second; see bench/RESULTS.md for the figures and the command.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

#include "core/rng.hpp"
#include "distributions/law_spec.hpp"
#include "engine/tree_barrier/sampler.hpp"

namespace {

using namespace collnoise;

constexpr std::uint64_t kRanks = 1ULL << 20;

LawSpec spec_of(const std::string& law) {
  LawSpec spec;
  spec.law = law;
  spec.numbers["f"] = 0.01;
  if (law == "pareto") spec.numbers["a"] = 3.0;
  if (law == "mixture") {
    LawSpec exp_part;
    exp_part.law = "exponential";
    exp_part.numbers["weight"] = 0.9;
    LawSpec pareto_part;
    pareto_part.law = "pareto";
    pareto_part.numbers["a"] = 2.5;
    pareto_part.numbers["weight"] = 0.1;
    spec.components = {exp_part, pareto_part};
  }
  if (law == "empirical") {
    // 10,000 measured-looking delays: a deterministic spread of values.
    const auto path = std::filesystem::temp_directory_path() / "collnoise_bench_trace.txt";
    std::ofstream file(path);
    Pcg32 stream = make_stream(7);
    for (int i = 0; i < 10000; ++i) file << 1e-6 * -std::log(stream.next_uniform()) << '\n';
    spec.file = path.string();
  }
  return spec;
}

TreeBarrierModel model_of(const std::string& law, RankCount n) {
  TreeBarrierModel m;
  m.shape = TreeShape(n);
  m.w = 1e-3;
  m.tau = 2e-6;
  m.noise = make_stage_noise(spec_of(law), m.w);
  return m;
}

// The sampler's per-rank path: one phase per iteration, all threads on the phase's blocks.
void per_rank(benchmark::State& state, const std::string& law) {
  const int threads = static_cast<int>(state.range(0));
  const TreeBarrierSampler sampler(model_of(law, kRanks), TreeSampling::kPerRank, 42);
  std::uint64_t phase = 0;
  std::array<double, 1> out{};
  for (auto _ : state) {
    sampler.sample(phase++, out, threads);
    benchmark::DoNotOptimize(out[0]);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kRanks));
}

// Many phases per call, threads over phases: the path a run with many samples takes.
void per_rank_batch(benchmark::State& state, const std::string& law) {
  const int threads = static_cast<int>(state.range(0));
  const TreeBarrierSampler sampler(model_of(law, kRanks), TreeSampling::kPerRank, 42);
  std::vector<double> out(16);
  std::uint64_t phase = 0;
  for (auto _ : state) {
    sampler.sample(phase, out, threads);
    phase += out.size();
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kRanks * out.size()));
}

// The floor: the engine's own 16-lane generator (core/rng.hpp, Pcg32Lanes::min_of_next) drawing
// every rank's word of a phase and keeping each block's minimum: no level bookkeeping, no
// transform, nothing stored. The per-rank kernel's distance to it is the cost of everything else.
void bare_loop(benchmark::State& state) {
  std::uint64_t phase = 0;
  for (auto _ : state) {
    std::uint64_t total = 0;
    for (std::uint64_t block = 0; block < kRanks / TreeBarrierSampler::kBlockRanks; ++block) {
      Pcg32Lanes lanes(hash_combine(phase, block));
      total ^= lanes.min_of_next(TreeBarrierSampler::kBlockRanks / Pcg32Lanes::kLanes);
    }
    ++phase;
    benchmark::DoNotOptimize(total);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kRanks));
}

// Per-level path at N = 2^40: O(log N) per phase, threads over phases.
void per_level(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  const TreeBarrierSampler sampler(model_of("exponential", RankCount{1} << 40),
                                   TreeSampling::kPerLevel, 42);
  std::vector<double> out(4096);
  std::uint64_t phase = 0;
  for (auto _ : state) {
    sampler.sample(phase, out, threads);
    phase += out.size();
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(out.size()));
}

BENCHMARK(bare_loop)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(per_rank, exponential, "exponential")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(per_rank, pareto, "pareto")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(per_rank, mixture, "mixture")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(per_rank, empirical, "empirical")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(per_rank_batch, exponential, "exponential")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(per_level)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
