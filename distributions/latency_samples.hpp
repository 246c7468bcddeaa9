#pragma once
// Measured message latencies (docs/models/netgauge-files.md): Netgauge's ping-pong samples, as in
// the ng_netnoise_mpi_lat.out (1-byte messages), ng_netnoise_mpi_bw.out (16 MiB messages) and
// ng_one_one_mpi_*.out (every power of two) files of network-noise measurements. Each line is
// `size<TAB>rtt`: a message size in bytes and one sample in microseconds; '#' starts a comment
// (Netgauge heads every run with "#size<TAB>rtt", and repeated runs are appended to one file).
// The samples of each size are pooled across the files, after the transforms a run file asks
// for (warm-up, window, trim, median), and a latency is drawn from the pools by quantile.
//
// A size between two measured sizes s0 < s < s1 draws Q_s(u) = Q_s0(u) + (Q_s1(u) - Q_s0(u)) w,
// w = (s - s0) / (s1 - s0) (linear in size: a one-way time is affine in the size); beyond the
// largest, Q_last(u) + (s - s_last) G, G measured by the bandwidth files when given, else the
// seconds per byte given to the reader; below the smallest, the smallest pool as it is.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "distributions/gpd_tail.hpp"

namespace collnoise {

/// What the second column of a latency file holds.
enum class LatencyColumn {
  kRoundTrip,  ///< a round trip: the one-way latency is half of it (the default)
  kOneWay,     ///< already a one-way latency (half a round trip)
};

/// What a file holds, told from its content: one size of at most kLatencyFileBytes (a latency
/// file), one larger size (a bandwidth file), or several sizes (a one-one file).
enum class LatencyFileKind { kLatency, kBandwidth, kOneOne };

/// The largest size a file of one size may hold to be a latency file (else a bandwidth file).
inline constexpr std::uint64_t kLatencyFileBytes = 1024;

/// "latency", "bandwidth", "one-one".
const char* latency_file_kind_name(LatencyFileKind kind);

/// What is done to the samples of each size of each file before they are pooled, in this order
/// (docs/models/netgauge-files.md, "Transforms"). Sample indices count a size's samples in a
/// file from 0, in file order.
struct PoolTransform {
  std::uint64_t warmup = 0;           ///< drop indices i with i mod block < warmup (the warm-up)
  std::uint64_t block = 1000;         ///< samples per measured block, >= 1
  std::uint64_t first = 0;            ///< keep indices >= first (the window)
  std::optional<std::uint64_t> last;  ///< and < last, if given
  double trim_quantile = 1.0;         ///< keep the ceil(q n) smallest samples, q in (0, 1]
  /// Shift or scale the pool so that its median (the mean of the middle two for even n) is this
  /// many seconds; a shifted sample below 0 becomes 0.
  std::optional<double> median_seconds;
  /// Or so that its mean is this many seconds (never with median_seconds).
  std::optional<double> mean_seconds;
  bool scale = true;  ///< scale (x m / center) rather than shift (x + m - center)

  bool operator==(const PoolTransform&) const = default;

  /// Whether the transform changes nothing.
  bool identity() const;
  /// As the run file would say it ("warm-up 21 of 1000, window [0, 5000), trim 0.99, median
  /// 2e-06 s by scaling"; "none").
  std::string describe() const;
};

/// One file's pool of one size, after its transform: what a result records.
struct LatencyPoolRecord {
  std::string file;
  LatencyFileKind kind = LatencyFileKind::kLatency;
  std::uint64_t message_bytes = 0;
  std::size_t read = 0;     ///< samples read
  std::size_t kept = 0;     ///< samples left by the transform
  PoolTransform transform;  ///< the file's transform
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
  /// The samples of several files (latency, bandwidth or one-one files, told apart by their
  /// sizes), each size of each file transformed by `transform`, pooled by size. Errors as
  /// from_file, naming the file at fault; "no samples" when no file holds any, or when a
  /// transform leaves a file's size without samples (naming file, size and transform).
  static LatencySamples from_files(const std::vector<std::string>& paths, double seconds_per_byte,
                                   LatencyColumn column = LatencyColumn::kRoundTrip,
                                   const PoolTransform& transform = {});
  /// The same, file i transformed by transforms[i] (per-pool values: one transform per path,
  /// checked, InputError otherwise).
  static LatencySamples from_files(const std::vector<std::string>& paths, double seconds_per_byte,
                                   LatencyColumn column,
                                   const std::vector<PoolTransform>& transforms);

