#include "engine/schedules/algorithms.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <unordered_map>

#include "core/errors.hpp"
#include "core/stop_poll.hpp"

namespace collnoise {
namespace {

using Local = std::uint32_t;
using MaybeOp = std::optional<Local>;

// The operations of one rank, as an algorithm emits them (polling `poll`, if any, for a stop:
// one rank may emit millions, a linear scatter's root).
class RankOps {
 public:
  explicit RankOps(ScheduleBuilder& builder, StopPoll* poll = nullptr) : b_(builder), poll_(poll) {}

  Local send(std::uint32_t to, std::uint64_t bytes, std::uint32_t tag) {
    if (poll_) poll_->tick();
    return b_.add(Operation{OpKind::kSend, bytes, to, tag, 0, 0});
  }
  Local recv(std::uint32_t from, std::uint64_t bytes, std::uint32_t tag) {
    if (poll_) poll_->tick();
    return b_.add(Operation{OpKind::kRecv, bytes, from, tag, 0, 0});
  }
  /// `later` starts once `earlier` (if any) has finished.
  void after(Local later, MaybeOp earlier) {
    if (earlier) b_.depend(later, *earlier, false);
  }
  /// `later` starts once `earlier` has started.
  void with(Local later, Local earlier) { b_.depend(later, earlier, true); }

