#include "distributions/time_noise.hpp"
#include "distributions/time_noise_kind.hpp"

#include <fmt/format.h>
#include <cmath>
#include <limits>

#include "core/errors.hpp"

namespace collnoise {

PatternNoise periodic_noise(double period, double duration) {
  if (!(period > 0.0) || !std::isfinite(period))
    throw InputError(
        fmt::format("noise.P = {} is invalid: the period must be > 0 seconds", period));
  if (!(duration > 0.0) || !(duration < period))
    throw InputError(fmt::format(
        "noise.D = {} is invalid: the detour must last > 0 seconds and less than noise.P = {}",
        duration, period));
  PatternNoise noise;
  noise.pattern = std::make_shared<const DetourPattern>(std::vector<Detour>{{0.0, duration}},
                                                        period, "periodic noise");
  noise.description = fmt::format("periodic(P={} s, D={} s)", period, duration);
  noise.period_key = "noise.P";
  return noise;
}

double tail_index(const TimeNoiseLaw& law) {
  if (std::holds_alternative<PatternNoise>(law)) return std::numeric_limits<double>::infinity();
  return std::get<std::shared_ptr<const PoissonDetours>>(law)->duration_tail_index();
}

double busy_fraction(const TimeNoiseLaw& law) {
  if (const auto* p = std::get_if<PatternNoise>(&law))
    return 1.0 - p->pattern->free_per_period() / p->pattern->span();
  // Poisson: the CPU is free at a time exactly when no detour started in the preceding
  // durations: P(free) = exp(-rate E[duration]) for a stationary process.
  const auto& poisson = *std::get<std::shared_ptr<const PoissonDetours>>(law);
  return -std::expm1(-poisson.rate() * poisson.mean_duration());
}

std::string describe(const TimeNoiseLaw& law) {
  if (const auto* p = std::get_if<PatternNoise>(&law)) return p->description;
  const auto& poisson = *std::get<std::shared_ptr<const PoissonDetours>>(law);
  return fmt::format("poisson(rate={} /s, mean duration={} s)", poisson.rate(),
                     poisson.mean_duration());
}

TimeNoiseKind periodic_noise_kind() {
  static const KeySpec period{
      .name = "P", .meaning = "the period", .unit = "seconds", .bounds = {1.0e-9, kMaxSeconds}};
  static const KeySpec detour{.name = "D",
                              .meaning = "the detour of every period (below P)",
                              .unit = "seconds",
                              .bounds = {0.0, kMaxSeconds, true, false}};
  return {.name = "periodic",
          .meaning = "a detour of D seconds every P seconds, each rank at a random phase",
          .keys = {period, detour},
          .make = [](ParamReader& reader, const std::string& prefix) -> TimeNoiseLaw {
            const double p = reader.number(period, prefix);
            return periodic_noise(p, reader.number(detour, prefix));
          }};
}

}  // namespace collnoise
