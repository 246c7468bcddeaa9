#include "distributions/netgauge_regimes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/rng.hpp"

namespace collnoise {
namespace {

// The rows a regime is fitted to: usable overheads and round trips.
bool fittable(const NetgaugeLogGPRow& r) {
  const auto ok = [](double v) { return std::isfinite(v) && v >= 0.0; };
  return ok(r.o_s) && ok(r.o_r) && ok(r.rtt) && ok(r.rtt_n) && std::isfinite(r.n) && r.n >= 2.0;
}

// The regime of rows [begin, end): its lines, `handshake` taken out of each overhead first.
LogGPRegime fit_regime(std::span<const NetgaugeLogGPRow* const> rows, double handshake) {
  std::vector<double> x, o, gap;
  for (const NetgaugeLogGPRow* r : rows) {
    x.push_back(static_cast<double>(r->message_bytes > 0 ? r->message_bytes - 1 : 0));
    o.push_back(std::max(0.0, (r->o_s + r->o_r) / 2.0 - handshake));
    gap.push_back((r->rtt_n - r->rtt) / (r->n - 1.0));
  }
  const TheilSenLine overhead = theil_sen(x, o);
  const TheilSenLine gaps = theil_sen(x, gap);
  return {.first_bytes = rows.front()->message_bytes,
          .last_bytes = rows.back()->message_bytes,
          .rows = rows.size(),
          .L = 0.0,
          .o = std::max(0.0, overhead.intercept),
          .O = std::max(0.0, overhead.slope),
          .g = std::max(0.0, gaps.intercept),
          .G = std::max(0.0, gaps.slope)};
}

}  // namespace

double median_of(std::vector<double> values) {
  if (values.empty()) return std::nan("");
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower =
      *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2.0;
}

TheilSenLine theil_sen(std::span<const double> x, std::span<const double> y) {
  std::vector<double> slopes;
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = i + 1; j < x.size(); ++j)
      if (x[j] != x[i]) slopes.push_back((y[j] - y[i]) / (x[j] - x[i]));
  TheilSenLine line;
  line.slope = slopes.empty() ? 0.0 : median_of(std::move(slopes));
  std::vector<double> intercepts;
  for (std::size_t i = 0; i < x.size(); ++i) intercepts.push_back(y[i] - line.slope * x[i]);
  line.intercept = median_of(std::move(intercepts));
  return line;
}

std::optional<std::size_t> protocol_switch(std::span<const double> o) {
  // Row i needs two steps before it (a median and a spread) and a row after it (it must stay up).
  for (std::size_t i = 3; i + 1 < o.size(); ++i) {
    std::vector<double> steps;
    for (std::size_t j = 1; j < i; ++j) steps.push_back(o[j] - o[j - 1]);
    const double m = median_of(steps);
    std::vector<double> deviations;
    for (const double d : steps) deviations.push_back(std::abs(d - m));
    const double spread = kSwitchSpreads * 1.4826 * median_of(std::move(deviations));
    const double before = o[i - 1];
    const bool jump = o[i] - before > m + spread && o[i] >= kSwitchRatio * before;
    const bool stays = o[i + 1] - before > 2.0 * m + spread && o[i + 1] >= kSwitchRatio * before;
    if (jump && stays) return i;
  }
  return std::nullopt;
}

