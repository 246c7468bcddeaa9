#pragma once
// A schedule generated on the fly, never materialised (docs/models/schedules.md, "Performance").
// Round-based algorithms give most ranks the same program up to their peers: a dissemination
// barrier's rank r sends to r + 2^k and receives from r - 2^k, whatever r. Such a schedule is
// held as a few rank classes (one rank's program each, with a rule that turns the rank into each
// peer) and a layout saying which rank has which class: memory independent of N, so a 2^23-rank
// allreduce costs what one rank's program does. The engine reads it through the same RankView
// accessors as a stored Schedule.
#include <cstdint>
#include <vector>

#include "engine/schedules/schedule/schedule.hpp"

namespace collnoise {

/// How an operation's peer follows from the rank that runs it.
struct PeerRule {
  enum class Mode : std::uint8_t {
    kAbsolute,    ///< `value` itself (a root, or kAnyPeer)
    kAdd,         ///< (rank + value) mod N
    kFoldedXor,   ///< old(new(rank) xor value), new/old: MPICH's fold of N onto a power of two
    kHeapChild,   ///< 2 rank + value (value 1 or 2): a child in a heap-ordered binary tree
    kHeapParent,  ///< (rank - 1) / 2: the parent in that tree (rank > 0)
  };
  Mode mode = Mode::kAbsolute;
  std::uint32_t value = 0;
};

/// The fold of N ranks onto pof2 = 2^floor(log2 N): the first 2 rem ranks pair up (rem = N -
/// pof2) and the odd one of each pair stands for both.
struct RankFold {
  std::uint32_t rem = 0;
  /// Precondition: `rank` takes part (odd below 2 rem, or at least 2 rem).
  std::uint32_t new_rank(std::uint32_t rank) const {
    return rank < 2 * rem ? rank / 2 : rank - rem;
  }
  std::uint32_t old_rank(std::uint32_t new_rank) const {
    return new_rank < rem ? new_rank * 2 + 1 : new_rank + rem;
  }
};

class GeneratedSchedule {
 public:
  /// One rank's program: its operations with peers as rules, and its dependencies (a one-rank
  /// Schedule whose peers are ignored).
  struct RankClass {
    Schedule program;
    std::vector<PeerRule> peers;
  };
  /// Ranks [begin, end) take the classes first_class, first_class + 1, ... first_class +
  /// period - 1 in turn.
  struct RankRun {
    std::uint32_t begin = 0;
    std::uint32_t end = 0;
    std::uint32_t first_class = 0;
    std::uint32_t period = 1;
  };

  /// Preconditions: runs cover [0, ranks) in order; every class a run names exists.
  GeneratedSchedule(std::uint32_t ranks, RankFold fold, std::vector<RankClass> classes,
                    const std::vector<RankRun>& runs);
  /// Rank r takes class class_of[r] (a layout with no runs to speak of, such as a tree's ranks
  /// by level; 12 bytes a rank). Precondition: class_of has `ranks` entries, each a class.
  GeneratedSchedule(std::uint32_t ranks, std::vector<RankClass> classes,
                    std::vector<std::uint32_t> class_of);

  std::uint32_t ranks() const { return ranks_; }
  /// All: a generated schedule has no background job (Schedule::timed_ranks).
  std::uint32_t timed_ranks() const { return ranks_; }
  std::uint64_t operations() const { return operations_; }
  std::uint32_t cpus() const { return cpus_; }
  std::uint32_t nics() const { return nics_; }
  std::uint64_t first_op(std::uint32_t rank) const { return place(rank).first; }
  std::uint32_t ops_of(std::uint32_t rank) const { return place(rank).cls->program.ops_of(0); }
  /// Bytes held (the class programs and the layout).
  std::uint64_t memory_bytes() const;
  /// Operations without dependencies: they all enter the engine's queue when a run starts.
  std::uint64_t ready_at_start() const;

