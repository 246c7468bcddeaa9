// The pipelined ring (docs/models/schedules.md, "Built-in algorithms"): its generator, operation
// count, generation on the fly, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp). It is the pattern the authors' Schedgen fork
// writes as `-p pipelinedring --segmentsize B/N` (the "pipelinedring" benchmark of
// DanieleDeSensi/cloud_noise), not upstream Schedgen's chain from the root.
#include "engine/schedules/algorithms/algorithms.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "core/errors.hpp"
#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

// The message in segments of floor(B / N) bytes, the last one what is left (B - s (count - 1)):
// for N = 5 and 16 bytes, 3, 3, 3, 3, 3 and 1.
struct Segments {
  std::uint64_t size;
  std::uint32_t count;
  std::uint64_t bytes_of(std::uint64_t bytes, std::uint32_t k) const {
    return k + 1 < count ? size : bytes - size * (count - 1);
  }
};

// Refuses B < N, where the segment would be 0 bytes (the fork aborts there; the benchmark's
// pipelinedring_32_16 is empty for that reason). count <= 2 N - 1, as s >= 1 and B mod N < N.
Segments segments_of(const AlgorithmParams& p) {
  if (p.message_bytes < p.ranks)
    throw InputError(
        fmt::format("collective.message_bytes = {} is invalid for pipelined_ring on N = {} ranks: "
                    "its segments are floor(bytes / N) bytes, at least N bytes are needed",
                    p.message_bytes, p.ranks));
  const std::uint64_t size = p.message_bytes / std::max(p.ranks, 1U);
  return {size, static_cast<std::uint32_t>((p.message_bytes + size - 1) / size)};
}

// Every rank streams the whole message to r + 1, segment k tagged k: it posts its receive of
// segment k from r - 1, then sends segment k, which (for k > 0) waits for the receive of segment
// k - 1. The receives and segment 0 start at once: every rank sends its first segment at t = 0.
// A ring of one rank sends nothing.
auto pipelined_ring_emitter(const AlgorithmParams& p) {
  const Segments segments = segments_of(p);
  return [p, segments](std::uint32_t r, RankOps& ops) {
    const std::uint32_t n = p.ranks;
    if (n < 2) return;
    MaybeOp previous;
    for (std::uint32_t k = 0; k < segments.count; ++k) {
      const std::uint64_t bytes = segments.bytes_of(p.message_bytes, k);
      const Local got = ops.recv((r + n - 1) % n, bytes, k);
      ops.after(ops.send((r + 1) % n, bytes, k), previous);
      previous = got;
    }
  };
}

Schedule pipelined_ring(const AlgorithmParams& p) {
  return build(p.ranks, pipelined_ring_emitter(p));
}

std::optional<GeneratedSchedule> pipelined_ring_on_the_fly(const AlgorithmParams& p) {
  return generate_uniform(p.ranks, pipelined_ring_emitter(p));
}

double pipelined_ring_operations(const AlgorithmParams& p) {
  return p.ranks < 2 ? 0.0 : 2.0 * n_of(p) * segments_of(p).count;
}

// Pipelined ring: segment k's N messages are round k (its tag).
AlgorithmRounds pipelined_ring_rounds(const AlgorithmParams& p) {
  const Segments segments = segments_of(p);
  return rounds(p.ranks < 2 ? 0 : segments.count,
                [](std::uint32_t, const Operation& op) { return op.tag; });
}

}  // namespace

AlgorithmKind pipelined_ring_kind() {
  return {.name = "pipelined_ring",
          .meaning =
              "every rank streams the message to r + 1 in segments of floor(B / N) bytes "
              "(the Schedgen fork's pipelinedring benchmark)",
          .generate = pipelined_ring,
          .generate_on_the_fly = pipelined_ring_on_the_fly,
          .operations = pipelined_ring_operations,
          .rounds = pipelined_ring_rounds};
}

}  // namespace collnoise::algorithms
