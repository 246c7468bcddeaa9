#pragma once
// Noise on a schedule's CPU work (docs/models/schedules.md, "Noise"), as the schedule engine asks
// for it: end(rank, what, op, t, length, window) is when `length` ns of CPU work started at t
// ends. Times in nanoseconds.
//  - per-stage noise: every calc and every message overhead is a stage, delayed by its own draw
//    (f-laws in proportion to the stage's length; Bernoulli and measured delays by their own
//    scale), drawn from the stream of (replication, operation, what);
//  - time-based noise, with two semantics:
//      preempt    (collnoise's, the default) work stops during every detour, also those that
//                 begin while it is already stretched: the exact advance();
//      loggopsim  an operation is charged the rest of a detour in progress when it starts plus
//                 the detours that start within `window` of it (the unstretched length LogGOPSim
//                 exposes: o for a message, the length for a calc), and nothing more.
//    Each rank's detours start at its own random offset, or (co-scheduled) one offset for all
//    ranks of a node.
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "core/rng.hpp"
#include "distributions/detour_pattern.hpp"
#include "distributions/law_kind.hpp"
#include "distributions/poisson_detours.hpp"
#include "engine/schedules/engine/message_delays.hpp"
#include "engine/schedules/engine/schedule_engine.hpp"

namespace collnoise {

/// Per-stage noise on schedules.
class StageScheduleNoise {
 public:
  /// `noise` scaled for 1 second of work: f-laws (noise.proportional) delay a stage of x ns by
  /// x overhead eta ns; other laws by scale eta seconds.
  StageScheduleNoise(const StageNoise& noise, std::uint64_t replication_key)
      : noise_(&noise),
        key_(hash_combine(replication_key,
                          static_cast<std::uint64_t>(StreamPurpose::kStageDelay))) {}

  double end(std::uint32_t, Busy what, std::uint64_t op, double t, double length, double) const {
    if (noise_->scale == 0.0) return t + length;
    const double u =
        make_stream(hash_combine(hash_combine(key_, op), static_cast<std::uint64_t>(what)))
            .next_uniform();
    const double eta = noise_->eta->isf(u);
    const double delay =
        noise_->proportional ? length * noise_->overhead * eta : noise_->scale * 1e9 * eta;
    return t + length + delay;
  }

 private:
  const StageNoise* noise_;
  std::uint64_t key_;
};

enum class TimeSemantics { kPreempt, kLogGOPSim };

/// A repeating detour pattern (periodic noise, a trace) in nanoseconds.
class PatternScheduleNoise {
 public:
  /// `pattern` in nanoseconds; `ranks_per_offset`: ranks sharing one offset (1: independent;
  /// every rank: co-scheduled).
  PatternScheduleNoise(const DetourPattern& pattern, TimeSemantics semantics,
                       std::uint64_t replication_key, std::uint32_t ranks,
                       std::uint32_t ranks_per_offset)
      : PatternScheduleNoise(std::vector<const DetourPattern*>{&pattern}, semantics,
                             replication_key, ranks, ranks_per_offset) {}
  /// Rank r replays patterns[r mod their number] (the measurements of a trace, one per rank).
  PatternScheduleNoise(std::vector<const DetourPattern*> patterns, TimeSemantics semantics,
                       std::uint64_t replication_key, std::uint32_t ranks,
                       std::uint32_t ranks_per_offset)
      : patterns_(std::move(patterns)),
        semantics_(semantics),
        key_(
            hash_combine(replication_key, static_cast<std::uint64_t>(StreamPurpose::kNoiseOffset))),
        per_offset_(ranks_per_offset) {
    static_cast<void>(ranks);
  }

  double offset(std::uint32_t rank) const {
    return pattern_of(rank).span() *
           make_stream(hash_combine(key_, rank / per_offset_)).next_uniform();
  }

  /// The engine keeps, per rank, a lower bound of the next detour's start (exact preemption).
  struct RankSlot {
    float next_start = -std::numeric_limits<float>::infinity();
  };
  double end(std::uint32_t rank, RankSlot& slot, Busy, std::uint64_t, double t, double length,
             double window) const {
    if (semantics_ == TimeSemantics::kPreempt)
      return pattern_of(rank).advance_cached([&] { return offset(rank); }, t, length,
                                             slot.next_start);
    return t + length + charged(pattern_of(rank), offset(rank), t, window);
  }

 private:
  // LogGOPSim's rule: the rest of a detour in progress at t, plus every detour starting in
  // (t, t + window).
  double charged(const DetourPattern& pattern, double offset, double t, double window) const {
    double noise = 0.0;
    std::int64_t g = pattern.first_ending_after(t, offset);
    for (Detour d = pattern.detour(g, offset); d.start < t + window;
         d = pattern.detour(++g, offset))
      noise += d.start <= t ? d.end - t : d.end - d.start;
    return noise;
  }

