#pragma once
// A collective schedule in the GOAL sense (docs/models/schedules.md): for every rank, a set of
// operations (send, receive, compute) and the dependencies between them. An operation may start
// once every operation it `requires` has finished and every one it `irequires` has started.
//
// Stored compactly (32-bit where it suffices, 32 bytes an operation with its dependencies): what
// the engine reads of an operation at each of its events (kind, size, peer, tag, CPU, NIC and
// where its dependents end) in one 24-byte record, the rest (dependency counts, read once; the
// dependents themselves) in arrays of their own. Why records and not one array per field: the
// engine visits each rank's operations a few at a time, ranks apart, and one array per field
// made that six cache lines per operation instead of one (twice the engine's speed on GOAL
// files). A 2^16-rank dissemination barrier takes 63 MB, a seventh of what LogGOPSim needs for
// the same schedule. Operation k of rank r is op(r, k) = first_op(r) + k.
#include <fmt/format.h>

#include <concepts>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/huge_page_allocator.hpp"

namespace collnoise {

enum class OpKind : std::uint8_t { kSend = 1, kRecv = 2, kCalc = 3 };

/// A receive from any source, or a message of any tag (GOAL's -1).
inline constexpr std::uint32_t kAnyPeer = std::numeric_limits<std::uint32_t>::max();
inline constexpr std::uint32_t kAnyTag = std::numeric_limits<std::uint32_t>::max();

/// One operation as a builder gives it.
struct Operation {
  OpKind kind = OpKind::kCalc;
  std::uint64_t size = 0;  ///< bytes (send, recv) or nanoseconds (calc)
  std::uint32_t peer = 0;  ///< destination (send), source or kAnyPeer (recv)
  std::uint32_t tag = 0;   ///< or kAnyTag
  std::uint8_t cpu = 0;    ///< the rank's CPU that runs it
  std::uint8_t nic = 0;    ///< the rank's NIC that carries it
};

/// An operation as messages name it: "send to 3 (8 b), tag 0", "recv from any (8 b), tag any",
/// "calc 6002 ns" (a calc has no peer and no tag).
std::string operation_text(const Operation& o);

class Schedule {
 public:
  std::uint32_t ranks() const { return static_cast<std::uint32_t>(starts_.size() - 1); }
  /// The ranks a run times: all, or the first ones when a background job's ranks follow them
  /// (with_background_job, engine/schedules/schedule/background_job.hpp): a run's finishing
  /// times are those ranks'.
  std::uint32_t timed_ranks() const { return timed_ranks_ == 0 ? ranks() : timed_ranks_; }
  std::uint64_t operations() const { return ops_.size(); }
  /// CPUs and NICs per rank: one more than the largest index any operation names.
  std::uint32_t cpus() const { return max_cpu_ + 1U; }
  std::uint32_t nics() const { return max_nic_ + 1U; }

  std::uint64_t first_op(std::uint32_t rank) const { return starts_[rank].op; }
  std::uint32_t ops_of(std::uint32_t rank) const {
    return static_cast<std::uint32_t>(starts_[rank + 1].op - starts_[rank].op);
  }

  OpKind kind(std::uint64_t op) const { return ops_[op].kind; }
  std::uint64_t size(std::uint64_t op) const { return ops_[op].size; }
  std::uint32_t peer(std::uint64_t op) const { return ops_[op].peer; }
  std::uint32_t tag(std::uint64_t op) const { return ops_[op].tag; }
  std::uint8_t cpu(std::uint64_t op) const { return ops_[op].cpu; }
  std::uint8_t nic(std::uint64_t op) const { return ops_[op].nic; }
  /// The operation as a record.
  Operation operation(std::uint64_t op) const;
  /// How many operations (requires and irequires) must finish or start before `op` may start.
  std::uint32_t dependencies(std::uint64_t op) const { return dep_count_[op]; }

