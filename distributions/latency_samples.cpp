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

// Adds the samples of one file to `pools`, in seconds.
void read_samples(const std::string& path, LatencyColumn column,
                  std::map<std::uint64_t, std::vector<double>>& pools) {
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
}

}  // namespace

LatencySamples LatencySamples::from_file(const std::string& path, double seconds_per_byte,
                                         LatencyColumn column) {
  return from_files({path}, seconds_per_byte, column);
}

LatencySamples LatencySamples::from_files(const std::vector<std::string>& paths,
                                          double seconds_per_byte, LatencyColumn column) {
  std::map<std::uint64_t, std::vector<double>> pools;
  for (const auto& path : paths) read_samples(path, column, pools);
  const std::string source = fmt::format("{}", fmt::join(paths, "', '"));
  if (pools.empty()) throw InputError(fmt::format("latency samples '{}' hold no samples", source));
  return LatencySamples(std::move(pools), seconds_per_byte, source);
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

double LatencySamples::draw(std::uint64_t message_bytes, double u) const {
  const Pool& pool = pool_for(message_bytes);
  const std::size_t n = pool.sorted.size();
  const double clamped = u > 0.0 ? std::min(u, 1.0) : 0.0;  // NaN -> 0
  const auto index =
      std::min(static_cast<std::size_t>(std::floor(clamped * static_cast<double>(n))), n - 1);
  const double sample = pool.sorted[index];
  if (message_bytes <= pool.bytes) return sample;  // its own pool, or below the smallest size
  return sample + static_cast<double>(message_bytes - pool.bytes) * seconds_per_byte_;
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
