#pragma once
// A value that may not exist (infinite variance, a bound undefined for this N), carried with the
// reason it does not. Outputs store it as absent-with-reason, never as NaN.
#include <optional>
#include <string>

namespace collnoise {

struct Nullable {
  std::optional<double> value;
  std::string reason;  ///< why there is no value; empty when there is one

  static Nullable of(double v) { return {v, {}}; }
  static Nullable null(std::string why) { return {std::nullopt, std::move(why)}; }
  bool has_value() const { return value.has_value(); }
};

}  // namespace collnoise