  /// The dependents of `op`, in the order they were declared: local operation indices of the same
  /// rank; `started` marks an irequires (released when `op` starts, else when it finishes).
  struct Dependent {
    std::uint32_t local;
    bool started;
  };
  template <class Fn>
  void for_each_dependent(std::uint32_t rank, std::uint64_t op, Fn&& fn) const {
    const std::uint64_t base = starts_[rank].edge;
    const std::uint64_t begin = op == starts_[rank].op ? 0 : ops_[op - 1].edge_end;
    for (std::uint64_t e = base + begin; e < base + ops_[op].edge_end; ++e) {
      const std::uint32_t packed = edge_[e];
      fn(Dependent{packed & kLocalMask, (packed & kStartedBit) != 0});
    }
  }

  /// Bytes held by the schedule's arrays.
  std::uint64_t memory_bytes() const;
  /// Operations without dependencies: they all enter the engine's queue when a run starts.
  std::uint64_t ready_at_start() const;

  /// The operations of one rank, by global index, as the engine reads any kind of schedule
  /// (a generated schedule's views compute what this one looks up).
  class RankView {
   public:
    RankView(const Schedule& s, std::uint32_t rank) : s_(&s), rank_(rank) {}
    std::uint64_t first() const { return s_->first_op(rank_); }
    std::uint32_t count() const { return s_->ops_of(rank_); }
    OpKind kind(std::uint64_t op) const { return s_->kind(op); }
    std::uint64_t size(std::uint64_t op) const { return s_->size(op); }
    std::uint32_t peer(std::uint64_t op) const { return s_->peer(op); }
    std::uint32_t tag(std::uint64_t op) const { return s_->tag(op); }
    std::uint8_t cpu(std::uint64_t op) const { return s_->cpu(op); }
    std::uint8_t nic(std::uint64_t op) const { return s_->nic(op); }
    std::uint32_t dependencies(std::uint64_t op) const { return s_->dependencies(op); }
    Operation operation(std::uint64_t op) const { return s_->operation(op); }
    template <class Fn>
    void for_each_dependent(std::uint64_t op, Fn&& fn) const {
      s_->for_each_dependent(rank_, op, fn);
    }

   private:
    const Schedule* s_;
    std::uint32_t rank_;
  };
  RankView view(std::uint32_t rank) const { return RankView(*this, rank); }

 private:
  friend class ScheduleBuilder;
  static constexpr std::uint32_t kStartedBit = 1U << 31;
  static constexpr std::uint32_t kLocalMask = kStartedBit - 1;

  /// What the engine reads of an operation, 24 bytes.
  struct Record {
    std::uint64_t size;
    std::uint32_t peer;
    std::uint32_t tag;
    /// Its dependents end at starts_[rank].edge + edge_end and begin where the previous
    /// operation's end (0 for a rank's first).
    std::uint32_t edge_end;
    OpKind kind;
    std::uint8_t cpu;
    std::uint8_t nic;
  };
  static_assert(sizeof(Record) == 24);

