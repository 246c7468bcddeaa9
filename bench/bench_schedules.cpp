// Speed of the schedule engine (issue 14, item 6; bench/RESULTS.md, "Schedules"):
//   goal_parse      GOAL text read into a stored schedule, bytes per second (a 2^16-rank
//                   dissemination barrier with every receive posted at the start, as Schedgen
//                   writes it, from a file in the page cache);
//   goal_engine     that stored schedule simulated without noise, operations per second;
//   generated/...   algorithms generated on the fly (nothing stored), without noise and under
//                   periodic detours, operations per second.
// items_per_second counts operations (sends, receives, calcs), the unit LogGOPSim's figures use.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "engine/schedules/algorithms.hpp"
#include "engine/schedules/goal_reader.hpp"
#include "engine/schedules/goal_writer.hpp"
#include "engine/schedules/schedule_engine.hpp"
#include "engine/schedules/schedule_engine_impl.hpp"
#include "engine/schedules/schedule_noise.hpp"

namespace {

using namespace collnoise;

// Chen & Suda's network: L = 1 us, o = 1 ns, G = 1 ns per byte.
ScheduleNet chen_suda_net() {
  ScheduleNet net;
  net.L = 1000;
  net.o = 1;
  net.G = 1;
  return net;
}

AlgorithmParams params(int log2_n, ReceiveOrder order) {
  AlgorithmParams p;
  p.ranks = 1U << log2_n;
  p.message_bytes = 8;
  p.receives = order;
  return p;
}

// The GOAL file of a preposted dissemination barrier of 2^16 ranks, written once.
const std::string& goal_path() {
  static const std::string path = [] {
    const std::string p =
        (std::filesystem::temp_directory_path() / "collnoise-bench-dissemination-16.goal").string();
    std::ofstream out(p);
    write_goal(
        find_algorithm("dissemination_barrier")->generate(params(16, ReceiveOrder::kPreposted)),
        out);
    return p;
  }();
  return path;
}

void goal_parse(benchmark::State& state) {
  const auto bytes = static_cast<std::int64_t>(std::filesystem::file_size(goal_path()));
  for (auto _ : state) benchmark::DoNotOptimize(read_goal_file(goal_path()).operations());
  state.SetBytesProcessed(state.iterations() * bytes);
}
BENCHMARK(goal_parse)->Unit(benchmark::kMillisecond);

void goal_engine(benchmark::State& state) {
  const Schedule s = read_goal_file(goal_path());
  for (auto _ : state) benchmark::DoNotOptimize(simulate_schedule(s, chen_suda_net()).events);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(s.operations()));
  state.counters["schedule_MB"] = static_cast<double>(s.memory_bytes()) / 1e6;
}
BENCHMARK(goal_engine)->Unit(benchmark::kMillisecond);

void generated(benchmark::State& state, const char* algorithm, ReceiveOrder order, bool noisy) {
  const GeneratedSchedule s = *find_algorithm(algorithm)->generate_on_the_fly(
      params(static_cast<int>(state.range(0)), order));
  // 100 us detours every 1 ms, each rank at its own offset, exact preemption.
  const DetourPattern pattern({{0.0, 1e5}}, 1e6, "bench");
  std::uint64_t key = 1;
  for (auto _ : state) {
    if (noisy) {
      PatternScheduleNoise noise(pattern, TimeSemantics::kPreempt, key++, s.ranks(), 1);
      benchmark::DoNotOptimize(simulate_schedule(s, chen_suda_net(), noise).events);
    } else {
      benchmark::DoNotOptimize(simulate_schedule(s, chen_suda_net()).events);
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(s.operations()));
}
BENCHMARK_CAPTURE(generated, dissemination, "dissemination_barrier", ReceiveOrder::kInOrder, false)
    ->Arg(16)
    ->Arg(20)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(generated, dissemination_preposted, "dissemination_barrier",
                  ReceiveOrder::kPreposted, false)
    ->Arg(16)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(generated, recursive_doubling, "recursive_doubling_allreduce",
                  ReceiveOrder::kInOrder, false)
    ->Arg(16)
    ->Arg(20)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(generated, recursive_doubling_noisy, "recursive_doubling_allreduce",
                  ReceiveOrder::kInOrder, true)
    ->Arg(16)
    ->Arg(20)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
