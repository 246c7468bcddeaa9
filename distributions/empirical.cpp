#include "distributions/empirical.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <numeric>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/shown_text.hpp"
#include "core/stop_request.hpp"

namespace collnoise {

EmpiricalLaw EmpiricalLaw::from_file(const std::string& path) {
  TextLines in(path, fmt::format("empirical noise file '{}'", path));
  std::vector<double> delays;
  std::string line;
  for (int line_no = 1; in.next(line); ++line_no) {
    if ((line_no & 0xffff) == 0) throw_if_stop_requested();  // delay files can be large
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    const char* begin = line.c_str() + first;
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(begin, &end);
    const bool rest_blank = std::string_view(end).find_first_not_of(" \t\r") == std::string::npos;
    if (end == begin || !rest_blank || errno == ERANGE || !std::isfinite(value))
      throw InputError(fmt::format("{}:{}: {} is not a delay in seconds", path, line_no,
                                   quoted_text(std::string_view(line).substr(first))));
    if (value < 0.0)
      throw InputError(fmt::format("{}:{}: negative delay {}", path, line_no, value));
    if (value > 1.0e6)
      throw InputError(
          fmt::format("{}:{}: delay {:g} s is out of range: delays must lie within 1e6 seconds",
                      path, line_no, value));
    delays.push_back(value);
  }
  if (delays.empty())
    throw InputError(fmt::format("empirical noise file '{}' has no delays", path));
  return EmpiricalLaw(std::move(delays), path);
}

EmpiricalLaw::EmpiricalLaw(std::vector<double> delays, std::string source)
    : source_(std::move(source)) {
  if (delays.empty()) throw InputError(fmt::format("empirical noise '{}' has no delays", source_));
  for (double d : delays)
    if (!(d >= 0.0) || !std::isfinite(d))
      throw InputError(fmt::format("empirical noise '{}' has an invalid delay {}", source_, d));
  std::sort(delays.begin(), delays.end());
  mean_delay_ =
      std::accumulate(delays.begin(), delays.end(), 0.0) / static_cast<double>(delays.size());
  if (!(mean_delay_ > 0.0))
    throw InputError(fmt::format("empirical noise '{}': every delay is zero", source_));
  eta_.reserve(delays.size());
  for (double d : delays) eta_.push_back(d / mean_delay_);
  suffix_sum_.assign(eta_.size() + 1, 0.0);
  suffix_sq_.assign(eta_.size() + 1, 0.0);
  for (std::size_t i = eta_.size(); i-- > 0;) {
    suffix_sum_[i] = suffix_sum_[i + 1] + eta_[i];
    suffix_sq_[i] = suffix_sq_[i + 1] + eta_[i] * eta_[i];
  }
}

std::string EmpiricalLaw::describe() const {
  return fmt::format("empirical({}, {} values)", source_, eta_.size());
}

std::size_t EmpiricalLaw::count_above(double x) const {
  return static_cast<std::size_t>(eta_.end() - std::upper_bound(eta_.begin(), eta_.end(), x));
}

double EmpiricalLaw::sf(double x) const {
  return static_cast<double>(count_above(x)) / static_cast<double>(eta_.size());
}

double EmpiricalLaw::isf(double s) const {
  // inf{x : S(x) <= s} is the j-th smallest value with j = m - floor(s m) (1-based).
  const auto m = static_cast<double>(eta_.size());
  const double drop = std::floor(std::clamp(s, 0.0, 1.0) * m);
  const auto j = static_cast<std::size_t>(std::clamp(m - drop, 1.0, m));
  return eta_[j - 1];
}

double EmpiricalLaw::quantile(double p) const {
  const auto m = static_cast<double>(eta_.size());
  const auto j = static_cast<std::size_t>(std::clamp(std::ceil(p * m), 1.0, m));
  return eta_[j - 1];
}

std::vector<double> EmpiricalLaw::breakpoints() const {
  std::vector<double> unique_values = eta_;
  unique_values.erase(std::unique(unique_values.begin(), unique_values.end()), unique_values.end());
  return unique_values;
}

double EmpiricalLaw::expected_max(double n) const {
  // The maximum of n draws is the j-th order value with probability (j/m)^n - ((j-1)/m)^n.
  const auto m = static_cast<double>(eta_.size());
  double total = 0.0;
  double below = 0.0;  // ((j-1)/m)^n
  for (std::size_t j = 1; j <= eta_.size(); ++j) {
    const double upto = std::exp(n * std::log(static_cast<double>(j) / m));
    total += eta_[j - 1] * (upto - below);
    below = upto;
  }
  return total;
}

double EmpiricalLaw::mean_excess(double x) const {
  const std::size_t first = eta_.size() - count_above(x);
  const auto m = static_cast<double>(eta_.size());
  const double above = static_cast<double>(eta_.size() - first);
  const double below_zero = x < 0.0 ? -x * static_cast<double>(first) : 0.0;  // S = 1 on [x, 0)
  return (suffix_sum_[first] - x * above + below_zero) / m;
}

double EmpiricalLaw::second_excess(double x) const {
  const std::size_t first = eta_.size() - count_above(x);
  const auto m = static_cast<double>(eta_.size());
  const double above = static_cast<double>(eta_.size() - first);
  double value = 0.5 * (suffix_sq_[first] - x * x * above) / m;
  if (x < 0.0) value += -0.5 * x * x * static_cast<double>(first) / m;
  return value;
}

namespace {

const KeySpec& delay_file_key() {
  static const KeySpec file{.name = "file",
                            .type = KeyType::kFile,
                            .meaning = "measured delays, one per line, in seconds"};
  return file;
}

std::shared_ptr<const EmpiricalLaw> read_delays(ParamReader& reader, const std::string& prefix) {
  return std::make_shared<const EmpiricalLaw>(
      EmpiricalLaw::from_file(reader.text(delay_file_key(), prefix)));
}

}  // namespace

LawKind empirical_law_kind() {
  static const KeySpec f = [] {
    KeySpec k = overhead_fraction_key();
    k.optional = true;
    k.meaning = "mean overhead fraction; without it the delays are taken as measured (seconds)";
    return k;
  }();
  return {.name = "empirical",
          .meaning = "resampled measured delays, rescaled to unit mean",
          .shape_keys = {delay_file_key()},
          .make = [](ParamReader& reader, const std::string& prefix)
              -> std::shared_ptr<const NoiseLaw> { return read_delays(reader, prefix); },
          .scale_keys = {f},
          .stage =
              [](ParamReader& reader, const std::string& prefix, double w) {
                auto law = read_delays(reader, prefix);
                if (const auto fraction = reader.optional_number(f, prefix))
                  return scaled_by_overhead(law, *fraction, w);
                // Measured delays are absolute: their own mean is the scale.
                const double scale = law->mean_delay_seconds();
                return StageNoise{law, scale, w > 0.0 ? scale / w : 0.0};
              }};
}

}  // namespace collnoise