 private:
  ScheduleBuilder& b_;
  StopPoll* poll_;
};

// A pairwise exchange: the send waits for the previous round's receive; the receive is posted
// once the send has started (in order: a rendezvous send, finished only by the partner's
// receive, cannot deadlock two ranks that send to each other) or at the start. Returns the
// receive.
Local exchange(RankOps& ops, std::uint32_t send_to, std::uint32_t recv_from,
               std::uint64_t send_bytes, std::uint64_t recv_bytes, std::uint32_t tag,
               MaybeOp previous, ReceiveOrder order) {
  const Local s = ops.send(send_to, send_bytes, tag);
  ops.after(s, previous);
  const Local r = ops.recv(recv_from, recv_bytes, tag);
  if (order == ReceiveOrder::kInOrder) ops.with(r, s);
  return r;
}

template <class EmitRank>
Schedule build(std::uint32_t ranks, EmitRank&& emit) {
  ScheduleBuilder builder;
  StopPoll poll;
  for (std::uint32_t r = 0; r < ranks; ++r) {
    poll.tick();
    RankOps ops(builder, &poll);
    emit(r, ops);
    builder.end_rank([r] { return fmt::format("rank {}", r); });
  }
  return builder.finish();
}

// One rank's program, as `emit` gives it for rank r, with each peer turned into a rule of the
// mode `mode_of(operation, r)` picks for the operation.
template <class EmitRank, class ModeOf>
GeneratedSchedule::RankClass rank_class(std::uint32_t ranks, RankFold fold, std::uint32_t r,
                                        const EmitRank& emit, const ModeOf& mode_of) {
  ScheduleBuilder builder;
  RankOps ops(builder);
  emit(r, ops);
  builder.end_rank([r] { return fmt::format("rank {}", r); });
  GeneratedSchedule::RankClass c{builder.finish(), {}};
  for (std::uint64_t k = 0; k < c.program.operations(); ++k) {
    const Operation op = c.program.operation(k);
    PeerRule rule{PeerRule::Mode::kAbsolute, op.peer};
    if (op.kind != OpKind::kCalc && op.peer != kAnyPeer) {
      rule.mode = mode_of(op, r);
      if (rule.mode == PeerRule::Mode::kAdd)
        rule.value = (op.peer + ranks - r) % ranks;
      else if (rule.mode == PeerRule::Mode::kFoldedXor)
        rule.value = fold.new_rank(r) ^ fold.new_rank(op.peer);
      else if (rule.mode == PeerRule::Mode::kHeapChild)
        rule.value = op.peer - 2 * r;
    }
    c.peers.push_back(rule);
  }
  return c;
}

// A schedule on the fly from its layout: each run's classes are those of its first ranks.
template <class EmitRank, class ModeOf>
GeneratedSchedule generate_classes(std::uint32_t ranks, RankFold fold,
                                   const std::vector<GeneratedSchedule::RankRun>& runs,
                                   const EmitRank& emit, const ModeOf& mode_of) {
  std::vector<GeneratedSchedule::RankClass> classes;
  for (const auto& run : runs)
    for (std::uint32_t j = 0; j < run.period; ++j)
      classes.push_back(rank_class(ranks, fold, run.begin + j, emit, mode_of));
  return GeneratedSchedule(ranks, fold, std::move(classes), runs);
}

// Every rank the same program, peers at fixed distances mod N.
template <class EmitRank>
GeneratedSchedule generate_uniform(std::uint32_t ranks, const EmitRank& emit) {
  return generate_classes(ranks, RankFold{}, {{0, ranks, 0, 1}}, emit,
                          [](const Operation&, std::uint32_t) { return PeerRule::Mode::kAdd; });
}

std::uint32_t ceil_log2(std::uint32_t n) {
  return n <= 1 ? 0 : static_cast<std::uint32_t>(std::bit_width(n - 1));
}

// ---- trees --------------------------------------------------------------------------------------

Schedule binomial_broadcast(const AlgorithmParams& p) {
  const std::uint32_t n = p.ranks;
  return build(n, [&](std::uint32_t r, RankOps& ops) {
    MaybeOp got;
    std::uint64_t mask = 1;
    while (mask < n) {
      if (r & mask) {
        got = ops.recv(static_cast<std::uint32_t>(r - mask), p.message_bytes, 0);
        break;
      }
      mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
      if (r + mask < n)
        ops.after(ops.send(static_cast<std::uint32_t>(r + mask), p.message_bytes, 0), got);
  });
}

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

void check_k(const AlgorithmParams& p) {
  if (p.k < 2)
    throw InputError(
        fmt::format("collective.k = {} is invalid: a k-nomial tree needs k >= 2", p.k));
}

Schedule knomial_broadcast(const AlgorithmParams& p) {
  check_k(p);
  const std::uint32_t n = p.ranks;
  const std::uint64_t k = p.k;
  return build(n, [&](std::uint32_t r, RankOps& ops) {
    MaybeOp got;
    std::uint64_t mask = 1;
    while (mask < n) {
      if (r % (k * mask) != 0) {
        got = ops.recv(static_cast<std::uint32_t>(r - r % (k * mask)), p.message_bytes, 0);
        break;
      }
      mask *= k;
    }
    for (mask /= k; mask > 0; mask /= k)
      for (std::uint64_t j = 1; j < k; ++j)
        if (r + mask * j < n)
          ops.after(ops.send(static_cast<std::uint32_t>(r + mask * j), p.message_bytes, 0), got);
  });
}

// The heap-ordered binary tree of the tree barrier (docs/models/tree-barrier.md): up to the root,
// then down again.
auto tree_barrier_emitter(const AlgorithmParams& p) {
  return [n = p.ranks, bytes = p.message_bytes](std::uint32_t r, RankOps& ops) {
    std::vector<std::uint32_t> children;
    for (std::uint64_t c = 2ULL * r + 1; c <= 2ULL * r + 2; ++c)
      if (c < n) children.push_back(static_cast<std::uint32_t>(c));
    std::vector<Local> up;
    for (const std::uint32_t c : children) up.push_back(ops.recv(c, bytes, 0));
    MaybeOp released;
    if (r > 0) {
      const Local to_parent = ops.send((r - 1) / 2, bytes, 0);
      for (const Local u : up) ops.after(to_parent, u);
      const Local from_parent = ops.recv((r - 1) / 2, bytes, 1);
      ops.after(from_parent, to_parent);
      released = from_parent;
    }
    for (const std::uint32_t c : children) {
      const Local down = ops.send(c, bytes, 1);
      if (released)
        ops.after(down, released);
      else
        for (const Local u : up) ops.after(down, u);
    }
  };
}

Schedule tree_barrier(const AlgorithmParams& p) {
  return build(p.ranks, tree_barrier_emitter(p));
}

// The tree's ranks differ only by their place: the root, ranks with two children, the one rank
// with a single child (N even), the leaves; in that order, as runs. Peers follow from the rank as
// the heap's 2r + 1, 2r + 2 and (r - 1) / 2.
std::optional<GeneratedSchedule> tree_barrier_on_the_fly(const AlgorithmParams& p) {
  const std::uint64_t n = p.ranks;
  // Below the root, the children a rank has (2r + 1 and 2r + 2 below N) only decrease with r:
  // the first rank r >= 1 with 2r + c >= N is where ranks have fewer than c.
  const auto first_with_fewer_than = [n](std::uint64_t c) {
    return std::max<std::uint64_t>(1, n > c ? (n - c + 1) / 2 : 0);
  };
  std::vector<std::uint64_t> bounds = {0, 1, first_with_fewer_than(2), first_with_fewer_than(1), n};
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  std::vector<GeneratedSchedule::RankRun> runs;
  for (std::size_t i = 0; i + 1 < bounds.size() && bounds[i] < n; ++i)
    runs.push_back({static_cast<std::uint32_t>(bounds[i]),
                    static_cast<std::uint32_t>(std::min(bounds[i + 1], n)),
                    static_cast<std::uint32_t>(runs.size()), 1});
  return generate_classes(p.ranks, RankFold{}, runs, tree_barrier_emitter(p),
                          [](const Operation& op, std::uint32_t r) {
                            return r > 0 && op.peer == (r - 1) / 2 ? PeerRule::Mode::kHeapParent
                                                                   : PeerRule::Mode::kHeapChild;
                          });
}

// ---- rounds of pairwise exchanges ---------------------------------------------------------------

auto dissemination_emitter(const AlgorithmParams& p) {
  return [p](std::uint32_t r, RankOps& ops) {
    const std::uint32_t n = p.ranks;
    MaybeOp previous;
    for (std::uint32_t k = 0; k < ceil_log2(n); ++k) {
      const std::uint64_t d = std::uint64_t{1} << k;
      previous = exchange(ops, static_cast<std::uint32_t>((r + d) % n),
                          static_cast<std::uint32_t>((r + n - d % n) % n), p.message_bytes,
                          p.message_bytes, k, previous, p.receives);
    }
  };
}

Schedule dissemination_barrier(const AlgorithmParams& p) {
  return build(p.ranks, dissemination_emitter(p));
}

std::optional<GeneratedSchedule> dissemination_barrier_on_the_fly(const AlgorithmParams& p) {
  return generate_uniform(p.ranks, dissemination_emitter(p));
}

auto bruck_emitter(const AlgorithmParams& p) {
  return [p](std::uint32_t r, RankOps& ops) {
    const std::uint32_t n = p.ranks;
    MaybeOp previous;
    for (std::uint32_t k = 0; k < ceil_log2(n); ++k) {
      const std::uint64_t d = std::uint64_t{1} << k;
      const std::uint64_t blocks = std::min<std::uint64_t>(d, n - d);
      previous = exchange(ops, static_cast<std::uint32_t>((r + n - d) % n),
                          static_cast<std::uint32_t>((r + d) % n), blocks * p.message_bytes,
                          blocks * p.message_bytes, k, previous, p.receives);
    }
  };
}

Schedule bruck_allgather(const AlgorithmParams& p) {
  return build(p.ranks, bruck_emitter(p));
}

std::optional<GeneratedSchedule> bruck_allgather_on_the_fly(const AlgorithmParams& p) {
  return generate_uniform(p.ranks, bruck_emitter(p));
}

auto pairwise_emitter(const AlgorithmParams& p) {
  return [p](std::uint32_t r, RankOps& ops) {
    const std::uint32_t n = p.ranks;
    MaybeOp previous;
    for (std::uint32_t k = 1; k < n; ++k)
      previous = exchange(ops, (r + k) % n, (r + n - k) % n, p.message_bytes, p.message_bytes, k,
                          previous, p.receives);
  };
}

Schedule pairwise_alltoall(const AlgorithmParams& p) {
  return build(p.ranks, pairwise_emitter(p));
}

std::optional<GeneratedSchedule> pairwise_alltoall_on_the_fly(const AlgorithmParams& p) {
  return generate_uniform(p.ranks, pairwise_emitter(p));
}

// MPICH's fix-up for N not a power of two: the first 2 rem ranks pair up, the even one hands its
// vector to the odd one and sits out; afterwards the odd one hands the result back.
struct Folding {
  std::uint32_t pof2;
  std::uint32_t rem;
  std::optional<std::uint32_t> new_rank(std::uint32_t r) const {
    if (r < 2 * rem) return r % 2 == 0 ? std::nullopt : std::optional(r / 2);
    return r - rem;
  }
  std::uint32_t old_rank(std::uint32_t new_rank) const {
    return new_rank < rem ? new_rank * 2 + 1 : new_rank + rem;
  }
};

Folding folding_of(std::uint32_t n) {
  const std::uint32_t pof2 = std::bit_floor(n);
  return {pof2, n - pof2};
}

constexpr std::uint32_t kFoldTag = 0xfff0;  // tags of the fix-up messages, apart from the rounds'

// Before the rounds: the even ranks below 2 rem send their vector. Returns what the rounds wait
// for.
MaybeOp fold_in(RankOps& ops, std::uint32_t r, const Folding& f, std::uint64_t bytes,
                MaybeOp& folded_send) {
  if (r >= 2 * f.rem) return std::nullopt;
  if (r % 2 == 0) {
    folded_send = ops.send(r + 1, bytes, kFoldTag);
    return std::nullopt;
  }
  return ops.recv(r - 1, bytes, kFoldTag);
}

// After the rounds: the odd ranks below 2 rem send the result back.
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

auto recursive_doubling_emitter(const AlgorithmParams& p) {
  return [p, f = folding_of(p.ranks)](std::uint32_t r, RankOps& ops) {
    MaybeOp folded_send;
    MaybeOp previous = fold_in(ops, r, f, p.message_bytes, folded_send);
    if (const auto me = f.new_rank(r)) {
      std::uint32_t round = 0;
      for (std::uint32_t mask = 1; mask < f.pof2; mask <<= 1, ++round) {
        const std::uint32_t partner = f.old_rank(*me ^ mask);
        previous = exchange(ops, partner, partner, p.message_bytes, p.message_bytes, round,
                            previous, p.receives);
      }
    }
    fold_out(ops, r, f, p.message_bytes, previous, folded_send, p.receives);
  };
}

Schedule recursive_doubling_allreduce(const AlgorithmParams& p) {
  return build(p.ranks, recursive_doubling_emitter(p));
}

// The classes of a folded algorithm: the even and the odd ranks of the folded pairs (below
// 2 rem), and the rest. The rounds' partners are the fold's xor; the fold's own messages go to
// the neighbour.
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

std::optional<GeneratedSchedule> recursive_doubling_allreduce_on_the_fly(const AlgorithmParams& p) {
  return generate_classes(p.ranks, RankFold{folding_of(p.ranks).rem}, fold_runs(p.ranks),
                          recursive_doubling_emitter(p), fold_peer_mode);
}

// The vector in pof2 blocks (bytes spread as evenly as whole bytes allow); the bytes of blocks
// [lo, hi).
struct Blocks {
  std::uint64_t bytes;
  std::uint32_t count;
  std::uint64_t size_of(std::uint32_t lo, std::uint32_t hi) const {
    const auto upto = [&](std::uint32_t i) {
      return bytes / count * i + std::min<std::uint64_t>(i, bytes % count);
    };
    return upto(hi) - upto(lo);
  }
};

auto rabenseifner_emitter(const AlgorithmParams& p) {
  const Folding f = folding_of(p.ranks);
  const Blocks blocks{p.message_bytes, f.pof2};
  return [p, f, blocks](std::uint32_t r, RankOps& ops) {
    MaybeOp folded_send;
    MaybeOp previous = fold_in(ops, r, f, p.message_bytes, folded_send);
    if (const auto me = f.new_rank(r)) {
      // Reduce-scatter by recursive halving: keep the half of the window on my side of the
      // partner, send the other half.
      std::uint32_t lo = 0, hi = f.pof2, round = 0;
      std::vector<std::pair<std::uint32_t, std::uint32_t>> windows;
      for (std::uint32_t mask = f.pof2 >> 1; mask > 0; mask >>= 1, ++round) {
        const std::uint32_t partner_new = *me ^ mask;
        const std::uint32_t mid = lo + (hi - lo) / 2;
        const bool lower = *me < partner_new;
        const std::uint32_t keep_lo = lower ? lo : mid, keep_hi = lower ? mid : hi;
        const std::uint32_t give_lo = lower ? mid : lo, give_hi = lower ? hi : mid;
        windows.emplace_back(lo, hi);
        previous = exchange(ops, f.old_rank(partner_new), f.old_rank(partner_new),
                            blocks.size_of(give_lo, give_hi), blocks.size_of(keep_lo, keep_hi),
                            round, previous, p.receives);
        lo = keep_lo;
        hi = keep_hi;
      }
      // Allgather by recursive doubling, the windows in reverse.
      for (std::uint32_t mask = 1; mask < f.pof2; mask <<= 1, ++round) {
        const std::uint32_t partner_new = *me ^ mask;
        const auto [wlo, whi] = windows.back();
        windows.pop_back();
        const std::uint64_t mine = blocks.size_of(lo, hi);
        const std::uint64_t theirs = blocks.size_of(wlo, whi) - mine;
        previous = exchange(ops, f.old_rank(partner_new), f.old_rank(partner_new), mine, theirs,
                            round, previous, p.receives);
        lo = wlo;
        hi = whi;
      }
    }
    fold_out(ops, r, f, p.message_bytes, previous, folded_send, p.receives);
  };
}

Schedule rabenseifner_allreduce(const AlgorithmParams& p) {
  return build(p.ranks, rabenseifner_emitter(p));
}

// On the fly when the vector splits into equal blocks (bytes a multiple of the power of two):
// then every rank of a class sends and receives the same sizes, as for recursive doubling.
std::optional<GeneratedSchedule> rabenseifner_allreduce_on_the_fly(const AlgorithmParams& p) {
  const Folding f = folding_of(p.ranks);
  if (p.message_bytes % f.pof2 != 0) return std::nullopt;
  return generate_classes(p.ranks, RankFold{f.rem}, fold_runs(p.ranks), rabenseifner_emitter(p),
                          fold_peer_mode);
}

// Reduce-scatter then allgather around the ring, each of the N chunks in `segments` pieces;
// piece j of step k + 1 waits for piece j of step k.
void check_segments(const AlgorithmParams& p) {
  if (p.segments < 1)
    throw InputError(fmt::format("collective.segments = {} is invalid: at least 1", p.segments));
}

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

// ---- linear -------------------------------------------------------------------------------------

Schedule linear_gather(const AlgorithmParams& p) {
  return build(p.ranks, [&](std::uint32_t r, RankOps& ops) {
    if (r == 0)
      for (std::uint32_t from = 1; from < p.ranks; ++from) ops.recv(from, p.message_bytes, 0);
    else
      ops.send(0, p.message_bytes, 0);
  });
}

Schedule linear_scatter(const AlgorithmParams& p) {
  return build(p.ranks, [&](std::uint32_t r, RankOps& ops) {
    if (r == 0)
      for (std::uint32_t to = 1; to < p.ranks; ++to) ops.send(to, p.message_bytes, 0);
    else
      ops.recv(0, p.message_bytes, 0);
  });
}

// ---- sizes, for estimates -----------------------------------------------------------------------

double n_of(const AlgorithmParams& p) {
  return static_cast<double>(p.ranks);
}
double rounds_of(const AlgorithmParams& p) {
  return static_cast<double>(ceil_log2(p.ranks));
}

// The root of a linear gather: each message, arriving in any order under noise, searches half
// of the receives still posted.
double root_searches(const AlgorithmParams& p) {
  const double n = n_of(p) - 1.0;
  return n * n / 4.0;
}

// N - 1 messages (a tree, or rank 0 with every other rank): a send and a receive each.
double messages_of_tree(const AlgorithmParams& p) {
  return 2.0 * (n_of(p) - 1.0);
}
// A send and a receive per rank and round.
double rounds_operations(const AlgorithmParams& p) {
  return 2.0 * n_of(p) * rounds_of(p);
}
double butterfly_operations(const AlgorithmParams& p) {
  const Folding f = folding_of(p.ranks);
  return 2.0 * f.pof2 * std::log2(static_cast<double>(f.pof2)) + 4.0 * f.rem;
}
double rabenseifner_operations(const AlgorithmParams& p) {
  return 2.0 * butterfly_operations(p);
}
double ring_operations(const AlgorithmParams& p) {
  return p.ranks < 2 ? 0.0 : 4.0 * n_of(p) * (n_of(p) - 1.0) * p.segments;
}
double tree_barrier_operations(const AlgorithmParams& p) {
  return 4.0 * (n_of(p) - 1.0);
}
double pairwise_operations(const AlgorithmParams& p) {
  return 2.0 * n_of(p) * (n_of(p) - 1.0);
}

// Joins of repeated cycles (cycle_join_dependencies, schedule.hpp): a rank's first operations
// times its last ones (their sum with compute between cycles), summed over the ranks.
double joins(double first, double last, bool with_compute) {
  return with_compute ? first + last : first * last;
}
// A tree: a rank receives once and sends to at most (k - 1) children a round, or the reverse.
double tree_joins(const AlgorithmParams& p, bool with_compute) {
  const double children = std::max(1.0, p.k - 1.0) * (rounds_of(p) + 1.0);
  return n_of(p) * joins(children, children, with_compute);
}
// In order, each segment's chain starts with a send and ends with a receive; preposted, every
// receive starts one and every send ends one.
double ring_joins(const AlgorithmParams& p, bool with_compute) {
  const double per_rank = p.receives == ReceiveOrder::kPreposted
                              ? (2.0 * n_of(p) - 1.0) * p.segments
                              : static_cast<double>(p.segments);
  return n_of(p) * joins(per_rank, per_rank, with_compute);
}
// The root starts and ends with its N - 1 messages, every other rank with its one.
double linear_joins(const AlgorithmParams& p, bool with_compute) {
  const double n = n_of(p) - 1.0;
  return joins(n, n, with_compute) + n * joins(1.0, 1.0, with_compute);
}

// ---- rounds, for the critical path's noise by step ----------------------------------------------
// Each algorithm's rounds follow from its generator above: the exchange-based ones carry the
// round in the tag, the trees and the linear ones in the distance between a rank and its peer.

using RoundOf = std::function<std::uint32_t(std::uint32_t rank, const Operation& op)>;

// N = 1 has no messages, hence no round to find: one round, never asked for.
AlgorithmRounds rounds(std::uint32_t count, RoundOf of) {
  return {std::max(1U, count), std::move(of)};
}

std::uint32_t distance(std::uint32_t rank, const Operation& op) {
  return rank > op.peer ? rank - op.peer : op.peer - rank;
}

// Dissemination barrier, Bruck allgather: round k is tag k, ceil(log2 N) of them.
AlgorithmRounds rounds_by_tag(const AlgorithmParams& p) {
  return rounds(ceil_log2(p.ranks), [](std::uint32_t, const Operation& op) { return op.tag; });
}

// Pairwise alltoall: round k - 1 exchanges with r + k and r - k, tag k, for k = 1 .. N - 1.
AlgorithmRounds pairwise_rounds(const AlgorithmParams& p) {
  return rounds(p.ranks - std::min(p.ranks, 1U),
                [](std::uint32_t, const Operation& op) { return op.tag - 1; });
}

// Ring allreduce: step s (2 (N - 1) of them) sends its segments with tags s * segments + j.
AlgorithmRounds ring_rounds(const AlgorithmParams& p) {
  check_segments(p);
  const std::uint32_t steps = p.ranks < 2 ? 0 : 2 * (p.ranks - 1);
  return rounds(steps, [segments = p.segments](std::uint32_t, const Operation& op) {
    return op.tag / segments;
  });
}

// The butterflies (recursive doubling, Rabenseifner): `per_doubling` rounds for each doubling of
// the power of two, tagged by their number; with MPICH's fold (N not a power of two) the fold-in
// is round 0, the butterfly's rounds follow, and the fold-out is the last.
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

AlgorithmRounds recursive_doubling_rounds(const AlgorithmParams& p) {
  return folded_rounds(p, 1);
}
AlgorithmRounds rabenseifner_rounds(const AlgorithmParams& p) {
  return folded_rounds(p, 2);  // recursive halving, then recursive doubling
}

// Binomial broadcast: the message over distance 2^i leaves in round (rounds - 1 - i), the root
// sending over the largest distance first (masks from high to low).
AlgorithmRounds binomial_broadcast_rounds(const AlgorithmParams& p) {
  const std::uint32_t count = ceil_log2(p.ranks);
  return rounds(count, [count](std::uint32_t rank, const Operation& op) {
    return count - static_cast<std::uint32_t>(std::bit_width(distance(rank, op)));
  });
}

// Binomial reduce: the message over distance 2^i is round i (masks from low to high).
AlgorithmRounds binomial_reduce_rounds(const AlgorithmParams& p) {
  return rounds(ceil_log2(p.ranks), [](std::uint32_t rank, const Operation& op) {
    return static_cast<std::uint32_t>(std::bit_width(distance(rank, op))) - 1;
  });
}

// K-nomial broadcast: one round per level of the tree, the root's highest power of k first. A
// level's k - 1 sends over distances j k^i (j = 1 .. k - 1) are one round, as the tree's depth
// counts them (one round per send would leave rounds empty where N - 1 < (k - 1) k^i).
AlgorithmRounds knomial_rounds(const AlgorithmParams& p) {
  check_k(p);
  std::uint32_t levels = 0;
  for (std::uint64_t mask = 1; mask < p.ranks; mask *= p.k) ++levels;
  return rounds(levels, [levels, k = std::uint64_t{p.k}](std::uint32_t rank, const Operation& op) {
    const std::uint64_t d = distance(rank, op);
    std::uint32_t level = 0;  // the i of k^i <= d < k^(i + 1)
    for (std::uint64_t mask = k; mask <= d; mask *= k) ++level;
    return levels - 1 - level;
  });
}

// Tree barrier, the heap-ordered binary tree of depth D = floor(log2 N): the message between a
// child at depth d and its parent is round D - d going up (the deepest first), D + d - 1 coming
// down (the root's children first): 2 D rounds.
AlgorithmRounds tree_barrier_rounds(const AlgorithmParams& p) {
  const auto depth = [](std::uint64_t r) {
    return static_cast<std::uint32_t>(std::bit_width(r + 1)) - 1;
  };
  const std::uint32_t tree = p.ranks < 1 ? 0 : depth(p.ranks - 1);
  return rounds(2 * tree, [tree, depth](std::uint32_t rank, const Operation& op) {
    const std::uint32_t child = depth(std::max(rank, op.peer));
    return op.tag == 0 ? tree - child : tree + child - 1;
  });
}

// Linear gather and scatter: the root's N - 1 messages one after the other, rank q's in round
// q - 1.
AlgorithmRounds linear_rounds(const AlgorithmParams& p) {
  return rounds(p.ranks - std::min(p.ranks, 1U), [](std::uint32_t rank, const Operation& op) {
    return std::max(rank, op.peer) - 1;
  });
}

}  // namespace

double cycle_joins_of(const AlgorithmKind& algorithm, const AlgorithmParams& p, bool with_compute) {
  if (algorithm.cycle_joins) return algorithm.cycle_joins(p, with_compute);
  std::optional<GeneratedSchedule> fly;
  if (algorithm.generate_on_the_fly) fly = algorithm.generate_on_the_fly(p);
  if (!fly) return n_of(p) * joins(1.0, 1.0, with_compute);
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

const std::vector<AlgorithmKind>& algorithm_kinds() {
  static const std::vector<AlgorithmKind> kinds = {
      {.name = "binomial_broadcast",
       .meaning = "binomial tree from rank 0 (MPICH and Open MPI, short messages)",
       .generate = binomial_broadcast,
       .operations = messages_of_tree,
       .cycle_joins = tree_joins,
       .rounds = binomial_broadcast_rounds},
      {.name = "binomial_reduce",
       .meaning = "binomial tree to rank 0 (MPICH reduce, short messages)",
       .uses_receive_order = true,
       .generate = binomial_reduce,
       .operations = messages_of_tree,
       .cycle_joins = tree_joins,
       .rounds = binomial_reduce_rounds},
      {.name = "knomial_broadcast",
       .meaning = "k-nomial tree from rank 0 (MPICH's default broadcast tree, k = 4)",
       .uses_k = true,
       .generate = knomial_broadcast,
       .operations = messages_of_tree,
       .cycle_joins = tree_joins,
       .rounds = knomial_rounds},
      {.name = "recursive_doubling_allreduce",
       .meaning = "the butterfly with MPICH's fold for N not a power of two (short vectors)",
       .uses_receive_order = true,
       .generate = recursive_doubling_allreduce,
       .generate_on_the_fly = recursive_doubling_allreduce_on_the_fly,
       .operations = butterfly_operations,
       .rounds = recursive_doubling_rounds},
      {.name = "rabenseifner_allreduce",
       .meaning = "reduce-scatter by recursive halving, allgather by recursive doubling (MPICH, "
                  "long vectors)",
       .uses_receive_order = true,
       .generate = rabenseifner_allreduce,
       .generate_on_the_fly = rabenseifner_allreduce_on_the_fly,
       .operations = rabenseifner_operations,
       .rounds = rabenseifner_rounds},
      {.name = "ring_allreduce",
       .meaning = "reduce-scatter and allgather around a ring, segmented (Open MPI, NCCL)",
       .uses_segments = true,
       .uses_receive_order = true,
       .generate = ring_allreduce,
       .operations = ring_operations,
       .cycle_joins = ring_joins,
       .rounds = ring_rounds},
      {.name = "dissemination_barrier",
       .meaning = "ceil(log2 N) rounds to r + 2^k (MPICH barrier)",
       .uses_receive_order = true,
       .generate = dissemination_barrier,
       .generate_on_the_fly = dissemination_barrier_on_the_fly,
       .operations = rounds_operations,
       .rounds = rounds_by_tag},
      {.name = "tree_barrier",
       .meaning = "up the heap-ordered binary tree and down again (Agarwal et al.)",
       .generate = tree_barrier,
       .generate_on_the_fly = tree_barrier_on_the_fly,
       .operations = tree_barrier_operations,
       .rounds = tree_barrier_rounds},
      {.name = "bruck_allgather",
       .meaning = "ceil(log2 N) rounds of doubling blocks (MPICH, short messages)",
       .uses_receive_order = true,
       .generate = bruck_allgather,
       .generate_on_the_fly = bruck_allgather_on_the_fly,
       .operations = rounds_operations,
       .rounds = rounds_by_tag},
      {.name = "pairwise_alltoall",
       .meaning = "N - 1 rounds of pairwise exchanges (MPICH, Open MPI, long messages)",
       .uses_receive_order = true,
       .generate = pairwise_alltoall,
       .generate_on_the_fly = pairwise_alltoall_on_the_fly,
       .operations = pairwise_operations,
       .rounds = pairwise_rounds},
      {.name = "linear_gather",
       .meaning = "every rank sends to rank 0 (Open MPI's basic linear gather)",
       .generate = linear_gather,
       .operations = messages_of_tree,
       .searches = root_searches,
       .cycle_joins = linear_joins,
       .rounds = linear_rounds},
      {.name = "linear_scatter",
       .meaning = "rank 0 sends to every rank (Open MPI's basic linear scatter)",
       .generate = linear_scatter,
       .operations = messages_of_tree,
       .cycle_joins = linear_joins,
       .rounds = linear_rounds},
  };
  return kinds;
}

const AlgorithmKind* find_algorithm(const std::string& name) {
  for (const auto& kind : algorithm_kinds())
    if (kind.name == name) return &kind;
  return nullptr;
}

}  // namespace collnoise
