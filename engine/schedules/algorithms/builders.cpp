#include "engine/schedules/algorithms/builders.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace collnoise::algorithms {

Local exchange(RankOps& ops, std::uint32_t send_to, std::uint32_t recv_from,
               std::uint64_t send_bytes, std::uint64_t recv_bytes, std::uint32_t tag,
               MaybeOp previous, ReceiveOrder order) {
  const Local s = ops.send(send_to, send_bytes, tag);
  ops.after(s, previous);
  const Local r = ops.recv(recv_from, recv_bytes, tag);
  if (order == ReceiveOrder::kInOrder) ops.with(r, s);
  return r;
}

std::uint32_t ceil_log2(std::uint32_t n) {
  return n <= 1 ? 0 : static_cast<std::uint32_t>(std::bit_width(n - 1));
}

Folding folding_of(std::uint32_t n) {
  const std::uint32_t pof2 = std::bit_floor(n);
  return {pof2, n - pof2};
}

MaybeOp fold_in(RankOps& ops, std::uint32_t r, const Folding& f, std::uint64_t bytes,
                MaybeOp& folded_send) {
  if (r >= 2 * f.rem) return std::nullopt;
  if (r % 2 == 0) {
    folded_send = ops.send(r + 1, bytes, kFoldTag);
    return std::nullopt;
  }
  return ops.recv(r - 1, bytes, kFoldTag);
}

void fold_out(RankOps& ops, std::uint32_t r, const Folding& f, std::uint64_t bytes, MaybeOp last,
              MaybeOp folded_send, ReceiveOrder order) {
  if (r >= 2 * f.rem) return;
  if (r % 2 == 1) {
    ops.after(ops.send(r - 1, bytes, kFoldTag + 1), last);
  } else {
    const Local back = ops.recv(r + 1, bytes, kFoldTag + 1);
    if (order == ReceiveOrder::kInOrder && folded_send) ops.with(back, *folded_send);
  }
}

std::vector<GeneratedSchedule::RankRun> fold_runs(std::uint32_t ranks) {
  const Folding f = folding_of(ranks);
  std::vector<GeneratedSchedule::RankRun> runs;
  if (f.rem > 0) runs.push_back({0, 2 * f.rem, 0, 2});
  runs.push_back({2 * f.rem, ranks, f.rem > 0 ? 2U : 0U, 1});
  return runs;
}

PeerRule::Mode fold_peer_mode(const Operation& op, std::uint32_t) {
  return op.tag >= kFoldTag ? PeerRule::Mode::kAdd : PeerRule::Mode::kFoldedXor;
}

std::vector<Local> binomial_reduce_rank(RankOps& ops, std::uint32_t r, std::uint32_t n,
                                        std::uint64_t bytes, std::uint32_t tag,
                                        ReceiveOrder order) {
  MaybeOp last;
  std::vector<Local> received;
  for (std::uint64_t mask = 1; mask < n; mask <<= 1) {
    if ((r & mask) == 0) {
      const std::uint64_t src = r | mask;
      if (src < n) {
        const Local got = ops.recv(static_cast<std::uint32_t>(src), bytes, tag);
        if (order == ReceiveOrder::kInOrder) ops.after(got, last);
        received.push_back(got);
        last = got;
      }
    } else {
      const Local s = ops.send(static_cast<std::uint32_t>(r & ~mask), bytes, tag);
      for (const Local got : received) ops.after(s, got);
      return {s};
    }
  }
  return received;
}

void binomial_broadcast_rank(RankOps& ops, std::uint32_t r, std::uint32_t n, std::uint64_t bytes,
                             std::uint32_t tag, std::span<const Local> after) {
  MaybeOp got;
  std::uint64_t mask = 1;
  while (mask < n) {
    if (r & mask) {
      got = ops.recv(static_cast<std::uint32_t>(r - mask), bytes, tag);
      for (const Local a : after) ops.after(*got, a);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (r + mask < n) {
      const Local s = ops.send(static_cast<std::uint32_t>(r + mask), bytes, tag);
      ops.after(s, got);
      if (!got)
        for (const Local a : after) ops.after(s, a);
    }
}

double n_of(const AlgorithmParams& p) {
  return static_cast<double>(p.ranks);
}
double rounds_of(const AlgorithmParams& p) {
  return static_cast<double>(ceil_log2(p.ranks));
}

double messages_of_tree(const AlgorithmParams& p) {
  return 2.0 * (n_of(p) - 1.0);
}
double rounds_operations(const AlgorithmParams& p) {
  return 2.0 * n_of(p) * rounds_of(p);
}
double butterfly_operations(const AlgorithmParams& p) {
  const Folding f = folding_of(p.ranks);
  return 2.0 * f.pof2 * std::log2(static_cast<double>(f.pof2)) + 4.0 * f.rem;
}

double joins(double first, double last, bool with_compute) {
  return with_compute ? first + last : first * last;
}
double tree_joins(const AlgorithmParams& p, bool with_compute) {
  const double children = std::max(1.0, p.k - 1.0) * (rounds_of(p) + 1.0);
  return n_of(p) * joins(children, children, with_compute);
}

double linear_joins(const AlgorithmParams& p, bool with_compute) {
  const double n = n_of(p) - 1.0;
  return joins(n, n, with_compute) + n * joins(1.0, 1.0, with_compute);
}

AlgorithmRounds rounds(std::uint32_t count, RoundOf of) {
  return {std::max(1U, count), std::move(of)};
}

std::uint32_t distance(std::uint32_t rank, const Operation& op) {
  return rank > op.peer ? rank - op.peer : op.peer - rank;
}

AlgorithmRounds rounds_by_tag(const AlgorithmParams& p) {
  return rounds(ceil_log2(p.ranks), [](std::uint32_t, const Operation& op) { return op.tag; });
}

AlgorithmRounds folded_rounds(const AlgorithmParams& p, std::uint32_t per_doubling) {
  if (p.ranks < 2) return rounds(1, [](std::uint32_t, const Operation&) { return 0U; });
  const Folding f = folding_of(p.ranks);
  const std::uint32_t butterfly =
      per_doubling * static_cast<std::uint32_t>(std::countr_zero(f.pof2));
  if (f.rem == 0)
    return rounds(butterfly, [](std::uint32_t, const Operation& op) { return op.tag; });
  return rounds(butterfly + 2, [last = butterfly + 1](std::uint32_t, const Operation& op) {
    if (op.tag == kFoldTag) return 0U;
    if (op.tag == kFoldTag + 1) return last;
    return op.tag + 1;
  });
}

AlgorithmRounds linear_rounds(const AlgorithmParams& p) {
  return rounds(p.ranks - std::min(p.ranks, 1U), [](std::uint32_t rank, const Operation& op) {
    return std::max(rank, op.peer) - 1;
  });
}

}  // namespace collnoise::algorithms
