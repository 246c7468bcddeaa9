#pragma once
// Measured message latencies (docs/models/netgauge-files.md): Netgauge's ping-pong samples, as in
// the ng_netnoise_mpi_lat.out files of network-noise measurements. Each line is
// `size<TAB>rtt`: a message size in bytes and one sample in microseconds; '#' starts a comment
// (Netgauge heads every run with "#size<TAB>rtt", and repeated runs are appended to one file).
// The samples of each size are pooled across the whole file, and a latency is drawn from the
// pool by its empirical quantile.
//
// Sizes without their own pool borrow the pool of the nearest measured size s0 below and add
// (s - s0) G, G the seconds per byte given to the constructor; a size below the smallest
// measured one takes the smallest pool as it is (no negative adjustment).
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace collnoise {

/// What the second column of a latency file holds.
enum class LatencyColumn {
  kRoundTrip,  ///< a round trip: the one-way latency is half of it (the default)
  kOneWay,     ///< already a one-way latency (half a round trip)
};

/// One size's pool, for summaries.
struct LatencyPoolSummary {
  std::uint64_t message_bytes = 0;
  std::size_t samples = 0;
  double min_seconds = 0.0;   ///< the smallest one-way latency
  double mean_seconds = 0.0;  ///< the mean one-way latency
};

class LatencySamples {
 public:
  /// Reads a Netgauge latency file. `seconds_per_byte`: G, finite and >= 0. InputError naming
  /// the file (and `file:line` with the line's text) for an unreadable file, a malformed line
  /// (not two fields, a size that is not a whole number of bytes in [0, 2^40]), a negative, non-
  /// finite or too large (beyond 10^6 s) sample, or a file without samples.
  static LatencySamples from_file(const std::string& path, double seconds_per_byte,
                                  LatencyColumn column = LatencyColumn::kRoundTrip);
  /// The samples of several files of the same kind, pooled by size as if they were one file (a
  /// latency file of small messages and a bandwidth file of large ones). Errors as from_file,
  /// naming the file at fault; "no samples" only when no file holds any.
  static LatencySamples from_files(const std::vector<std::string>& paths, double seconds_per_byte,
                                   LatencyColumn column = LatencyColumn::kRoundTrip);

  /// From one-way latencies in seconds, by message size in bytes (`source` names them in
  /// messages). Preconditions (checked, InputError): at least one sample; every sample finite
  /// and >= 0; no empty pool; `seconds_per_byte` finite and >= 0.
  LatencySamples(std::map<std::uint64_t, std::vector<double>> pools_seconds,
                 double seconds_per_byte, std::string source);

  /// A one-way latency in seconds for a message of `message_bytes`, from a uniform u in [0, 1)
  /// (values outside are clamped): the sample of index floor(u n) of the size's sorted pool of n
  /// samples; for a size without a pool, that of the nearest measured size s0 below, plus
  /// (s - s0) G; below the smallest measured size, that size's pool as it is.
  double draw(std::uint64_t message_bytes, double u) const;

  /// The measured size whose pool serves `message_bytes` (the size itself, the nearest below, or
  /// the smallest).
  std::uint64_t pool_size_for(std::uint64_t message_bytes) const;

  /// Every pool, by increasing size.
  std::vector<LatencyPoolSummary> summaries() const;
  /// The sorted one-way latencies (seconds) of the pool of exactly `message_bytes`; empty when
  /// that size was not measured.
  const std::vector<double>& pool(std::uint64_t message_bytes) const;

  double seconds_per_byte() const { return seconds_per_byte_; }
  std::size_t total_samples() const;
  const std::string& source() const { return source_; }

 private:
  struct Pool {
    std::uint64_t bytes = 0;
    std::vector<double> sorted;  ///< one-way latencies, seconds, ascending
    double mean = 0.0;
  };
  const Pool& pool_for(std::uint64_t message_bytes) const;

  std::vector<Pool> pools_;  ///< by increasing size, none empty
  double seconds_per_byte_ = 0.0;
  std::string source_;
};

}  // namespace collnoise
