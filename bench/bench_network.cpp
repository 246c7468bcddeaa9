// Throughput of the network-noise model (bench/HISTORY.md, "Network noise"): samples (random
// allocations, each evaluated with and without background traffic) per second, rho = 1/2, binomial
// broadcast.
#include <benchmark/benchmark.h>

#include "engine/network/congestion.hpp"
#include "engine/network/torus.hpp"
#include "engine/network/xgft.hpp"

namespace {

using namespace collnoise;

void samples(benchmark::State& state, std::shared_ptr<const Topology> topology) {
  const CongestionModel model(std::move(topology), NetworkPattern::kBinomialBroadcast, 0.5,
                              std::nullopt);
  std::uint64_t key = 0;
  for (auto _ : state) benchmark::DoNotOptimize(model.sample(++key).perturbed);
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK_CAPTURE(samples, xgft_20736,
                  std::make_shared<const Xgft>(std::vector<std::uint32_t>{12, 12, 12, 12},
                                               std::vector<std::uint32_t>{1, 12, 12, 6}, "b"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(samples, torus_100_2, std::make_shared<const Torus>(100, 2, "b"))
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
