#pragma once
// The collective algorithms MPI libraries run, generated as schedules at any number of ranks
// (docs/models/schedules.md, "Built-in algorithms"): message sizes in bytes, root 0. Each is one
// file engine/schedules/algorithms/<name>.cpp, listed in algorithm_kinds() (algorithms.cpp).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/schedules/schedule/generated_schedule.hpp"
#include "engine/schedules/schedule/schedule.hpp"

namespace collnoise {

/// How a round-based algorithm posts its receives: "in_order" (a round's receive after its send,
/// as Chen & Suda's butterfly) or "preposted" (every receive posted at the start, as Schedgen's
/// schedules do).
enum class ReceiveOrder { kInOrder, kPreposted };

struct AlgorithmParams {
  std::uint32_t ranks = 2;
  std::uint64_t message_bytes = 8;  ///< the collective's message (allreduce: the vector) in bytes
  std::uint32_t k = 2;              ///< radix of k-nomial trees; n + 1 of an n-way dissemination
  std::uint32_t segments = 1;       ///< ring allreduce: pieces each chunk is sent in
  ReceiveOrder receives = ReceiveOrder::kInOrder;
  /// n-way dissemination: its reductions take message_bytes ns each, as Schedgen writes them
  /// (false: 0 ns, the calcs kept, as the benchmark's "_nocompute" variant simulates them).
  bool compute = true;
};

/// An algorithm's rounds, for the critical path's noise by step (docs/models/critical-path.md):
/// how many, and the round of each of a rank's sends and receives, from the operation itself.
/// A round is the algorithm's own communication step, as LogP counts them: a message's send and
/// its receive are in the same round, every round holds a message (N >= 2), and along a rank's
/// dependencies the round never decreases.
struct AlgorithmRounds {
  std::uint32_t count = 0;  ///< rounds, at least 1 (1 when N = 1: no messages)
  /// The round (< count) of `op`, a send or a receive of rank `rank` (found by its peer and tag).
  /// Precondition: `op` is one of the rank's sends or receives in the schedule generated with the
  /// same parameters (calcs never reach it).
  std::function<std::uint32_t(std::uint32_t rank, const Operation& op)> of;
};

/// A function every algorithm must give: an AlgorithmKind that leaves it out does not compile
/// (no default constructor: "use of deleted function RequiredFunction()"), and a null function
/// given for it is refused when the algorithms are registered (check_algorithm_kind).
template <class Signature>
class RequiredFunction;

template <class R, class... Args>
class RequiredFunction<R(Args...)> {
 public:
  RequiredFunction() = delete;
  /// Implicit, so that an entry reads `.rounds = ring_rounds`.
  template <class F>
  requires(std::is_invocable_r_v<R, const F&, Args...> &&
           !std::is_same_v<std::remove_cvref_t<F>, std::nullptr_t>) RequiredFunction(F f)
      : f_(std::move(f)) {}  // NOLINT(google-explicit-constructor)

  R operator()(Args... args) const { return f_(std::forward<Args>(args)...); }
  /// True only when built from a null function pointer or an empty std::function.
  bool empty() const { return !f_; }

 private:
  std::function<R(Args...)> f_;
};

struct AlgorithmKind {
  std::string name;     ///< "recursive_doubling_allreduce"
  std::string meaning;  ///< one line, with the libraries that use it
  bool uses_k = false;
  bool uses_segments = false;
  bool uses_receive_order = false;
  bool uses_compute = false;  ///< reads collective.compute (AlgorithmParams::compute)
  /// Builds the schedule. InputError naming the parameter when it cannot (k < 2, ...).
  RequiredFunction<Schedule(const AlgorithmParams&)> generate;
  /// The same schedule generated on the fly (memory independent of N), where the algorithm's
  /// pattern allows (empty function: never; nullopt: not with these parameters).
  std::function<std::optional<GeneratedSchedule>(const AlgorithmParams&)> generate_on_the_fly = {};
  /// How many operations the schedule holds (exact but for rounding; a double, as N^2 ones
  /// overflow): for estimates of work and memory before anything is built.
  RequiredFunction<double(const AlgorithmParams&)> operations;
  /// How many entries of its match lists a noisy sample searches through, where that grows faster
  /// than the operations (empty: it does not): the root of a linear gather posts its N - 1
  /// receives in rank order and noise makes the messages arrive in any order, so each searches
  /// half of them, N^2 / 4 in all (docs/models/schedules.md, "Performance").
  std::function<double(const AlgorithmParams&)> searches = {};
  /// The dependencies a cycle takes on the previous one when the schedule is repeated (about:
  /// the sum over ranks of cycle_join_dependencies, schedule.hpp), for the estimate of repeated
  /// cycles' memory before they are built (empty: computed from generate_on_the_fly).
  std::function<double(const AlgorithmParams&, bool with_compute)> cycle_joins = {};
  /// Its rounds with these parameters (every algorithm has them: the critical path spreads its
  /// noise over them; InputError where generate throws for a bad parameter, k < 2 or
  /// segments < 1). Cheap: computed from the parameters, not from a schedule; `of` costs at most
  /// O(log N).
  RequiredFunction<AlgorithmRounds(const AlgorithmParams&)> rounds;
};

/// The dependencies between two cycles of `algorithm` repeated (see AlgorithmKind::cycle_joins).
double cycle_joins_of(const AlgorithmKind& algorithm, const AlgorithmParams& p, bool with_compute);

/// Every built-in algorithm, in documentation order, each checked by check_algorithm_kind.
const std::vector<AlgorithmKind>& algorithm_kinds();
/// Refuses (std::logic_error naming the algorithm and the member) a kind without a name or with
/// a null generate, operations or rounds: a fault of the code, found when the algorithms are
/// registered.
void check_algorithm_kind(const AlgorithmKind& kind);
/// The algorithm named `name`, or null.
const AlgorithmKind* find_algorithm(const std::string& name);

}  // namespace collnoise
