// The table of generated algorithms: each defined in its own file
// engine/schedules/algorithms/<name>.cpp, declared here and listed in algorithm_kinds(), one line
// each, in the order of the documentation and of `collnoise schedule --list` (docs/extending.md,
// "A new generated algorithm"). The declarations stand here rather than behind includes, as the
// laws' do (distributions/laws.cpp): an algorithm's file and these two lines are all it takes.
#include "engine/schedules/algorithms/algorithms.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <unordered_map>

#include "core/stop_poll.hpp"
#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise {

namespace algorithms {
// Each algorithm's kind, defined in its file engine/schedules/algorithms/<name>.cpp.
AlgorithmKind binomial_broadcast_kind();
AlgorithmKind binomial_reduce_kind();
AlgorithmKind knomial_broadcast_kind();
AlgorithmKind binary_tree_broadcast_kind();
AlgorithmKind recursive_doubling_allreduce_kind();
AlgorithmKind rabenseifner_allreduce_kind();
AlgorithmKind reduce_broadcast_allreduce_kind();
AlgorithmKind ring_allreduce_kind();
AlgorithmKind pipelined_ring_kind();
AlgorithmKind dissemination_barrier_kind();
AlgorithmKind nway_dissemination_kind();
AlgorithmKind tree_barrier_kind();
AlgorithmKind bruck_allgather_kind();
AlgorithmKind pairwise_alltoall_kind();
AlgorithmKind linear_alltoall_kind();
AlgorithmKind linear_gather_kind();
AlgorithmKind linear_scatter_kind();
}  // namespace algorithms

void check_algorithm_kind(const AlgorithmKind& kind) {
  const auto refuse = [&](const char* what) {
    throw std::logic_error(
        fmt::format("algorithm \"{}\" is registered without {} (AlgorithmKind, "
                    "engine/schedules/algorithms/algorithms.hpp): every algorithm gives one",
                    kind.name, what));
  };
  if (kind.name.empty()) refuse("a name");
  if (kind.generate.empty()) refuse("generate");
  if (kind.operations.empty()) refuse("operations");
  if (kind.rounds.empty()) refuse("rounds");
}

const std::vector<AlgorithmKind>& algorithm_kinds() {
  // clang-format off
  static const std::vector<AlgorithmKind> kinds = [] {
    std::vector<AlgorithmKind> all = {
        algorithms::binomial_broadcast_kind(),
        algorithms::binomial_reduce_kind(),
        algorithms::knomial_broadcast_kind(),
        algorithms::binary_tree_broadcast_kind(),
        algorithms::recursive_doubling_allreduce_kind(),
        algorithms::rabenseifner_allreduce_kind(),
        algorithms::reduce_broadcast_allreduce_kind(),
        algorithms::ring_allreduce_kind(),
        algorithms::pipelined_ring_kind(),
        algorithms::dissemination_barrier_kind(),
        algorithms::nway_dissemination_kind(),
        algorithms::tree_barrier_kind(),
        algorithms::bruck_allgather_kind(),
        algorithms::pairwise_alltoall_kind(),
        algorithms::linear_alltoall_kind(),
        algorithms::linear_gather_kind(),
        algorithms::linear_scatter_kind(),
    };
    for (const AlgorithmKind& kind : all) check_algorithm_kind(kind);
    return all;
  }();
  // clang-format on
  return kinds;
}

const AlgorithmKind* find_algorithm(const std::string& name) {
  for (const auto& kind : algorithm_kinds())
    if (kind.name == name) return &kind;
  return nullptr;
}

double cycle_joins_of(const AlgorithmKind& algorithm, const AlgorithmParams& p, bool with_compute) {
  if (algorithm.cycle_joins) return algorithm.cycle_joins(p, with_compute);
  std::optional<GeneratedSchedule> fly;
  if (algorithm.generate_on_the_fly) fly = algorithm.generate_on_the_fly(p);
  if (!fly) return algorithms::n_of(p) * algorithms::joins(1.0, 1.0, with_compute);
  // Exactly, from each rank's class (one program shared by many ranks, counted once).
  StopPoll poll;
  std::unordered_map<const Schedule*, double> of_class;
  double total = 0.0;
  for (std::uint32_t r = 0; r < fly->ranks(); ++r) {
    poll.tick();
    const auto v = fly->view(r);
    const auto [at, fresh] = of_class.try_emplace(&v.program(), 0.0);
    if (fresh) at->second = cycle_join_dependencies(v, with_compute);
    total += at->second;
  }
  return total;
}

}  // namespace collnoise