  const DetourPattern& pattern_of(std::uint32_t rank) const {
    return *patterns_[patterns_.size() == 1 ? 0 : rank % patterns_.size()];
  }

  std::vector<const DetourPattern*> patterns_;
  TimeSemantics semantics_;
  std::uint64_t key_;
  std::uint32_t per_offset_;
};

/// Poisson detours in nanoseconds (exact preemption only).
class PoissonScheduleNoise {
 public:
  PoissonScheduleNoise(const PoissonDetours& detours, std::uint64_t replication_key,
                       std::uint32_t ranks, std::uint32_t ranks_per_offset)
      : detours_(&detours),
        key_(hash_combine(replication_key,
                          static_cast<std::uint64_t>(StreamPurpose::kPoissonDetours))),
        per_offset_(ranks_per_offset) {
    static_cast<void>(ranks);
  }

  /// The engine keeps each rank's cursor in its stream of detours.
  struct RankSlot {
    PoissonDetours::Cursor cursor;
    bool started = false;
  };
  double end(std::uint32_t rank, RankSlot& slot, Busy, std::uint64_t, double t, double length,
             double) const {
    const std::uint64_t key = hash_combine(key_, rank / per_offset_);
    if (!slot.started) {
      slot.cursor = detours_->start_cursor(key);
      slot.started = true;
    }
    return detours_->advance(slot.cursor, key, t, length);
  }
  /// Whether rank `rank` met a detour drawn from the durations' fitted tail while it was timed,
  /// from `from` to `until` ns (PoissonDetours::drew_from_fitted_tail).
  bool drew_from_fitted_tail(std::uint32_t rank, double from, double until) const {
    return detours_->drew_from_fitted_tail(hash_combine(key_, rank / per_offset_), from, until);
  }

 private:
  const PoissonDetours* detours_;
  std::uint64_t key_;
  std::uint32_t per_offset_;
};

/// CPU noise `Cpu` plus network noise: each message's extra latency drawn from the stream of
/// (replication, send).
template <class Cpu>
class WithMessageDelays {
 public:
  WithMessageDelays(Cpu& cpu, const MessageDelays& delays, std::uint64_t replication_key)
      : cpu_(&cpu),
        delays_(&delays),
        key_(hash_combine(replication_key,
                          static_cast<std::uint64_t>(StreamPurpose::kMessageDelay))),
        transfer_(delays.charges_transfer()) {}

  using RankSlot = NoiseSlot<Cpu>;
  double end(std::uint32_t rank, RankSlot& slot, Busy what, std::uint64_t op, double t,
             double length, double window) {
    if constexpr (kHasSlot<Cpu>)
      return cpu_->end(rank, slot, what, op, t, length, window);
    else
      return cpu_->end(rank, what, op, t, length, window);
  }
  /// The extra latency of the message of `send` (`bytes`, from rank `from` to rank `to`): from
  /// its pair's class's delays.
  double message_delay(std::uint64_t send, std::uint64_t bytes, std::uint32_t from,
                       std::uint32_t to) const {
    Pcg32 stream = make_stream(hash_combine(key_, send));
    if (!tail_marks_.empty()) mark_fitted_tail(stream, bytes, from, to);
    return delays_->of_pair(from, to).delay_ns(bytes, stream);
  }
  /// Marks in `marks` (one per rank, zeroed) every rank that receives a message whose latency
  /// was drawn from a fitted tail (MessageDelays::has_fitted_tails); `marks` outlives the run.
  void mark_fitted_tails(std::span<std::uint8_t> marks) { tail_marks_ = marks; }
  /// Whether the drawn bytes' time is charged on the transfer (MessageDelays::charges_transfer);
  /// then the engine asks message_charge at the send and again at the receive.
  bool charges_transfer() const { return transfer_; }
  /// The drawn costs of the message of `send`, from its own stream: the same at every call.
  MessageCharge message_charge(std::uint64_t send, std::uint64_t bytes, std::uint32_t from,
                               std::uint32_t to) const {
    Pcg32 stream = make_stream(hash_combine(key_, send));
    if (!tail_marks_.empty()) mark_fitted_tail(stream, bytes, from, to);
    return delays_->of_pair(from, to).message_charge(bytes, stream);
  }

 private:
  // The message's first uniform, read from a copy of its stream (the draw itself reads it again).
  void mark_fitted_tail(Pcg32 stream, std::uint64_t bytes, std::uint32_t from,
                        std::uint32_t to) const {
    if (delays_->of_pair(from, to).from_fitted_tail(bytes, stream.next_uniform()))
      tail_marks_[to] = 1;
  }

  Cpu* cpu_;
  const MessageDelays* delays_;
  std::uint64_t key_;
  bool transfer_;
  std::span<std::uint8_t> tail_marks_;
};

}  // namespace collnoise
