#include "distributions/poisson_detours.hpp"
#include "distributions/law_kind.hpp"
#include "distributions/time_noise_kind.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/rng.hpp"

namespace collnoise {

PoissonDetours::PoissonDetours(double rate, double mean, std::shared_ptr<const NoiseLaw> duration)
    : rate_(rate), mean_(mean), duration_(std::move(duration)) {
  if (!(rate > 0.0) || !std::isfinite(rate))
    throw InputError(
        fmt::format("noise.rate = {} is invalid: detours per second must be > 0", rate));
  if (!(mean > 0.0) || !std::isfinite(mean))
    throw InputError(
        fmt::format("noise.duration.mean = {} is invalid: the mean detour must be > 0 s", mean));
}

void PoissonDetours::next_merged(Cursor& c, std::uint64_t key) const {
  Pcg32 stream = make_stream(key);
  stream.set_state(c.state);
  // Stream order per raw detour: its duration, then the gap to the next start.
  const auto duration = [&] { return mean_ * duration_->isf(stream.next_uniform()); };
  const auto gap = [&] { return -std::log(stream.next_uniform()) / rate_; };
  c.start = c.next_raw;
  c.end = c.start + duration();
  c.next_raw = c.start + gap();
  while (c.next_raw <= c.end) {
    c.end = std::max(c.end, c.next_raw + duration());
    c.next_raw += gap();
  }
  c.state = stream.state();
}

PoissonDetours::Cursor PoissonDetours::start_cursor(std::uint64_t key) const {
  Pcg32 stream = make_stream(key);
  Cursor c;
  c.next_raw = -std::log(stream.next_uniform()) / rate_;
  c.state = stream.state();
  next_merged(c, key);
  return c;
}

std::vector<Detour> PoissonDetours::detours_until(std::uint64_t key, double until) const {
  std::vector<Detour> list;
  for (Cursor c = start_cursor(key); c.start < until; next_merged(c, key))
    list.push_back({c.start, c.end});
  return list;
}

bool PoissonDetours::drew_from_fitted_tail(std::uint64_t key, double from, double until) const {
  const double share = duration_->fitted_tail_share();
  if (!(share > 0.0)) return false;
  // The raw detours in stream order (next_merged's: the first gap, then per detour its duration
  // and the gap to the next), not merged: a tail draw inside a merged detour counts too.
  Pcg32 stream = make_stream(key);
  for (double start = -std::log(stream.next_uniform()) / rate_; start < until;
       start += -std::log(stream.next_uniform()) / rate_) {
    const double u = stream.next_uniform();
    if (u <= share && start + mean_ * duration_->isf(u) > from) return true;
  }
  return false;
}

double PoissonDetours::advance(Cursor& c, std::uint64_t key, double t, double x) const {
  if (!(x > 0.0)) return t;
  while (c.end <= t) next_merged(c, key);
  while (true) {
    if (t < c.start) {
      const double room = c.start - t;
      if (x <= room) return t + x;
      x -= room;
    }
    t = c.end;
    next_merged(c, key);
  }
}

TimeNoiseKind poisson_noise_kind() {
  static const KeySpec rate{.name = "rate",
                            .meaning = "detours per second",
                            .unit = "1/seconds",
                            .bounds = {0.0, 1.0e9, true, false}};
  static const KeySpec duration_law{.name = "duration.law",
                                    .type = KeyType::kText,
                                    .meaning = "the unit-mean law of the detours' durations",
                                    .fallback = std::string("exponential")};
  static const KeySpec mean{.name = "duration.mean",
                            .meaning = "the mean detour",
                            .unit = "seconds",
                            .bounds = {0.0, kMaxSeconds, true, false}};
  return {.name = "poisson",
          .meaning = "detours starting at the events of a Poisson process, of random durations",
          .keys = {rate, duration_law, mean},
          .make = [](ParamReader& reader, const std::string& prefix) -> TimeNoiseLaw {
            const double r = reader.number(rate, prefix);
            const std::string law = reader.text(duration_law, prefix);
            const LawKind* kind = find_law_kind(law);
            if (!kind || !kind->nestable || law == "none")
              throw InputError(fmt::format(
                  "{} = \"{}\" is invalid: use a unit-mean law of distributions/ (not mixture or "
                  "none)",
                  full_key(duration_law, prefix), law));
            auto durations = kind->make(reader, prefix + ".duration");
            const double m = reader.number(mean, prefix);
            // Overlapping detours merge: at a load rate x mean of 5 a merged detour already
            // holds about e^5 = 150 of them, and beyond that their number grows exponentially
            // (the CPU is never free).
            if (r * m > 5.0)
              throw InputError(fmt::format(
                  "{} x {} = {:g} is out of range: at most 5 (the CPU would be busy {:.4g}% of "
                  "the time and detours would merge without end)",
                  full_key(rate, prefix), full_key(mean, prefix), r * m,
                  100.0 * (1.0 - std::exp(-r * m))));
            return std::make_shared<const PoissonDetours>(r, m, std::move(durations));
          }};
}

}  // namespace collnoise