  class RankView {
   public:
    std::uint64_t first() const { return first_; }
    std::uint32_t count() const { return c_->program.ops_of(0); }
    OpKind kind(std::uint64_t op) const { return c_->program.kind(op - first_); }
    std::uint64_t size(std::uint64_t op) const { return c_->program.size(op - first_); }
    std::uint32_t peer(std::uint64_t op) const { return g_->apply(c_->peers[op - first_], rank_); }
    std::uint32_t tag(std::uint64_t op) const { return c_->program.tag(op - first_); }
    std::uint8_t cpu(std::uint64_t op) const { return c_->program.cpu(op - first_); }
    std::uint8_t nic(std::uint64_t op) const { return c_->program.nic(op - first_); }
    std::uint32_t dependencies(std::uint64_t op) const {
      return c_->program.dependencies(op - first_);
    }
    Operation operation(std::uint64_t op) const {
      Operation o = c_->program.operation(op - first_);
      o.peer = peer(op);
      return o;
    }
    template <class Fn>
    void for_each_dependent(std::uint64_t op, Fn&& fn) const {
      c_->program.for_each_dependent(0, op - first_, fn);
    }
    /// The program of the rank's class (shared by every rank of the class).
    const Schedule& program() const { return c_->program; }

   private:
    friend class GeneratedSchedule;
    const GeneratedSchedule* g_ = nullptr;
    const RankClass* c_ = nullptr;
    std::uint64_t first_ = 0;
    std::uint32_t rank_ = 0;
  };
  RankView view(std::uint32_t rank) const {
    RankView v;
    const Place where = place(rank);
    v.g_ = this;
    v.c_ = where.cls;
    v.first_ = where.first;
    v.rank_ = rank;
    return v;
  }

  /// The schedule stored (for GOAL export and checks).
  Schedule materialize() const;

 private:
  struct Run {
    RankRun ranks;
    std::uint64_t first_op = 0;    ///< global index of rank `begin`'s first operation
    std::uint64_t period_ops = 0;  ///< operations of one period of classes
  };
  struct Place {
    const RankClass* cls;
    std::uint64_t first;
  };

  Place place(std::uint32_t rank) const {
    if (!class_of_.empty()) return {&classes_[class_of_[rank]], first_of_[rank]};
    const Run* run = runs_.data();
    while (rank >= run->ranks.end) ++run;
    const std::uint32_t offset = rank - run->ranks.begin;
    const std::uint32_t period = run->ranks.period;
    const std::uint32_t j = period == 1 ? 0 : offset % period;
    const std::uint32_t turns = period == 1 ? offset : offset / period;
    const std::uint32_t cls = run->ranks.first_class + j;
    return {&classes_[cls],
            run->first_op + std::uint64_t{turns} * run->period_ops + class_offset_[cls]};
  }
  std::uint32_t apply(const PeerRule& rule, std::uint32_t rank) const {
    switch (rule.mode) {
      case PeerRule::Mode::kAbsolute:
        return rule.value;
      case PeerRule::Mode::kAdd: {
        const std::uint64_t sum = std::uint64_t{rank} + rule.value;
        return static_cast<std::uint32_t>(sum >= ranks_ ? sum - ranks_ : sum);
      }
      case PeerRule::Mode::kFoldedXor:
        return fold_.old_rank(fold_.new_rank(rank) ^ rule.value);
      case PeerRule::Mode::kHeapChild:
        return 2 * rank + rule.value;
      case PeerRule::Mode::kHeapParent:
        return (rank - 1) / 2;
    }
    return rule.value;
  }

  std::uint32_t ranks_;
  RankFold fold_;
  std::vector<RankClass> classes_;
  std::vector<std::uint64_t> class_offset_;  ///< operations before the class within its period
  std::vector<Run> runs_;
  // The layout by table instead of runs (empty: by runs).
  std::vector<std::uint32_t> class_of_;
  std::vector<std::uint64_t> first_of_;
  std::uint64_t operations_ = 0;
  std::uint32_t cpus_ = 1;
  std::uint32_t nics_ = 1;
};

}  // namespace collnoise