  /// From one-way latencies in seconds, by message size in bytes (`source` names them in
  /// messages). Preconditions (checked, InputError): at least one sample; every sample finite
  /// and >= 0; no empty pool; `seconds_per_byte` finite and >= 0.
  LatencySamples(std::map<std::uint64_t, std::vector<double>> pools_seconds,
                 double seconds_per_byte, std::string source);

  /// A one-way latency in seconds for a message of `message_bytes`, from a uniform u in [0, 1)
  /// (values outside are clamped): Q(u), the sample of index floor(u n) of the size's sorted pool
  /// of n samples; between measured sizes s0 < s < s1, Q_s0(u) + (Q_s1(u) - Q_s0(u)) w with
  /// w = (s - s0) / (s1 - s0); beyond the largest, Q_last(u) + (s - s_last) G
  /// (extrapolation_seconds_per_byte); below the smallest measured size, that size's pool as is.
  double draw(std::uint64_t message_bytes, double u) const;
  /// Gives every pool of at least 2 kGpdMinExceedances samples a generalised Pareto tail
  /// (latency.tail = "gpd", docs/models/tails.md): draw() then takes a u in the top k/n of the
  /// pool from u_k + GPD rather than from the k largest samples. Returns the pools left
  /// without one (too few samples, or ties at the threshold), by size.
  std::vector<std::uint64_t> fit_gpd_tails();
  /// The tail of the pool of exactly `message_bytes`, if it has one.
  const std::optional<GpdTail>& tail(std::uint64_t message_bytes) const;
  /// Whether any pool has a fitted tail.
  bool has_fitted_tails() const;
  /// Whether draw(message_bytes, u) takes a value from a fitted tail beyond the data: u in the
  /// top k/n of a pool it reads (one, or the two around a size between them) that has a tail.
  bool in_fitted_tail(std::uint64_t message_bytes, double u) const;

  /// A per-byte time (seconds per byte) from the bandwidth files' samples, each one-way time over
  /// its size, by quantile: index floor(u n) of their sorted n values. Precondition:
  /// has_bandwidth().
  double draw_per_byte(double u) const;
  /// Whether a bandwidth file was read.
  bool has_bandwidth() const { return !per_byte_.empty(); }
  /// The G beyond the largest size: the median of the bandwidth files' per-byte times, or the
  /// seconds per byte given (without a bandwidth file).
  double extrapolation_seconds_per_byte() const;
  /// The smallest measured size.
  std::uint64_t smallest_size() const { return pools_.front().bytes; }
  /// Each file's pool of each size, in the order read.
  const std::vector<LatencyPoolRecord>& records() const { return records_; }
  /// The transform the first file's pools went through (all files' when uniform_transform()).
  const PoolTransform& transform() const { return transforms_.front(); }
  /// Whether every file went through the same transform.
  bool uniform_transform() const;

  /// The share of the u in [0, 1) whose draw(message_bytes, u) is below `seconds` (exact: each
  /// draw holds over an interval of u).
  double share_below(std::uint64_t message_bytes, double seconds) const;

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
    std::optional<GpdTail> tail;  ///< with fit_gpd_tails(): above sorted[n - k - 1]
  };
  const Pool& pool_for(std::uint64_t message_bytes) const;
  static double quantile(const Pool& pool, double u);

  std::vector<Pool> pools_;  ///< by increasing size, none empty
  double seconds_per_byte_ = 0.0;
  std::string source_;
  std::vector<double> per_byte_;  ///< the bandwidth files' one-way / size, ascending
  double measured_G_ = 0.0;       ///< their median (with per_byte_)
  std::vector<LatencyPoolRecord> records_;
  std::vector<PoolTransform> transforms_ = {PoolTransform{}};  ///< one per file, in order
};

}  // namespace collnoise
