// Speed of the schedule engine (bench/HISTORY.md, "Schedules"):
//   goal_parse      GOAL text read into a stored schedule, bytes per second (a 2^16-rank
//                   dissemination barrier with every receive posted at the start, as Schedgen
//                   writes it, from a file in the page cache);
//   goal_engine/k   such a schedule of 2^k ranks simulated without noise, operations per second,
//                   as a run holds it (rank classes), and kept stored (goal_engine_stored/k);
//   generated/...   algorithms generated on the fly (nothing stored), without noise and under
//                   periodic detours, operations per second.
// items_per_second counts operations (sends, receives, calcs), the unit LogGOPSim's figures use.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/engine/schedule_engine.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/goal/goal_writer.hpp"
#include "engine/schedules/schedule/rank_classes.hpp"

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

// The GOAL file of a preposted dissemination barrier of 2^log2_n ranks, written once.
std::string goal_path(int log2_n) {
  const std::string p = (std::filesystem::temp_directory_path() /
                         fmt::format("collnoise-bench-dissemination-{}.goal", log2_n))
                            .string();
  if (!std::filesystem::exists(p)) {
    std::ofstream out(p);
    write_goal(
        find_algorithm("dissemination_barrier")->generate(params(log2_n, ReceiveOrder::kPreposted)),
        out);
  }
  return p;
}

void goal_parse(benchmark::State& state) {
  const std::string path = goal_path(16);
  const auto bytes = static_cast<std::int64_t>(std::filesystem::file_size(path));
  for (auto _ : state) benchmark::DoNotOptimize(read_goal_file(path).operations());
  state.SetBytesProcessed(state.iterations() * bytes);
}
BENCHMARK(goal_parse)->Unit(benchmark::kMillisecond);

// One thread's samples, its engine memory reused from one to the next as a run reuses it.
template <class Sched>
void simulate_quietly(benchmark::State& state, const Sched& s) {
  ScheduleEngineMemory memory;
  QuietSchedule quiet;
  for (auto _ : state)
    benchmark::DoNotOptimize(simulate_schedule(s, chen_suda_net(), quiet, memory).events);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(s.operations()));
  state.counters["schedule_MB"] = static_cast<double>(s.memory_bytes()) / 1e6;
}

// The GOAL file as a run reads it: recompiled as rank classes (one, for this barrier).
void goal_engine(benchmark::State& state) {
  const Schedule stored = read_goal_file(goal_path(static_cast<int>(state.range(0))));
  simulate_quietly(state, *rank_classes(stored));
}
BENCHMARK(goal_engine)->Arg(15)->Arg(16)->Unit(benchmark::kMillisecond);

// The same schedule kept stored, as an irregular one (recorded from an application) is: at
// 2^15 ranks it (32 MB) and the engine's state fit a 32 MB L3; at 2^16 they do not
// (bench/RESULTS.md).
void goal_engine_stored(benchmark::State& state) {
  simulate_quietly(state, read_goal_file(goal_path(static_cast<int>(state.range(0)))));
}
BENCHMARK(goal_engine_stored)->Arg(15)->Arg(16)->Unit(benchmark::kMillisecond);

void generated(benchmark::State& state, const char* algorithm, ReceiveOrder order, bool noisy) {
  const GeneratedSchedule s = *find_algorithm(algorithm)->generate_on_the_fly(
      params(static_cast<int>(state.range(0)), order));
  // 100 us detours every 1 ms, each rank at its own offset, exact preemption.
  const DetourPattern pattern({{0.0, 1e5}}, 1e6, "bench");
  std::uint64_t key = 1;
  ScheduleEngineMemory memory;
  QuietSchedule quiet;
  for (auto _ : state) {
    if (noisy) {
      PatternScheduleNoise noise(pattern, TimeSemantics::kPreempt, key++, s.ranks(), 1);
      benchmark::DoNotOptimize(simulate_schedule(s, chen_suda_net(), noise, memory).events);
    } else {
      benchmark::DoNotOptimize(simulate_schedule(s, chen_suda_net(), quiet, memory).events);
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
