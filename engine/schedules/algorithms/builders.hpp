#pragma once
// What several algorithms of engine/schedules/algorithms/ are built from (docs/extending.md, "A
// new generated algorithm"): a rank's operations (RankOps), pairwise exchanges, schedules stored
// or generated on the fly from rank classes, MPICH's fold for N not a power of two, and the
// shared counts of operations, cycle joins and rounds. An algorithm's own pieces stay in its file.
#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "core/stop_poll.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/schedule/generated_schedule.hpp"
#include "engine/schedules/schedule/schedule.hpp"

namespace collnoise::algorithms {

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
  Local calc(std::uint64_t ns) {
    if (poll_) poll_->tick();
    return b_.add(Operation{OpKind::kCalc, ns, 0, 0, 0, 0});
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
               MaybeOp previous, ReceiveOrder order);

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

std::uint32_t ceil_log2(std::uint32_t n);

// ---- MPICH's fold, for the butterflies ----------------------------------------------------------

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

Folding folding_of(std::uint32_t n);

// The tags of the fold's messages (in, and kFoldTag + 1 out), apart from the rounds'.
inline constexpr std::uint32_t kFoldTag = 0xfff0;

// Before the rounds: the even ranks below 2 rem send their vector. Returns what the rounds wait
// for.
MaybeOp fold_in(RankOps& ops, std::uint32_t r, const Folding& f, std::uint64_t bytes,
                MaybeOp& folded_send);

// After the rounds: the odd ranks below 2 rem send the result back.
void fold_out(RankOps& ops, std::uint32_t r, const Folding& f, std::uint64_t bytes, MaybeOp last,
              MaybeOp folded_send, ReceiveOrder order);

// The classes of a folded algorithm: the even and the odd ranks of the folded pairs (below
// 2 rem), and the rest. The rounds' partners are the fold's xor; the fold's own messages go to
// the neighbour.
std::vector<GeneratedSchedule::RankRun> fold_runs(std::uint32_t ranks);
PeerRule::Mode fold_peer_mode(const Operation& op, std::uint32_t);

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

// ---- binomial trees, for the reduce, the broadcast and the allreduce made of the two ----------

// Rank r's part of a binomial reduce to rank 0 of n ranks (`bytes` a message, tag `tag`): its
// receives from r + 2^i, lowest i first (each after the one before when `order` is in order),
// then, but on the root, its send to r less its lowest set bit, after them all. Returns what the
// rank's next operations wait for: its send, or the root's receives.
std::vector<Local> binomial_reduce_rank(RankOps& ops, std::uint32_t r, std::uint32_t n,
                                        std::uint64_t bytes, std::uint32_t tag, ReceiveOrder order);

// Rank r's part of a binomial broadcast from rank 0 of n ranks: but on the root, its receive from
// r less its lowest set bit; then its sends to r + 2^i below that bit, farthest first, each after
// the receive. The receive (the root: its sends) also waits for every operation of `after`.
void binomial_broadcast_rank(RankOps& ops, std::uint32_t r, std::uint32_t n, std::uint64_t bytes,
                             std::uint32_t tag, std::span<const Local> after = {});

// ---- sizes, for estimates -----------------------------------------------------------------------

double n_of(const AlgorithmParams& p);
double rounds_of(const AlgorithmParams& p);  ///< ceil(log2 N)

// N - 1 messages (a tree, or rank 0 with every other rank): a send and a receive each.
double messages_of_tree(const AlgorithmParams& p);
// A send and a receive per rank and round.
double rounds_operations(const AlgorithmParams& p);
// The butterfly of recursive doubling with MPICH's fold.
double butterfly_operations(const AlgorithmParams& p);

// Joins of repeated cycles (cycle_join_dependencies, schedule.hpp): a rank's first operations
// times its last ones (their sum with compute between cycles), summed over the ranks.
double joins(double first, double last, bool with_compute);
// A tree: a rank receives once and sends to at most (k - 1) children a round, or the reverse.
double tree_joins(const AlgorithmParams& p, bool with_compute);
// The root starts and ends with its N - 1 messages, every other rank with its one.
double linear_joins(const AlgorithmParams& p, bool with_compute);

// ---- rounds, for the critical path's noise by step ----------------------------------------------
// Each algorithm's rounds follow from its generator: the exchange-based ones carry the round in
// the tag, the trees and the linear ones in the distance between a rank and its peer.

using RoundOf = std::function<std::uint32_t(std::uint32_t rank, const Operation& op)>;

// N = 1 has no messages, hence no round to find: one round, never asked for.
AlgorithmRounds rounds(std::uint32_t count, RoundOf of);

std::uint32_t distance(std::uint32_t rank, const Operation& op);

// Dissemination barrier, Bruck allgather: round k is tag k, ceil(log2 N) of them.
AlgorithmRounds rounds_by_tag(const AlgorithmParams& p);

// The butterflies (recursive doubling, Rabenseifner): `per_doubling` rounds for each doubling of
// the power of two, tagged by their number; with MPICH's fold (N not a power of two) the fold-in
// is round 0, the butterfly's rounds follow, and the fold-out is the last.
AlgorithmRounds folded_rounds(const AlgorithmParams& p, std::uint32_t per_doubling);

// Linear gather and scatter: the root's N - 1 messages one after the other, rank q's in round
// q - 1.
AlgorithmRounds linear_rounds(const AlgorithmParams& p);

}  // namespace collnoise::algorithms
