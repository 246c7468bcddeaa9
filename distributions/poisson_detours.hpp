#pragma once
// Poisson detours (docs/models/time-noise.md): detours start as a Poisson process of `rate` per
// second on each rank, with durations mean * eta (eta from a unit-mean law of distributions/);
// overlapping detours merge, the CPU being unavailable on their union. The process starts at t = 0
// (no detour is in progress at the start of a run; docs/modelling-choices.md).
//
// Each rank's detours come from its own pcg32 stream, drawn lazily: a cursor holds the current
// merged detour and the start of the next raw one, so a rank's state is 32 bytes and the
// detours are the same whichever engine asks, in whatever order the ranks are visited.
#include <cstdint>
#include <memory>

#include <vector>

#include "distributions/detour_pattern.hpp"
#include "distributions/noise_law.hpp"

namespace collnoise {

class PoissonDetours {
 public:
  /// Preconditions (checked: InputError naming the keys): rate > 0 (1/s), mean > 0 (s).
  PoissonDetours(double rate, double mean, std::shared_ptr<const NoiseLaw> duration);

  /// One rank's position in its detour stream. Times only move forward.
  struct Cursor {
    std::uint64_t state = 0;  ///< pcg32 state (the increment is rederived from the key)
    double start = 0.0;       ///< current merged detour [start, end): the first ending after
    double end = 0.0;         ///< the last time asked about
    double next_raw = 0.0;    ///< start of the next raw detour not merged in yet
  };

  /// A fresh cursor for the stream `key` (one key per rank and replication).
  Cursor start_cursor(std::uint64_t key) const;
  /// Earliest t' >= t with x seconds of detour-free time in [t, t'). Precondition: t is not
  /// before the previous call's t on this cursor; x >= 0.
  double advance(Cursor& cursor, std::uint64_t key, double t, double x) const;

  /// The merged detours of stream `key` that start before `until` (seconds), in order; the same
  /// ones advance() sees. For tests and diagnostics.
  std::vector<Detour> detours_until(std::uint64_t key, double until) const;

  /// Whether a raw detour of stream `key` that overlaps [from, until) drew its duration from the
  /// duration law's fitted tail (NoiseLaw::fitted_tail_share): the detours a rank met while it
  /// was timed. Always false (and free) for a law without one.
  bool drew_from_fitted_tail(std::uint64_t key, double from, double until) const;

  double rate() const { return rate_; }
  double mean_duration() const { return mean_; }
  /// The tail index of the detours' durations (infinity for light tails): times that meet them
  /// inherit it.
  double duration_tail_index() const { return duration_->tail_index(); }
  /// The unit-mean law of the durations (times mean_duration()).
  const std::shared_ptr<const NoiseLaw>& duration_law() const { return duration_; }

 private:
  void next_merged(Cursor& cursor, std::uint64_t key) const;

  double rate_;
  double mean_;
  std::shared_ptr<const NoiseLaw> duration_;
};

}  // namespace collnoise