namespace {

// The rows the regimes are fitted to, by increasing size, refused as fit_netgauge_regimes says.
std::vector<const NetgaugeLogGPRow*> fitted_rows(const NetgaugeLogGPTable& table) {
  std::vector<const NetgaugeLogGPRow*> rows;
  bool round_trips = false;
  for (const NetgaugeLogGPRow& r : table.rows()) {
    round_trips = round_trips || !std::isnan(r.rtt) || !std::isnan(r.rtt_n) || !std::isnan(r.n);
    if (fittable(r)) rows.push_back(&r);
  }
  if (!round_trips)
    throw InputError(
        fmt::format("Netgauge LogGP file '{}' has no columns n, PRTT(1,0,s) and PRTT(n,0,s), which "
                    "loggops.file_fit = \"regimes\" fits",
                    table.source()));
  if (rows.size() < 2)
    throw InputError(
        fmt::format("Netgauge LogGP file '{}' has {} row(s) with o_s, o_r, n >= 2, PRTT(1,0,s) and "
                    "PRTT(n,0,s) finite and >= 0: loggops.file_fit = \"regimes\" needs at least 2",
                    table.source(), rows.size()));
  return rows;
}

// The number of eager rows: those before the detected switch (all without one).
std::size_t eager_row_count(std::span<const NetgaugeLogGPRow* const> rows) {
  std::vector<double> o;
  for (const NetgaugeLogGPRow* r : rows) o.push_back((r->o_s + r->o_r) / 2.0);
  const std::optional<std::size_t> at = protocol_switch(o);
  return at ? *at : rows.size();
}

// Both regimes' fit of the rows of each (the first eager row's size and round trip give L and
// the handshake, taken from `all`, the rows as measured).
NetgaugeRegimeFit fit_of(std::span<const NetgaugeLogGPRow* const> eager,
                         std::span<const NetgaugeLogGPRow* const> rendezvous,
                         std::span<const NetgaugeLogGPRow* const> all, double file_L) {
  NetgaugeRegimeFit fit;
  fit.file_L = file_L;
  fit.eager = fit_regime(eager, 0.0);
  // Netgauge's L is half the smallest message's round trip, both overheads included.
  fit.eager.L = std::max(0.0, fit.file_L - 2.0 * fit.eager.o);
  if (!rendezvous.empty()) {
    fit.handshake = all.front()->rtt;
    fit.rendezvous = fit_regime(rendezvous, fit.handshake);
    fit.rendezvous->L = fit.eager.L;
    fit.eager_bytes = all[eager.size()]->message_bytes - 1;
  }
  return fit;
}

// Rows drawn with replacement from `rows`, as many, by increasing size.
std::vector<const NetgaugeLogGPRow*> resampled(std::span<const NetgaugeLogGPRow* const> rows,
                                               Pcg32& rng) {
  std::vector<const NetgaugeLogGPRow*> out;
  for (std::size_t i = 0; i < rows.size(); ++i) out.push_back(rows[rng.next_below(rows.size())]);
  std::stable_sort(out.begin(), out.end(), [](const auto* a, const auto* b) {
    return a->message_bytes < b->message_bytes;
  });
  return out;
}

}  // namespace

NetgaugeRegimeFit fit_netgauge_regimes(const NetgaugeLogGPTable& table) {
  const std::vector<const NetgaugeLogGPRow*> rows = fitted_rows(table);
  const std::span<const NetgaugeLogGPRow* const> all(rows);
  const std::size_t eager = eager_row_count(all);
  return fit_of(all.first(eager), all.subspan(eager), all,
                table.nearest(rows.front()->message_bytes).L);
}

std::vector<NetgaugeRegimeFit> resampled_regime_fits(const NetgaugeLogGPTable& table,
                                                     std::size_t draws, std::uint64_t seed) {
  const std::vector<const NetgaugeLogGPRow*> rows = fitted_rows(table);
  const std::span<const NetgaugeLogGPRow* const> all(rows);
  const std::size_t eager = eager_row_count(all);
  const double file_L = table.nearest(rows.front()->message_bytes).L;
  std::vector<NetgaugeRegimeFit> fits;
  for (std::size_t d = 0; d < draws; ++d) {
    Pcg32 rng = make_stream(hash_combine(seed, d));
    const auto eager_rows = resampled(all.first(eager), rng);
    const auto rendezvous_rows = resampled(all.subspan(eager), rng);
    fits.push_back(fit_of(eager_rows, rendezvous_rows, all, file_L));
  }
  return fits;
}

}  // namespace collnoise
