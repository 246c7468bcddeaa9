// The ring allreduce (docs/models/schedules.md, "Built-in algorithms"): its generator, operation
// count, cycle joins, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp).
#include "engine/schedules/algorithms/algorithms.hpp"

#include <fmt/format.h>

#include <vector>

#include "core/errors.hpp"
#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

void check_segments(const AlgorithmParams& p) {
  if (p.segments < 1)
    throw InputError(fmt::format("collective.segments = {} is invalid: at least 1", p.segments));
}

// Reduce-scatter then allgather around the ring, each of the N chunks in `segments` pieces;
// piece j of step k + 1 waits for piece j of step k.
Schedule ring_allreduce(const AlgorithmParams& p) {
  check_segments(p);
  const std::uint32_t n = p.ranks;
  const Blocks chunks{p.message_bytes, n};
  return build(n, [&](std::uint32_t r, RankOps& ops) {
    if (n == 1) return;
    const std::uint32_t next = (r + 1) % n;
    const std::uint32_t prev = (r + n - 1) % n;
    std::vector<MaybeOp> previous(p.segments);
    for (std::uint32_t step = 0; step < 2 * (n - 1); ++step) {
      // Step s sends chunk (r - s) mod n and receives chunk (r - s - 1) mod n.
      const std::uint32_t out = (r + 2 * n - step % n) % n;
      const std::uint32_t in = (r + 2 * n - step % n - 1) % n;
      const Blocks out_pieces{chunks.size_of(out, out + 1), p.segments};
      const Blocks in_pieces{chunks.size_of(in, in + 1), p.segments};
      for (std::uint32_t j = 0; j < p.segments; ++j)
        previous[j] =
            exchange(ops, next, prev, out_pieces.size_of(j, j + 1), in_pieces.size_of(j, j + 1),
                     step * p.segments + j, previous[j], p.receives);
    }
  });
}

double ring_operations(const AlgorithmParams& p) {
  return p.ranks < 2 ? 0.0 : 4.0 * n_of(p) * (n_of(p) - 1.0) * p.segments;
}

// In order, each segment's chain starts with a send and ends with a receive; preposted, every
// receive starts one and every send ends one.
double ring_joins(const AlgorithmParams& p, bool with_compute) {
  const double per_rank = p.receives == ReceiveOrder::kPreposted
                              ? (2.0 * n_of(p) - 1.0) * p.segments
                              : static_cast<double>(p.segments);
  return n_of(p) * joins(per_rank, per_rank, with_compute);
}

// Ring allreduce: step s (2 (N - 1) of them) sends its segments with tags s * segments + j.
AlgorithmRounds ring_rounds(const AlgorithmParams& p) {
  check_segments(p);
  const std::uint32_t steps = p.ranks < 2 ? 0 : 2 * (p.ranks - 1);
  return rounds(steps, [segments = p.segments](std::uint32_t, const Operation& op) {
    return op.tag / segments;
  });
}

}  // namespace

AlgorithmKind ring_allreduce_kind() {
  return {.name = "ring_allreduce",
          .meaning = "reduce-scatter and allgather around a ring, segmented (Open MPI, NCCL)",
          .uses_segments = true,
          .uses_receive_order = true,
          .generate = ring_allreduce,
          .operations = ring_operations,
          .cycle_joins = ring_joins,
          .rounds = ring_rounds};
}

}  // namespace collnoise::algorithms
