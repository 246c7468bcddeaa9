#pragma once
// LogGP parameters per protocol regime, fitted to a Netgauge LogGP file's rows
// (docs/models/netgauge-files.md, "LogGP per protocol regime"): loggops.file_fit = "regimes".
//
// Netgauge's rows span the eager protocol and, above the MPI library's eager limit, rendezvous,
// whose measured overhead holds the wait for the receiver's reply; the files of the data set do
// not flag the switch. The fit finds it from the overheads, then fits each regime apart, robustly
// (Theil-Sen lines, medians), instead of taking one row:
//  - o(s) = (o_s + o_r) / 2 per row; the switch is the first row i (with at least two rows'
//    steps before it and one row after it) whose step up o(s_i) - o(s_i-1) exceeds
//    median + k * 1.4826 * MAD of the steps of the rows before it (k = kSwitchSpreads), and where
//    o grows by at least kSwitchRatio (o(s_i) >= 1.5 o(s_i-1)); the next row must stay up as
//    well (o(s_i+1) - o(s_i-1) above twice the median plus the same spreads, and 1.5 o(s_i-1)),
//    so that a single slow row is no switch. S, the largest eager message, is s_i - 1.
//  - per regime, with x = s - 1 (the bytes after the first, as LogGOPS charges them): o + x O a
//    Theil-Sen line through the rows' o(s), and g + x G one through their gaps
//    (PRTT(n,0,s) - PRTT(1,0,s)) / (n - 1) (what Netgauge fits by least squares); each of o, O,
//    g, G floored at 0.
//  - the rendezvous rows' o(s) first lose the handshake: the round trip of the smallest message,
//    PRTT(1,0,s) of the first row, each floored at 0 (Netgauge's o there includes the wait for
//    the reply, which the rendezvous rule charges instead of the CPU).
//  - L, one for both (the wire is the same): the file's L (half the smallest message's round
//    trip) less the eager regime's two overheads, floored at 0.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "distributions/netgauge_loggp.hpp"

namespace collnoise {

/// Spreads (1.4826 MAD) beyond the median step that make an overhead step a switch.
inline constexpr double kSwitchSpreads = 5.0;
/// The ratio by which o must grow at a switch.
inline constexpr double kSwitchRatio = 1.5;

/// The median of `values` (the mean of the two middle ones for an even count); NaN when empty.
double median_of(std::vector<double> values);

/// A line y = intercept + slope x.
struct TheilSenLine {
  double intercept = 0.0;
  double slope = 0.0;
};

/// The Theil-Sen line through (x[i], y[i]) (same lengths, at least one point): the slope is the
/// median of the slopes of all pairs with different x (0 when there are none), the intercept
/// the median of y - slope x.
TheilSenLine theil_sen(std::span<const double> x, std::span<const double> y);

/// The index of the first row of the second regime in `o` (the overheads by increasing size),
/// by the rule above; none when no switch is found.
std::optional<std::size_t> protocol_switch(std::span<const double> o);

/// One regime's LogGOPS parameters, in seconds (O and G per byte).
struct LogGPRegime {
  std::uint64_t first_bytes = 0;  ///< the size of its first row
  std::uint64_t last_bytes = 0;   ///< the size of its last row
  std::size_t rows = 0;           ///< rows fitted
  double L = 0.0;
  double o = 0.0;
  double O = 0.0;
  double g = 0.0;
  double G = 0.0;
};

struct NetgaugeRegimeFit {
  LogGPRegime eager;                         ///< the rows up to the switch (all, without one)
  std::optional<LogGPRegime> rendezvous;     ///< the rows from the switch on
  std::optional<std::uint64_t> eager_bytes;  ///< S: the first rendezvous row's size - 1
  double handshake = 0.0;  ///< the round trip taken out of the rendezvous overheads, seconds
  double file_L = 0.0;     ///< the file's L, seconds
};

/// The regime fit of `table`'s rows with o_s, o_r, n >= 2, PRTT(1,0,s) and PRTT(n,0,s) finite
/// and >= 0. InputError naming the file when its header has no n, PRTT(1,0,s) or PRTT(n,0,s)
/// column, or when fewer than two rows can be fitted.
NetgaugeRegimeFit fit_netgauge_regimes(const NetgaugeLogGPTable& table);

/// `draws` refits of fit_netgauge_regimes on rows drawn with replacement within each regime, the
/// switch and L's row (the smallest message's) as detected on all rows: a pairs bootstrap of the
/// lines, which says how much the fit depends on which sizes were measured (not on the spread
/// within a row: Netgauge writes a row's average). Draw d comes from stream (seed, d) alone.
/// Errors as fit_netgauge_regimes.
std::vector<NetgaugeRegimeFit> resampled_regime_fits(const NetgaugeLogGPTable& table,
                                                     std::size_t draws, std::uint64_t seed);

}  // namespace collnoise
