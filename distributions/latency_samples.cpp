#include "distributions/latency_samples.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string_view>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/shown_text.hpp"
#include "core/stop_request.hpp"
#include "core/text_fields.hpp"
#include "core/units.hpp"

namespace collnoise {
namespace {

constexpr std::uint64_t kMaxMessageBytes = std::uint64_t{1} << 40;
// Netgauge writes its samples in microseconds.
const TimeUnit& kMicroseconds = *find_time_unit("us");

std::optional<std::uint64_t> parse_bytes(std::string_view text) {
  return parse_whole(text, kMaxMessageBytes);
}

// The samples of one file by size, in seconds, in file order.
std::map<std::uint64_t, std::vector<double>> read_samples(const std::string& path,
                                                          LatencyColumn column) {
  std::map<std::uint64_t, std::vector<double>> pools;
  TextLines in(path, fmt::format("latency samples '{}'", path));
  std::string line;
  for (int line_no = 1; in.next(line); ++line_no) {
    if ((line_no & 0xffff) == 0) throw_if_stop_requested();  // latency files can be large
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    const auto fields = fields_of(line);
    if (fields.empty()) continue;
    const auto bytes = fields.size() == 2 ? parse_bytes(fields[0]) : std::nullopt;
    const auto rtt = fields.size() == 2 ? parse_number(fields[1]) : std::nullopt;
    if (!bytes || !rtt) {
      const auto first = line.find_first_not_of(" \t\r");
      throw InputError(
          fmt::format("{}:{}: {} is not 'size<TAB>rtt' (a size in bytes up to 2^40, a time in "
                      "microseconds)",
                      path, line_no, quoted_text(line.substr(first))));
    }
    if (!std::isfinite(*rtt))
      throw InputError(fmt::format("{}:{}: the sample {} is not a finite time", path, line_no,
                                   std::string(fields[1])));
    if (*rtt < 0.0)
      throw InputError(fmt::format("{}:{}: negative sample {} us", path, line_no, *rtt));
    // The sample's text in microseconds, converted by the time units' one rule (a hexadecimal
    // float, which has no decimal, from its double); halving a double is exact, so a one-way
    // latency is the decimal rtt/2 in seconds rounded once.
    const auto converted = decimal_in_seconds(fields[1], kMicroseconds);
    const double rtt_seconds = converted ? *converted : value_in_seconds(*rtt, kMicroseconds);
    const double seconds = column == LatencyColumn::kRoundTrip ? rtt_seconds / 2.0 : rtt_seconds;
    if (!(seconds <= 1.0e6))
      throw InputError(
          fmt::format("{}:{}: sample {} us is out of range: latencies must lie within 1e6 seconds",
                      path, line_no, *rtt));
    pools[*bytes].push_back(seconds);
  }
  return pools;
}

LatencyFileKind kind_of(const std::map<std::uint64_t, std::vector<double>>& sizes) {
  if (sizes.size() > 1) return LatencyFileKind::kOneOne;
  return sizes.begin()->first <= kLatencyFileBytes ? LatencyFileKind::kLatency
                                                   : LatencyFileKind::kBandwidth;
}

// The median of sorted values: the middle one, or the mean of the middle two.
double median_of(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

// ceil(q n), without the rounding of q n pushing a whole number up.
std::size_t kept_by_trim(double q, std::size_t n) {
  const double x = q * static_cast<double>(n);
  const double whole = std::round(x);
  const double kept = std::abs(x - whole) <= 1e-9 * std::max(1.0, x) ? whole : std::ceil(x);
  return std::min(n, static_cast<std::size_t>(kept));
}

// The transform of one file's samples of one size (in file order); sorted on return. Empty when
// it keeps none.
std::vector<double> transformed(const std::vector<double>& samples, const PoolTransform& t,
                                const std::string& path, std::uint64_t bytes) {
  std::vector<double> kept;
  for (std::uint64_t i = 0; i < samples.size(); ++i)
    if (i % t.block >= t.warmup && i >= t.first && (!t.last || i < *t.last))
      kept.push_back(samples[i]);
  std::sort(kept.begin(), kept.end());
  kept.resize(kept_by_trim(t.trim_quantile, kept.size()));
  if (kept.empty() || !(t.median_seconds || t.mean_seconds)) return kept;
  // The statistic the pool is moved to: its median, or its mean.
  const bool by_median = t.median_seconds.has_value();
  const double target = by_median ? *t.median_seconds : *t.mean_seconds;
  const double center =
      by_median ? median_of(kept)
                : std::accumulate(kept.begin(), kept.end(), 0.0) / static_cast<double>(kept.size());
  if (t.scale) {
    if (!(center > 0.0))
      throw InputError(
          fmt::format("latency samples '{}': the pool of {} bytes has {} 0 and cannot be scaled to "
                      "{} s (shift it instead)",
                      path, bytes, by_median ? "a median of" : "an average of", target));
    const double factor = target / center;
    for (double& x : kept) x *= factor;
  } else {
    const double shift = target - center;
    for (double& x : kept) x = std::max(x + shift, 0.0);
  }
  return kept;
}

}  // namespace

const char* latency_file_kind_name(LatencyFileKind kind) {
  switch (kind) {
    case LatencyFileKind::kLatency:
      return "latency";
    case LatencyFileKind::kBandwidth:
      return "bandwidth";
    case LatencyFileKind::kOneOne:
      return "one-one";
  }
  return "?";
}

bool PoolTransform::identity() const {
  return warmup == 0 && first == 0 && !last && trim_quantile == 1.0 && !median_seconds &&
         !mean_seconds;
}

std::string PoolTransform::describe() const {
  std::vector<std::string> parts;
  if (warmup > 0) parts.push_back(fmt::format("warm-up {} of each {}", warmup, block));
  if (first > 0 || last)
    parts.push_back(
        fmt::format("window [{}, {})", first, last ? std::to_string(*last) : std::string("end")));
  if (trim_quantile < 1.0) parts.push_back(fmt::format("trim above quantile {}", trim_quantile));
  if (median_seconds)
    parts.push_back(
        fmt::format("median {} s by {}", *median_seconds, scale ? "scaling" : "shifting"));
  if (mean_seconds)
    parts.push_back(fmt::format("mean {} s by {}", *mean_seconds, scale ? "scaling" : "shifting"));
  return parts.empty() ? std::string("none") : fmt::format("{}", fmt::join(parts, ", "));
}

LatencySamples LatencySamples::from_file(const std::string& path, double seconds_per_byte,
                                         LatencyColumn column) {
  return from_files({path}, seconds_per_byte, column);
}

LatencySamples LatencySamples::from_files(const std::vector<std::string>& paths,
                                          double seconds_per_byte, LatencyColumn column,
                                          const PoolTransform& transform) {
  return from_files(paths, seconds_per_byte, column,
                    std::vector<PoolTransform>(std::max<std::size_t>(paths.size(), 1), transform));
}

LatencySamples LatencySamples::from_files(const std::vector<std::string>& paths,
                                          double seconds_per_byte, LatencyColumn column,
                                          const std::vector<PoolTransform>& transforms) {
  if (transforms.size() != std::max<std::size_t>(paths.size(), 1))
    throw InputError(fmt::format("latency samples: {} transforms for {} files", transforms.size(),
                                 paths.size()));
  std::map<std::uint64_t, std::vector<double>> pools;
  std::vector<LatencyPoolRecord> records;
  std::vector<double> per_byte;
  for (std::size_t f = 0; f < paths.size(); ++f) {
    const std::string& path = paths[f];
    const PoolTransform& transform = transforms[f];
    const auto sizes = read_samples(path, column);
    if (sizes.empty()) throw InputError(fmt::format("latency samples '{}' hold no samples", path));
    const LatencyFileKind kind = kind_of(sizes);
    for (const auto& [bytes, samples] : sizes) {
      const std::vector<double> kept = transformed(samples, transform, path, bytes);
      if (kept.empty())
        throw InputError(fmt::format(
            "latency samples '{}': the transform ({}) leaves the {} samples of {} bytes none", path,
            transform.describe(), samples.size(), bytes));
      records.push_back({.file = path,
                         .kind = kind,
                         .message_bytes = bytes,
                         .read = samples.size(),
                         .kept = kept.size(),
                         .transform = transform});
      if (kind == LatencyFileKind::kBandwidth)
        for (double x : kept) per_byte.push_back(x / static_cast<double>(bytes));
      auto& pool = pools[bytes];
      pool.insert(pool.end(), kept.begin(), kept.end());
    }
  }
  const std::string source = fmt::format("{}", fmt::join(paths, "', '"));
  if (pools.empty()) throw InputError(fmt::format("latency samples '{}' hold no samples", source));
  LatencySamples out(std::move(pools), seconds_per_byte, source);
  std::sort(per_byte.begin(), per_byte.end());
  if (!per_byte.empty()) out.measured_G_ = median_of(per_byte);
  out.per_byte_ = std::move(per_byte);
  out.records_ = std::move(records);
  out.transforms_ = transforms;
  return out;
}

bool LatencySamples::uniform_transform() const {
  return std::all_of(transforms_.begin(), transforms_.end(),
                     [&](const PoolTransform& t) { return t == transforms_.front(); });
}

LatencySamples::LatencySamples(std::map<std::uint64_t, std::vector<double>> pools_seconds,
                               double seconds_per_byte, std::string source)
    : seconds_per_byte_(seconds_per_byte), source_(std::move(source)) {
  if (!(seconds_per_byte >= 0.0) || !std::isfinite(seconds_per_byte))
    throw InputError(fmt::format(
        "latency samples '{}': G = {} seconds per byte is invalid: it must be finite and >= 0",
        source_, seconds_per_byte));
  if (pools_seconds.empty())
    throw InputError(fmt::format("latency samples '{}' hold no samples", source_));
  for (auto& [bytes, samples] : pools_seconds) {
    if (samples.empty())
      throw InputError(
          fmt::format("latency samples '{}': the pool of {} bytes is empty", source_, bytes));
    for (double x : samples)
      if (!(x >= 0.0) || !std::isfinite(x))
        throw InputError(
            fmt::format("latency samples '{}': the pool of {} bytes holds {}", source_, bytes, x));
    Pool pool{.bytes = bytes, .sorted = std::move(samples)};
    pool.mean = std::accumulate(pool.sorted.begin(), pool.sorted.end(), 0.0) /
                static_cast<double>(pool.sorted.size());
    std::sort(pool.sorted.begin(), pool.sorted.end());
    pools_.push_back(std::move(pool));
  }
}

const LatencySamples::Pool& LatencySamples::pool_for(std::uint64_t message_bytes) const {
  // The last pool whose size is <= message_bytes, or the first (smallest) when none is.
  const auto above =
      std::upper_bound(pools_.begin(), pools_.end(), message_bytes,
                       [](std::uint64_t bytes, const Pool& pool) { return bytes < pool.bytes; });
  return above == pools_.begin() ? pools_.front() : *(above - 1);
}

std::uint64_t LatencySamples::pool_size_for(std::uint64_t message_bytes) const {
  return pool_for(message_bytes).bytes;
}

double LatencySamples::quantile(const Pool& pool, double u) {
  const std::size_t n = pool.sorted.size();
  const double clamped = u > 0.0 ? std::min(u, 1.0) : 0.0;  // NaN -> 0
  if (pool.tail) {
    const double p = pool.tail->tail_probability();
    if (clamped >= 1.0 - p)
      return pool.tail->threshold + pool.tail->excess_isf((1.0 - clamped) / p);
  }
  const auto index =
      std::min(static_cast<std::size_t>(std::floor(clamped * static_cast<double>(n))), n - 1);
  return pool.sorted[index];
}

std::vector<std::uint64_t> LatencySamples::fit_gpd_tails() {
  std::vector<std::uint64_t> without;
  for (Pool& pool : pools_) {
    std::string why;
    pool.tail = fit_gpd_tail(pool.sorted, kTailFitLevel, kTailFitSeed, why, 0);
    if (!pool.tail) without.push_back(pool.bytes);
  }
  return without;
}

const std::optional<GpdTail>& LatencySamples::tail(std::uint64_t message_bytes) const {
  static const std::optional<GpdTail> kNone;
  const Pool& pool = pool_for(message_bytes);
  return pool.bytes == message_bytes ? pool.tail : kNone;
}

bool LatencySamples::has_fitted_tails() const {
  return std::any_of(pools_.begin(), pools_.end(),
                     [](const Pool& pool) { return pool.tail.has_value(); });
}

bool LatencySamples::in_fitted_tail(std::uint64_t message_bytes, double u) const {
  // As quantile() decides, for the pools draw() reads.
  const auto from_tail = [u](const Pool& pool) {
    return pool.tail && std::min(u, 1.0) >= 1.0 - pool.tail->tail_probability();
  };
  const auto above =
      std::upper_bound(pools_.begin(), pools_.end(), message_bytes,
                       [](std::uint64_t bytes, const Pool& pool) { return bytes < pool.bytes; });
  if (above == pools_.begin()) return from_tail(pools_.front());
  const Pool& below = *(above - 1);
  if (from_tail(below)) return true;
  return message_bytes != below.bytes && above != pools_.end() && from_tail(*above);
}

double LatencySamples::extrapolation_seconds_per_byte() const {
  return per_byte_.empty() ? seconds_per_byte_ : measured_G_;
}

double LatencySamples::draw(std::uint64_t message_bytes, double u) const {
  const auto above =
      std::upper_bound(pools_.begin(), pools_.end(), message_bytes,
                       [](std::uint64_t bytes, const Pool& pool) { return bytes < pool.bytes; });
  if (above == pools_.begin()) return quantile(pools_.front(), u);  // below the smallest size
  const Pool& below = *(above - 1);
  const double q0 = quantile(below, u);
  if (message_bytes == below.bytes) return q0;
  if (above == pools_.end())
    return q0 + static_cast<double>(message_bytes - below.bytes) * extrapolation_seconds_per_byte();
  // Between two measured sizes: linear in size, in quantile space.
  const double w = static_cast<double>(message_bytes - below.bytes) /
                   static_cast<double>(above->bytes - below.bytes);
  return q0 + (quantile(*above, u) - q0) * w;
}

double LatencySamples::draw_per_byte(double u) const {
  const std::size_t n = per_byte_.size();
  const double clamped = u > 0.0 ? std::min(u, 1.0) : 0.0;
  return per_byte_[std::min(static_cast<std::size_t>(std::floor(clamped * static_cast<double>(n))),
                            n - 1)];
}

double LatencySamples::share_below(std::uint64_t message_bytes, double seconds) const {
  // A draw is constant between the cuts i/n of the pools it reads (one, or two between sizes),
  // and grows with u: sum the pieces below `seconds`, from u = 0.
  std::vector<std::size_t> counts = {pool_for(message_bytes).sorted.size()};
  const auto above =
      std::upper_bound(pools_.begin(), pools_.end(), message_bytes,
                       [](std::uint64_t bytes, const Pool& pool) { return bytes < pool.bytes; });
  if (above != pools_.begin() && above != pools_.end() && (above - 1)->bytes != message_bytes)
    counts.push_back(above->sorted.size());
  std::vector<double> cuts = {0.0, 1.0};
  for (const std::size_t n : counts)
    for (std::size_t i = 1; i < n; ++i)
      cuts.push_back(static_cast<double>(i) / static_cast<double>(n));
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  double share = 0.0;
  for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
    if (!(draw(message_bytes, (cuts[k] + cuts[k + 1]) / 2.0) < seconds)) break;
    share += cuts[k + 1] - cuts[k];
  }
  return share;
}

std::vector<LatencyPoolSummary> LatencySamples::summaries() const {
  std::vector<LatencyPoolSummary> out;
  out.reserve(pools_.size());
  for (const auto& pool : pools_)
    out.push_back({.message_bytes = pool.bytes,
                   .samples = pool.sorted.size(),
                   .min_seconds = pool.sorted.front(),
                   .mean_seconds = pool.mean});
  return out;
}

const std::vector<double>& LatencySamples::pool(std::uint64_t message_bytes) const {
  static const std::vector<double> kNone;
  const Pool& pool = pool_for(message_bytes);
  return pool.bytes == message_bytes ? pool.sorted : kNone;
}

std::size_t LatencySamples::total_samples() const {
  std::size_t total = 0;
  for (const auto& pool : pools_) total += pool.sorted.size();
  return total;
}

}  // namespace collnoise
