// The linear alltoall (docs/models/schedules.md, "Built-in algorithms"): its generator, operation
// count, generation on the fly, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp). It is the pattern the authors' Schedgen fork
// writes as `-p linear_alltoall` (the "linear_alltoall" benchmark of DanieleDeSensi/cloud_noise).
#include "engine/schedules/algorithms/algorithms.hpp"

#include <algorithm>
#include <optional>

#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

// For j = 0 .. N - 2: send to r + 1 + j, then receive from r - 1 - j (mod N), all tagged 0 and
// with no dependency at all: every send and every receive starts at once. Unlike
// pairwise_alltoall, no send waits for the previous receive.
auto linear_alltoall_emitter(const AlgorithmParams& p) {
  return [p](std::uint32_t r, RankOps& ops) {
    const std::uint32_t n = p.ranks;
    for (std::uint32_t d = 1; d < n; ++d) {
      ops.send(static_cast<std::uint32_t>((std::uint64_t{r} + d) % n), p.message_bytes, 0);
      ops.recv(static_cast<std::uint32_t>((std::uint64_t{r} + n - d) % n), p.message_bytes, 0);
    }
  };
}

Schedule linear_alltoall(const AlgorithmParams& p) {
  return build(p.ranks, linear_alltoall_emitter(p));
}

std::optional<GeneratedSchedule> linear_alltoall_on_the_fly(const AlgorithmParams& p) {
  return generate_uniform(p.ranks, linear_alltoall_emitter(p));
}

double linear_alltoall_operations(const AlgorithmParams& p) {
  return 2.0 * n_of(p) * (n_of(p) - 1.0);
}

// Linear alltoall: step j (the message to r + 1 + j) is round j, N - 1 of them, found from the
// distance to the peer (sends forwards, receives backwards).
AlgorithmRounds linear_alltoall_rounds(const AlgorithmParams& p) {
  const std::uint32_t n = p.ranks;
  return rounds(n - std::min(n, 1U), [n](std::uint32_t rank, const Operation& op) {
    const std::uint64_t ahead = op.kind == OpKind::kSend ? std::uint64_t{op.peer} + n - rank
                                                         : std::uint64_t{rank} + n - op.peer;
    return static_cast<std::uint32_t>(ahead % n) - 1;
  });
}

}  // namespace

AlgorithmKind linear_alltoall_kind() {
  return {.name = "linear_alltoall",
          .meaning =
              "N - 1 sends to r + 1 + j and receives from r - 1 - j, all at once (the Schedgen "
              "fork's linear_alltoall benchmark)",
          .generate = linear_alltoall,
          .generate_on_the_fly = linear_alltoall_on_the_fly,
          .operations = linear_alltoall_operations,
          .rounds = linear_alltoall_rounds};
}

}  // namespace collnoise::algorithms
