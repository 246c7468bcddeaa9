#pragma once
// LogGP parameters measured by Netgauge's loggp benchmark (docs/models/netgauge-files.md), as in
// its ng_loggp.out files. The file starts with a '#' header naming the columns,
//
//   # size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s) L o_s o_r g G lsqu(g,G)
//
// then one row per message size s (bytes), every time in microseconds and G in microseconds per
// byte. The header locates the columns read (size, L, o_s, o_r, g, G, and for the regime fit n,
// PRTT(1,0,s) and PRTT(n,0,s), which a header may lack); a file without one is taken to have this
// layout.
//
// Netgauge measures L, o_s and o_r at each size, but g and G are the least-squares fit of the
// sizes so far (since the last change of protocol it detects), so its first row has no g or G
// (-nan), and fits may come out negative. The two groups are therefore chosen apart: for a
// message size, L, o_s and o_r come from the nearest row where all three are finite and >= 0,
// and g and G from the nearest row where both are (ties: the smaller size). Values that are
// -nan or negative are never used. A value no measurement gives, infinite or beyond the range of
// its [loggops] key (10^9 us, 10^3 s, for L, o_s, o_r and g; 10^6 us per byte for G), is refused
// wherever it is. When a size appears in more than one row (Netgauge
// repeats the size at which it detects a protocol change, first with the old protocol's fit), the
// later row replaces the earlier.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace collnoise {

/// One row of a Netgauge LogGP file as read: seconds (G seconds per byte), -nan and negative
/// values kept as the file has them.
struct NetgaugeLogGPRow {
  std::uint64_t message_bytes = 0;
  double L = 0.0;
  double o_s = 0.0;
  double o_r = 0.0;
  double g = 0.0;
  double G = 0.0;
  /// The round trips the regime fit reads (distributions/netgauge_regimes.hpp), seconds: one
  /// message of this size, PRTT(1,0,s), and n of them back to back, PRTT(n,0,s); NaN when the
  /// file's header has no such column.
  double n = std::nan("");
  double rtt = std::nan("");
  double rtt_n = std::nan("");
  int line = 0;                   ///< its line in the file
  bool overheads_usable = false;  ///< L, o_s and o_r finite and >= 0
  bool gaps_usable = false;       ///< g and G finite and >= 0
};

/// The LogGP parameters for one message size, in seconds.
struct NetgaugeLogGP {
  std::uint64_t message_bytes = 0;      ///< the size of the row L, o_s and o_r come from
  double L = 0.0;                       ///< latency, seconds (Netgauge: half the 1-byte round trip)
  double o_s = 0.0;                     ///< send overhead at that size, seconds
  double o_r = 0.0;                     ///< receive overhead at that size, seconds
  double o = 0.0;                       ///< (o_s + o_r) / 2, seconds
  int line = 0;                         ///< the line of that row
  std::uint64_t gap_message_bytes = 0;  ///< the size of the row g and G come from
  double g = 0.0;                       ///< gap per message, seconds
  double G = 0.0;                       ///< gap per byte, seconds per byte
  int gap_line = 0;                     ///< the line of that row
};

class NetgaugeLogGPTable {
 public:
  /// Reads a Netgauge LogGP file. InputError naming the file, and `file:line` with the line's
  /// text, for an unreadable file, a header without one of the columns read, a row that is not
  /// all numbers or has too few of them, a size that is not a whole number of bytes in
  /// [0, 2^40], or an L, o_s, o_r, g or G infinite or beyond its range (naming it and the
  /// range); naming the file and the first value at fault when no row has usable L, o_s and
  /// o_r, or none usable g and G.
  static NetgaugeLogGPTable from_file(const std::string& path);

  /// The parameters for `message_bytes`: L, o_s, o_r from the nearest row where they are usable,
  /// g and G from the nearest row where they are (ties: the smaller size).
  NetgaugeLogGP nearest(std::uint64_t message_bytes) const;

  /// Every row, one per size (a repeated size's later row), by increasing size.
  const std::vector<NetgaugeLogGPRow>& rows() const { return rows_; }
  const std::string& source() const { return source_; }

 private:
  /// The index in rows_ of the row nearest `bytes` among `usable` (indices by increasing size).
  std::size_t nearest_of(const std::vector<std::size_t>& usable, std::uint64_t bytes) const;

  std::vector<NetgaugeLogGPRow> rows_;
  std::vector<std::size_t> overhead_rows_;  ///< rows with usable L, o_s, o_r
  std::vector<std::size_t> gap_rows_;       ///< rows with usable g, G
  std::string source_;
};

/// The parameters of `path` for `message_bytes`, as NetgaugeLogGPTable::nearest; errors as
/// NetgaugeLogGPTable::from_file.
NetgaugeLogGP read_netgauge_loggp(const std::string& path, std::uint64_t message_bytes);

}  // namespace collnoise
