#pragma once
// The CPUs of all ranks in one replication, as the engines see them: a compute stage of x
// seconds started at t ends at compute(rank, cycle, t, x), a CPU overhead (send, receive) at
// op(rank, t, x). Policies are types, not virtual calls, because the engines call them several
// times per rank and round:
//  - QuietCpu: no noise.
//  - PatternCpu: periodic or trace noise; each rank's pattern offset is uniform in [0, span),
//    drawn from its own stream keyed by (replication, rank), so any engine visiting ranks in any
//    order sees the same detours. A cached lower bound of the next detour start per rank (a
//    float) makes the common case, work that ends before the next detour, one comparison:
//    4 bytes a rank.
//  - PoissonCpu: per-rank Poisson detour cursors (32 bytes a rank).
//  - StageCpu: per-stage noise (docs/models/noise-laws.md) on compute stages only; the stage delay
//  of
//    (cycle, rank) comes from its own stream. Overheads are not delayed.
//  - QuietOps<Cpu>: Cpu's compute stages, undelayed overheads (the "quiet" collective).
// Preconditions: for each rank, t never decreases from one call to the next.
#include <cstdint>
#include <limits>
#include <optional>
#include <variant>
#include <vector>

#include "core/rng.hpp"
#include "distributions/law_spec.hpp"
#include "distributions/time_noise.hpp"

namespace collnoise {

struct QuietCpu {
  double compute(std::size_t, std::uint64_t, double t, double x) const { return t + x; }
  double op(std::size_t, double t, double x) const { return t + x; }
};

class PatternCpu {
 public:
  PatternCpu(const DetourPattern& pattern, std::uint64_t replication_key, std::size_t ranks)
      : pattern_(&pattern),
        key_(
            hash_combine(replication_key, static_cast<std::uint64_t>(StreamPurpose::kNoiseOffset))),
        next_start_(ranks, -std::numeric_limits<float>::infinity()) {}

  /// Rank's pattern offset: seconds in [0, span), the first uniform of its own stream. Asked for
  /// only when the cached bound does not settle an answer, so it is drawn again, not stored.
  double offset(std::size_t rank) const {
    return pattern_->span() * make_stream(hash_combine(key_, rank)).next_uniform();
  }
  [[gnu::always_inline]] double op(std::size_t rank, double t, double x) {
    return pattern_->advance_cached([&] { return offset(rank); }, t, x, next_start_[rank]);
  }
  double compute(std::size_t rank, std::uint64_t, double t, double x) { return op(rank, t, x); }

 private:
  const DetourPattern* pattern_;
  std::uint64_t key_;
  std::vector<float> next_start_;  ///< lower bound of each rank's next detour start
};

class PoissonCpu {
 public:
  PoissonCpu(const PoissonDetours& detours, std::uint64_t replication_key, std::size_t ranks)
      : detours_(&detours),
        key_(hash_combine(replication_key,
                          static_cast<std::uint64_t>(StreamPurpose::kPoissonDetours))),
        cursors_(ranks),
        started_(ranks, 0) {}

  double op(std::size_t rank, double t, double x) {
    const std::uint64_t key = hash_combine(key_, rank);
    if (!started_[rank]) {
      cursors_[rank] = detours_->start_cursor(key);
      started_[rank] = 1;
    }
    return detours_->advance(cursors_[rank], key, t, x);
  }
  double compute(std::size_t rank, std::uint64_t, double t, double x) { return op(rank, t, x); }

 private:
  const PoissonDetours* detours_;
  std::uint64_t key_;
  std::vector<PoissonDetours::Cursor> cursors_;
  std::vector<std::uint8_t> started_;
};

class StageCpu {
 public:
  StageCpu(const StageNoise& noise, std::uint64_t replication_key)
      : noise_(&noise),
        key_(hash_combine(replication_key,
                          static_cast<std::uint64_t>(StreamPurpose::kStageDelay))) {}

  /// The stage delay of (cycle, rank), seconds.
  double delay(std::size_t rank, std::uint64_t cycle) const {
    if (noise_->scale == 0.0) return 0.0;
    const double u = make_stream(hash_combine(hash_combine(key_, cycle), rank)).next_uniform();
    return noise_->scale * noise_->eta->isf(u);
  }
  double compute(std::size_t rank, std::uint64_t cycle, double t, double x) const {
    return t + x + delay(rank, cycle);
  }
  double op(std::size_t, double t, double x) const { return t + x; }

 private:
  const StageNoise* noise_;
  std::uint64_t key_;
};

/// Detours placed by hand, per rank, in absolute time (worked examples, tests): the CPU of rank
/// i is unavailable on the union of its intervals.
class ListedCpu {
 public:
  /// detours[i]: rank i's detours, seconds (any order; overlaps merge).
  explicit ListedCpu(std::vector<std::vector<Detour>> detours);
  double op(std::size_t rank, double t, double x) const;
  double compute(std::size_t rank, std::uint64_t, double t, double x) const {
    return op(rank, t, x);
  }

 private:
  std::vector<std::vector<Detour>> busy_;  ///< merged and sorted per rank
};

template <class Cpu>
class QuietOps {
 public:
  explicit QuietOps(Cpu& cpu) : cpu_(&cpu) {}
  double compute(std::size_t rank, std::uint64_t cycle, double t, double x) {
    return cpu_->compute(rank, cycle, t, x);
  }
  double op(std::size_t, double t, double x) const { return t + x; }

 private:
  Cpu* cpu_;
};

/// The noise of a point, from which each replication's CPUs are built: per-stage (compute
/// stages only) or time-based; neither means no noise.
struct CpuNoiseSpec {
  std::optional<StageNoise> stage;
  std::optional<TimeNoiseLaw> time;
};

using ReplicationCpu = std::variant<QuietCpu, PatternCpu, PoissonCpu, StageCpu>;

/// The CPUs of one replication: every draw keyed by `replication_key`, so the cases of a
/// replication (quiet, conventional, redundant) built from one key see the same noise.
inline ReplicationCpu make_replication_cpu(const CpuNoiseSpec& spec, std::uint64_t replication_key,
                                           std::size_t ranks) {
  if (spec.stage) return StageCpu(*spec.stage, replication_key);
  if (!spec.time) return QuietCpu{};
  if (const auto* pattern = std::get_if<PatternNoise>(&*spec.time))
    return PatternCpu(*pattern->pattern, replication_key, ranks);
  return PoissonCpu(*std::get<std::shared_ptr<const PoissonDetours>>(*spec.time), replication_key,
                    ranks);
}

/// Calls fn with the replication's CPUs, or with them behind QuietOps (overheads undelayed).
template <class Fn>
auto with_cpu(ReplicationCpu& cpu, bool quiet_overheads, Fn&& fn) {
  return std::visit(
      [&](auto& c) {
        if (quiet_overheads) {
          QuietOps<std::decay_t<decltype(c)>> quiet(c);
          return fn(quiet);
        }
        return fn(c);
      },
      cpu);
}

}  // namespace collnoise
