#include "distributions/mixture.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <memory>

#include "core/errors.hpp"
#include "distributions/bisection.hpp"

namespace collnoise {

MixtureLaw::MixtureLaw(std::vector<MixtureComponent> components, const std::string& param_name)
    : components_(std::move(components)) {
  if (components_.empty())
    throw InputError(
        fmt::format("{} is empty: a mixture needs at least one component", param_name));
  double total = 0.0;
  for (std::size_t j = 0; j < components_.size(); ++j) {
    const double w = components_[j].weight;
    if (!(w > 0.0 && w <= 1.0e12))
      throw InputError(fmt::format(
          "{}[{}].weight = {} is out of range: weights must lie in (0, 1e12]", param_name, j, w));
    total += w;
  }
  raw_mean_ = 0.0;
  for (auto& c : components_) {
    c.weight /= total;
    raw_mean_ += c.weight * c.law->mean();
  }
  if (!(raw_mean_ > 0.0))
    throw InputError(
        fmt::format("{}: every component is `none`, the mixture has no noise", param_name));
}

std::string MixtureLaw::describe() const {
  std::string out = "mixture(";
  for (std::size_t j = 0; j < components_.size(); ++j)
    out += fmt::format("{}{}:{}", j ? ", " : "", components_[j].weight,
                       components_[j].law->describe());
  return out + ")";
}

double MixtureLaw::sf(double x) const {
  double s = 0.0;
  for (const auto& c : components_) s += c.weight * c.law->sf(x * raw_mean_);
  return std::min(s, 1.0);
}

double MixtureLaw::cdf(double x) const {
  double f = 0.0;
  for (const auto& c : components_) f += c.weight * c.law->cdf(x * raw_mean_);
  return std::min(f, 1.0);
}

double MixtureLaw::isf(double s) const {
  // The answer lies between the smallest and largest component ISFs (S is a weighted average).
  double lo = std::numeric_limits<double>::infinity();
  double hi = 0.0;
  for (const auto& c : components_) {
    const double x = c.law->isf(s) / raw_mean_;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  return first_true_nonnegative(lo, hi, [&](double x) { return sf(x) <= s; });
}

double MixtureLaw::quantile(double p) const {
  double lo = std::numeric_limits<double>::infinity();
  double hi = 0.0;
  for (const auto& c : components_) {
    const double x = c.law->quantile(p) / raw_mean_;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  return first_true_nonnegative(lo, hi, [&](double x) { return cdf(x) >= p; });
}

double MixtureLaw::tail_index() const {
  double alpha = std::numeric_limits<double>::infinity();
  for (const auto& c : components_) alpha = std::min(alpha, c.law->tail_index());
  return alpha;
}

double MixtureLaw::support_max() const {
  double hi = 0.0;
  for (const auto& c : components_) hi = std::max(hi, c.law->support_max() / raw_mean_);
  return hi;
}

double MixtureLaw::support_min() const {
  double lo = std::numeric_limits<double>::infinity();
  for (const auto& c : components_) lo = std::min(lo, c.law->support_min() / raw_mean_);
  return lo;
}

std::vector<double> MixtureLaw::breakpoints() const {
  std::vector<double> points;
  for (const auto& c : components_)
    for (double b : c.law->breakpoints()) points.push_back(b / raw_mean_);
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

bool MixtureLaw::is_discrete() const {
  return std::all_of(components_.begin(), components_.end(),
                     [](const auto& c) { return c.law->is_discrete(); });
}

double MixtureLaw::mean_excess(double x) const {
  double total = 0.0;
  for (const auto& c : components_) total += c.weight * c.law->mean_excess(x * raw_mean_);
  return total / raw_mean_;
}

double MixtureLaw::second_excess(double x) const {
  double total = 0.0;
  for (const auto& c : components_) total += c.weight * c.law->second_excess(x * raw_mean_);
  return total / (raw_mean_ * raw_mean_);
}

double MixtureLaw::isf_seconds() const {
  // About 50 bisection steps, each evaluating every component's survival function.
  double per_step = 0.0;
  for (const auto& c : components_) per_step += c.law->isf_seconds();
  return 50.0 * per_step / 2.0;
}

namespace {

const KeySpec& weight_key() {
  static const KeySpec weight{.name = "weight",
                              .meaning = "the component's weight (normalised to sum 1)",
                              .bounds = {0.0, 1.0e12, true, false}};
  return weight;
}

// The components noise.components[0], [1], ...: each a unit-mean law and its weight. The point
// records them as one line (law and given numbers, in key order) under noise.components.
std::shared_ptr<const NoiseLaw> read_mixture(ParamReader& reader, const std::string& prefix) {
  std::vector<MixtureComponent> parts;
  std::string description;
  for (std::size_t j = 0;; ++j) {
    const std::string at = fmt::format("{}.components[{}]", prefix, j);
    if (!reader.has(at + ".law")) break;
    const LawKind& kind = read_law_kind(reader, at, true);
    auto law = kind.make(reader, at);
    const double weight = reader.number(weight_key(), at);
    parts.push_back({std::move(law), weight});
    // Described as given: the law, then every key read under the component (its shape, its
    // weight, a wrapped law's keys) in key order; they join the record as this one line.
    description += kind.name;
    std::vector<std::string> read;
    for (const auto& [name, value] : reader.resolved())
      if (name.starts_with(at + ".")) read.push_back(name);
    for (const auto& name : read) {
      if (name != at + ".law")
        description +=
            fmt::format(" {}={}", name.substr(at.size() + 1), to_text(reader.resolved().at(name)));
      reader.forget(name, true);
    }
    description += ";";
  }
  if (parts.empty())
    throw InputError(fmt::format("{}.components is missing: a mixture needs components", prefix));
  reader.derive(prefix + ".components", description);
  return std::make_shared<const MixtureLaw>(std::move(parts), prefix + ".components");
}

}  // namespace

LawKind mixture_law_kind() {
  static const KeySpec components{
      .name = "components",
      .type = KeyType::kText,
      .meaning = "array of tables, each a law (law and its keys) and its weight",
      .optional = true,
      .table_array = true};
  return {.name = "mixture",
          .meaning = "component j drawn with probability weight_j, rescaled to unit mean",
          .shape_keys = {components},
          .make = read_mixture,
          .nestable = false};
}

}  // namespace collnoise
