// The binomial reduce (docs/models/schedules.md, "Built-in algorithms"): its generator, operation
// count, cycle joins, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp).
#include "engine/schedules/algorithms/algorithms.hpp"

#include <bit>
#include <vector>

#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

Schedule binomial_reduce(const AlgorithmParams& p) {
  const std::uint32_t n = p.ranks;
  return build(n, [&](std::uint32_t r, RankOps& ops) {
    MaybeOp last;
    std::vector<Local> received;
    for (std::uint64_t mask = 1; mask < n; mask <<= 1) {
      if ((r & mask) == 0) {
        const std::uint64_t src = r | mask;
        if (src < n) {
          const Local got = ops.recv(static_cast<std::uint32_t>(src), p.message_bytes, 0);
          if (p.receives == ReceiveOrder::kInOrder) ops.after(got, last);
          received.push_back(got);
          last = got;
        }
      } else {
        const Local s = ops.send(static_cast<std::uint32_t>(r & ~mask), p.message_bytes, 0);
        for (const Local got : received) ops.after(s, got);
        break;
      }
    }
  });
}

// Binomial reduce: the message over distance 2^i is round i (masks from low to high).
AlgorithmRounds binomial_reduce_rounds(const AlgorithmParams& p) {
  return rounds(ceil_log2(p.ranks), [](std::uint32_t rank, const Operation& op) {
    return static_cast<std::uint32_t>(std::bit_width(distance(rank, op))) - 1;
  });
}

}  // namespace

AlgorithmKind binomial_reduce_kind() {
  return {.name = "binomial_reduce",
          .meaning = "binomial tree to rank 0 (MPICH reduce, short messages)",
          .uses_receive_order = true,
          .generate = binomial_reduce,
          .operations = messages_of_tree,
          .cycle_joins = tree_joins,
          .rounds = binomial_reduce_rounds};
}

}  // namespace collnoise::algorithms
