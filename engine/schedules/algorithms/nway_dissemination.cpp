// The n-way dissemination (docs/models/schedules.md, "Built-in algorithms"): its generator,
// operation count, generation on the fly, rounds and its entry, listed in algorithm_kinds()
// (engine/schedules/algorithms/algorithms.cpp). It is the pattern the authors' Schedgen fork
// writes as `-p nwaydissemination --nway n` (the "nwaydissemination" and
// "nwaydissemination_nocompute" benchmarks of DanieleDeSensi/cloud_noise, n = 1), with radix
// collective.k = n + 1.
#include "engine/schedules/algorithms/algorithms.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "engine/schedules/algorithms/builders.hpp"

namespace collnoise::algorithms {
namespace {

void check_radix(const AlgorithmParams& p) {
  if (p.k < 2)
    throw InputError(fmt::format(
        "collective.k = {} is invalid: an n-way dissemination has radix k = n + 1 >= 2", p.k));
}

// Its rounds, ceil(log_k N) of them, counted exactly (the fork computes ceil(log N / log k) in
// floating point, one round more at a few exact powers: N = 2^29 at k = 2, 125 at k = 5).
std::uint32_t round_count(const AlgorithmParams& p) {
  std::uint32_t count = 0;
  for (std::uint64_t reach = 1; reach < p.ranks; reach *= p.k) ++count;
  return count;
}

// Round j, way w (1 .. n): to r + w k^j, from r - w k^j (mod N), every message of
// collective.message_bytes bytes and tag 0. Per round, in the fork's order: the n sends; from round
// 1 on, the reduction of the previous round's receives (a chain of n - 1 calcs, then one more on
// the first receive, each message_bytes ns, or 0 without compute), which the sends wait for; then
// the n receives, which wait for nothing. With k > 2 a distance may reach N or beyond: the
// message then goes to a rank already reached, or to the rank itself, as the fork writes it.
auto nway_emitter(const AlgorithmParams& p) {
  check_radix(p);
  return [p, count = round_count(p)](std::uint32_t r, RankOps& ops) {
    const std::uint64_t n = p.ranks;
    const std::uint32_t ways = p.k - 1;
    const std::uint64_t calc_ns = p.compute ? p.message_bytes : 0;
    std::vector<Local> send(ways), recv(ways);
    std::uint64_t step = 1;  // k^j mod N
    for (std::uint32_t j = 0; j < count; ++j) {
      for (std::uint32_t w = 0; w < ways; ++w)
        send[w] =
            ops.send(static_cast<std::uint32_t>((r + (w + 1) * step) % n), p.message_bytes, 0);
      if (j > 0) {
        Local previous = recv[0];
        for (std::uint32_t w = 1; w < ways; ++w) {
          const Local reduce = ops.calc(calc_ns);
          ops.after(reduce, recv[w]);
          ops.after(reduce, previous);
          previous = reduce;
        }
        const Local reduce = ops.calc(calc_ns);
        ops.after(reduce, recv[0]);
        ops.after(send[ways - 1], previous);
        for (const Local s : send) ops.after(s, reduce);
      }
      for (std::uint32_t w = 0; w < ways; ++w)
        recv[w] = ops.recv(static_cast<std::uint32_t>((r + n - (w + 1) * step % n) % n),
                           p.message_bytes, 0);
      step = step * p.k % n;
    }
  };
}

Schedule nway_dissemination(const AlgorithmParams& p) {
  return build(p.ranks, nway_emitter(p));
}

std::optional<GeneratedSchedule> nway_on_the_fly(const AlgorithmParams& p) {
  return generate_uniform(p.ranks, nway_emitter(p));
}

// Per rank and round, n sends and n receives; n calcs in every round but the first.
double nway_operations(const AlgorithmParams& p) {
  check_radix(p);
  const double rounds = round_count(p);
  const double ways = p.k - 1.0;
  return rounds < 1 ? 0.0 : n_of(p) * ways * (3.0 * rounds - 1.0);
}

// N-way dissemination: round j holds the distances w k^j mod N. All messages are tagged 0, so a
// message is known only by its distance; where two rounds share a distance (k > 2, some N), the
// rounds from the first to the last holding it are one, as a message's round could not be told.
// At k = 2 the distances 2^j < N are all different: ceil(log2 N) rounds.
AlgorithmRounds nway_rounds(const AlgorithmParams& p) {
  check_radix(p);
  const std::uint64_t n = p.ranks;
  const std::uint32_t count = round_count(p);
  // (distance, round) for every message a rank sends, in round order.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> at;
  std::uint64_t step = 1;
  for (std::uint32_t j = 0; j < count; ++j, step = step * p.k % n)
    for (std::uint64_t w = 1; w < p.k; ++w) at.emplace_back(w * step % n, j);
  std::sort(at.begin(), at.end());
  // joined[j]: round j is one with round j - 1, as a distance is in both or in rounds around them.
  std::vector<bool> joined(count, false);
  for (std::size_t i = 1; i < at.size(); ++i)
    if (at[i].first == at[i - 1].first)
      for (std::uint32_t j = at[i - 1].second + 1; j <= at[i].second; ++j) joined[j] = true;
  std::vector<std::uint32_t> renumbered(count, 0);
  for (std::uint32_t j = 1; j < count; ++j) renumbered[j] = renumbered[j - 1] + (joined[j] ? 0 : 1);
  std::vector<std::pair<std::uint64_t, std::uint32_t>> round_of_distance;
  for (const auto& [distance, j] : at) round_of_distance.emplace_back(distance, renumbered[j]);
  round_of_distance.erase(
      std::unique(round_of_distance.begin(), round_of_distance.end(),
                  [](const auto& a, const auto& b) { return a.first == b.first; }),
      round_of_distance.end());
  return rounds(count == 0 ? 0 : renumbered.back() + 1,
                [n, table = std::move(round_of_distance)](std::uint32_t rank, const Operation& op) {
                  const std::uint64_t distance =
                      (op.kind == OpKind::kSend ? std::uint64_t{op.peer} + n - rank
                                                : std::uint64_t{rank} + n - op.peer) %
                      n;
                  const auto it = std::lower_bound(
                      table.begin(), table.end(), distance,
                      [](const auto& entry, std::uint64_t d) { return entry.first < d; });
                  return it->second;
                });
}

}  // namespace

AlgorithmKind nway_dissemination_kind() {
  return {.name = "nway_dissemination",
          .meaning =
              "ceil(log_k N) rounds to r + w k^j, w = 1 .. k - 1, with reductions of B ns "
              "(the Schedgen fork's nwaydissemination benchmark, k = 2)",
          .uses_k = true,
          .uses_compute = true,
          .generate = nway_dissemination,
          .generate_on_the_fly = nway_on_the_fly,
          .operations = nway_operations,
          .rounds = nway_rounds};
}

}  // namespace collnoise::algorithms