  /// Where each rank's operations and dependents begin (ranks + 1 entries: the last, where they
  /// end), side by side as the engine reads both of a rank at once.
  struct RankStart {
    std::uint64_t op;
    std::uint64_t edge;
  };
  std::vector<RankStart> starts_{RankStart{0, 0}};
  HugeVector<Record> ops_;
  std::vector<std::uint32_t> dep_count_;
  /// Dependents in compressed rows, 4 bytes each (see Record::edge_end).
  HugeVector<std::uint32_t> edge_;
  std::uint8_t max_cpu_ = 0;
  std::uint8_t max_nic_ = 0;
  std::uint32_t timed_ranks_ = 0;  ///< 0: all
};

/// Builds a schedule rank by rank: the operations of one rank, then its dependencies (by local
/// index), then end_rank(); ranks in order 0, 1, ... A rank's dependencies may be declared in any
/// order; end_rank() checks them (InputError: a cycle) and stores them compactly.
class ScheduleBuilder {
 public:
  /// Room for `operations` in all (a hint: more may follow).
  void reserve(std::uint64_t operations);
  /// Ops of a rank beyond 2^31 - 1 are refused (InputError), as local indices are 31 bits.
  std::uint32_t add(const Operation& op);
  /// `later` may start once `earlier` has finished (requires) or started (irequires:
  /// `started`). Local indices of the current rank.
  void depend(std::uint32_t later, std::uint32_t earlier, bool started);
  /// Closes the current rank. InputError naming where() (called only then: a reader of millions
  /// of ranks does not format a location per rank) and the operations of a cycle.
  template <std::invocable Where>
  void end_rank(const Where& where) {
    if (const auto cycle = close_rank()) throw InputError(fmt::format("{}: {}", where(), *cycle));
  }
  void end_rank(const std::string& where) {
    end_rank([&] { return where; });
  }
  /// The schedule of every rank ended so far.
  Schedule finish();
  /// The schedule of every rank ended so far, of which a run times the first `timed` only (the
  /// others a background job's). Precondition: 0 < timed <= ranks_done().
  Schedule finish_timing(std::uint32_t timed);
  std::uint32_t ranks_done() const { return static_cast<std::uint32_t>(s_.starts_.size() - 1); }
  /// The last rank ended. Precondition: one was, and none is open.
  Schedule::RankView last_rank() const { return s_.view(ranks_done() - 1); }
  /// Forgets the last rank ended (a reader that keeps it elsewhere, as a rank class).
  /// Precondition: one was, and none is open.
  void drop_last_rank();
  /// Appends a rank of another schedule (stored or generated), operation by operation, and
  /// ends it. Its peers move by `peer_offset` (a schedule placed after another's ranks; a
  /// wildcard stays one); `what` names the rank in an error.
  template <class View>
  void append_rank(const View& v, std::uint32_t peer_offset = 0,
                   const char* what = "a copied rank") {
    for (std::uint64_t op = v.first(); op < v.first() + v.count(); ++op) {
      Operation o = v.operation(op);
      if (o.kind != OpKind::kCalc && o.peer != kAnyPeer) o.peer += peer_offset;
      add(o);
    }
    for (std::uint64_t op = v.first(); op < v.first() + v.count(); ++op)
      v.for_each_dependent(op, [&](const Schedule::Dependent& d) {
        depend(d.local, static_cast<std::uint32_t>(op - v.first()), d.started);
      });
    end_rank([what] { return std::string(what); });
  }
  std::uint32_t ops_in_rank() const { return static_cast<std::uint32_t>(pending_ops_); }
  /// Bytes its arrays hold (capacity), and those of the largest (whose next growth briefly
  /// holds it twice): what a reader checks against the memory limit.
  std::uint64_t memory_bytes() const;
  double largest_array_bytes() const;

 private:
  /// Stores the current rank's dependencies; what keeps them from forming a DAG, if anything.
  std::optional<std::string> close_rank();

  Schedule s_;
  std::uint64_t pending_ops_ = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pending_edges_;  ///< (earlier, later|bit)
  // Per-rank scratch kept across ranks (no allocation per rank).
  std::vector<std::uint32_t> remaining_, begin_, ready_, sorted_;
};

/// `cycles` repetitions of `one`, each rank computing `compute_ns` before each (a calc that waits
/// for the rank's previous cycle). One cycle without compute is `one` itself. InputError (before
/// anything is built) when the repeated schedule would exceed the memory limit
/// (core/memory_limit.hpp).
Schedule repeat_schedule(const Schedule& one, std::uint32_t cycles, std::uint64_t compute_ns);

/// The dependencies one rank's cycle takes on its previous cycle in repeat_schedule(): without
/// compute, each first operation (no dependencies) waits for every last one (no dependents), so a
/// linear scatter's root adds (N - 1)^2 per cycle; with compute, the calc between them takes
/// both. `v`: a rank's view of any schedule (Schedule::RankView or a generated one's).
template <class View>
double cycle_join_dependencies(const View& v, bool with_compute) {
  double first = 0.0, last = 0.0;
  for (std::uint64_t op = v.first(); op < v.first() + v.count(); ++op) {
    if (v.dependencies(op) == 0) first += 1.0;
    bool has_dependents = false;
    v.for_each_dependent(op, [&](const Schedule::Dependent&) { has_dependents = true; });
    if (!has_dependents) last += 1.0;
  }
  return with_compute ? first + last : first * last;
}

/// What repeat_schedule() builds, estimated from the one cycle's ranks, operations and join
/// dependencies (the sum of cycle_join_dependencies over the ranks): bytes.
double repeated_schedule_bytes(double ranks, double operations, double dependencies, double joins,
                               std::uint32_t cycles, bool with_compute);

}  // namespace collnoise
