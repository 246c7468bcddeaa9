#include "distributions/truncated.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"

namespace collnoise {

TruncatedLaw::TruncatedLaw(std::shared_ptr<const NoiseLaw> base, double cap,
                           const std::string& param_name)
    : base_(std::move(base)), cap_(cap) {
  if (!(cap > 0.0) || !std::isfinite(cap))
    throw InputError(
        fmt::format("{} = {} is invalid: the cap must be a finite number > 0", param_name, cap));
  // E[min(X, c)] = E[X] - E[(X - c)^+].
  m_ = base_->mean() - base_->mean_excess(cap_);
  if (!(m_ > 0.0))
    throw InputError(fmt::format(
        "{}: the truncated law has no noise (E[min(X, cap)] = {}): give a base law with noise",
        param_name, m_));
}

std::string TruncatedLaw::describe() const {
  return fmt::format("truncated({}, cap={})", base_->describe(), cap_);
}

double TruncatedLaw::sf(double x) const {
  const double y = x * m_;
  return y < cap_ ? base_->sf(y) : 0.0;
}
double TruncatedLaw::cdf(double x) const {
  const double y = x * m_;
  return y < cap_ ? base_->cdf(y) : 1.0;
}
double TruncatedLaw::isf(double s) const {
  return std::min(base_->isf(s), cap_) / m_;
}
double TruncatedLaw::quantile(double p) const {
  return std::min(base_->quantile(p), cap_) / m_;
}
double TruncatedLaw::support_min() const {
  return std::min(base_->support_min(), cap_) / m_;
}

std::vector<double> TruncatedLaw::breakpoints() const {
  std::vector<double> points;
  for (const double b : base_->breakpoints())
    if (b < cap_) points.push_back(b / m_);
  points.push_back(cap_ / m_);  // the atom of every delay beyond the cap
  std::sort(points.begin(), points.end());
  return points;
}

// Integral of S_eta over [x, inf) = (1/m) integral of S_X over [x m, c).
double TruncatedLaw::mean_excess(double x) const {
  const double y = x * m_;
  if (y >= cap_) return 0.0;
  return (base_->mean_excess(y) - base_->mean_excess(cap_)) / m_;
}

// Integral of u S_eta(u) over [x, inf) = (1/m^2) integral of y S_X(y) over [x m, c): from the
// base law's closed forms where both are finite, else by quadrature (a heavy base tail).
double TruncatedLaw::second_excess(double x) const {
  const double y = x * m_;
  if (y >= cap_) return 0.0;
  const double from = base_->second_excess(y);
  const double beyond = base_->second_excess(cap_);
  if (std::isfinite(from) && std::isfinite(beyond)) return (from - beyond) / (m_ * m_);
  return NoiseLaw::second_excess(x);
}

LawKind truncated_law_kind() {
  static const KeySpec cap{.name = "cap",
                           .meaning = "the largest value of the base law's unit-mean variable",
                           .bounds = {0.0, 1.0e12, true, false}};
  static const KeySpec base{.name = "base",
                            .type = KeyType::kText,
                            .meaning = "table: the base law (law and its keys)",
                            .optional = true};
  return {.name = "truncated",
          .meaning = "a base law's unit-mean variable capped at cap, rescaled to unit mean",
          .shape_keys = {cap, base},
          .make = [](ParamReader& reader, const std::string& prefix) {
            // Any law but a mixture (whose components are a run file's array of tables).
            auto inner = read_unit_law(reader, prefix + ".base", true);
            return std::make_shared<const TruncatedLaw>(
                std::move(inner), reader.number(cap, prefix), full_key(cap, prefix));
          }};
}

}  // namespace collnoise
