#include "engine/schedules/schedule_net_keys.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "core/errors.hpp"
#include "distributions/netgauge_loggp.hpp"
#include "engine/loggops/loggops_keys.hpp"

namespace collnoise {
namespace {

const KeySpec kEager{.name = "loggops.S",
                     .type = KeyType::kInteger,
                     .meaning = "the largest eager message (larger ones use rendezvous)",
                     .unit = "bytes",
                     .fallback = std::int64_t{65535},
                     .bounds = {0.0, 1099511627776.0}};
const KeySpec kLogGPFile{.name = "loggops.file",
                         .type = KeyType::kFile,
                         .meaning = "L, o, g and G measured: a Netgauge ng_loggp.out file",
                         .optional = true};
const KeySpec kLogGPBytes{.name = "loggops.file_bytes",
                          .type = KeyType::kInteger,
                          .meaning =
                              "the message size whose rows of loggops.file every message takes "
                              "(default: each message its own size's)",
                          .unit = "bytes",
                          .bounds = {1.0, 1099511627776.0},
                          .optional = true};
const KeySpec kFileFit{.name = "loggops.file_fit",
                       .type = KeyType::kChoice,
                       .meaning =
                           "row (the rows nearest each message size) or regimes (LogGOPS fitted "
                           "per protocol regime, S the detected switch)",
                       .fallback = std::string("row"),
                       .choices = {"row", "regimes"}};
const KeySpec kRendezvous{.name = "loggops.rendezvous",
                          .type = KeyType::kChoice,
                          .meaning =
                              "loggopsim (a message above S arrives at t + o + L) or handshake "
                              "(2L later: request and reply first, as the data set authors' fork)",
                          .fallback = std::string("loggopsim"),
                          .choices = {"loggopsim", "handshake"}};

constexpr std::uint64_t kLargest = std::numeric_limits<std::uint64_t>::max();

// The rendezvous regime's own costs (loggops.rendezvous_regime.o): no default, the eager
// regime's value instead; L is the wire's, one for both (as the regime fit gives it).
constexpr const char* kRegimePrefix = "loggops.rendezvous_regime.";

KeySpec regime_key(const KeySpec& k) {
  return loggops_variant(k, kRegimePrefix, "above loggops.S", "the [loggops] value");
}

std::vector<KeySpec> regime_keys() {
  std::vector<KeySpec> keys;
  for (const KeySpec& k : loggops_keys())
    if (k.name != "loggops.L" && k.name != "loggops.message_bytes") keys.push_back(regime_key(k));
  return keys;
}

// The [loggops] net with the rendezvous regime's given costs above S: by_size holds both.
void apply_rendezvous_regime(ParamReader& reader, ScheduleNet& net) {
  ScheduleNet large = net;
  bool any = false;
  for (const KeySpec& k : regime_keys()) {
    if (!reader.has(k.name)) continue;
    any = true;
    const std::string which = k.name.substr(std::string(kRegimePrefix).size());
    double ScheduleNet::*field = which == "o"   ? &ScheduleNet::o
                                 : which == "g" ? &ScheduleNet::g
                                 : which == "G" ? &ScheduleNet::G
                                                : &ScheduleNet::O;
    large.*field = to_ns(reader.number(k));
  }
  if (!any) return;
  net.by_size = {net, large};
  net.size_limits = {net.S, kLargest};
  reader.derive("simulated.loggops.rendezvous_regime.o", large.o / 1e9, false, "seconds");
  reader.derive("simulated.loggops.rendezvous_regime.g", large.g / 1e9, false, "seconds");
  reader.derive("simulated.loggops.rendezvous_regime.G", large.G / 1e9, false, "seconds per byte");
  reader.derive("simulated.loggops.rendezvous_regime.O", large.O / 1e9, false, "seconds per byte");
}

// The file's rows as read (docs/hdf5-layout.md): its L before the overheads are taken out, and
// the sizes of the rows used. The [loggops] keys the file replaces leave the record: their
// defaults were not simulated.
void record_measured(ParamReader& reader, const NetgaugeLogGP& m) {
  for (const std::string& key : loggp_file_keys()) reader.forget(key);
  reader.derive("simulated.loggops.file_L", m.L, false, "seconds");
  reader.derive("simulated.loggops.file_row_bytes", static_cast<std::int64_t>(m.message_bytes),
                false, "bytes");
  reader.derive("simulated.loggops.file_gap_row_bytes",
                static_cast<std::int64_t>(m.gap_message_bytes), false, "bytes");
}

// The engine's parameters, in seconds (per byte for G and O), under names of their own: what
// was simulated, whether the [loggops] keys or loggops.file gave it. Not in the stream identity:
// the keys and the file's content already are.
void record_simulated(ParamReader& reader, const ScheduleNet& net) {
  reader.derive("simulated.loggops.L", net.L / 1e9, false, "seconds");
  reader.derive("simulated.loggops.o", net.o / 1e9, false, "seconds");
  reader.derive("simulated.loggops.g", net.g / 1e9, false, "seconds");
  reader.derive("simulated.loggops.G", net.G / 1e9, false, "seconds per byte");
  reader.derive("simulated.loggops.O", net.O / 1e9, false, "seconds per byte");
}

// The engine's parameters of one file row: Netgauge's L is half a small message's round trip,
// both overheads included; the model's one-way time is o + L + o (taken out in nanoseconds, as
// the engine computes).
ScheduleNet row_net(LogGops seconds, const NetgaugeLogGP& m, const ScheduleNet& rules) {
  seconds.L = m.L;
  seconds.o = m.o;
  seconds.g = m.g;
  seconds.G = m.G;
  ScheduleNet net = to_engine_units(seconds, rules.S);
  net.L = std::max(0.0, net.L - 2.0 * net.o);
  net.rendezvous_latencies = rules.rendezvous_latencies;
  return net;
}

bool same_costs(const ScheduleNet& a, const ScheduleNet& b) {
  return a.L == b.L && a.o == b.o && a.g == b.g && a.G == b.G && a.O == b.O;
}

// Each message size's rows: the nearest usable rows change only half-way between two usable
// sizes (a tie: the smaller), so the table holds one entry per stretch of sizes between such
// midpoints, neighbours with the same costs merged. Left empty when one entry would do.
void fill_row_table(ScheduleNet& net, const NetgaugeLogGPTable& table, const LogGops& seconds) {
  std::vector<std::uint64_t> limits;
  const auto midpoints = [&](bool overheads) {
    std::uint64_t previous = 0;
    bool any = false;
    for (const NetgaugeLogGPRow& r : table.rows()) {
      if (!(overheads ? r.overheads_usable : r.gaps_usable)) continue;
      if (any) limits.push_back(previous + (r.message_bytes - previous) / 2);
      previous = r.message_bytes;
      any = true;
    }
  };
  midpoints(true);
  midpoints(false);
  limits.push_back(kLargest);
  std::sort(limits.begin(), limits.end());
  limits.erase(std::unique(limits.begin(), limits.end()), limits.end());
  for (const std::uint64_t limit : limits) {
    const ScheduleNet entry = row_net(seconds, table.nearest(limit), net);
    if (!net.by_size.empty() && same_costs(net.by_size.back(), entry)) {
      net.size_limits.back() = limit;
      continue;
    }
    net.by_size.push_back(entry);
    net.size_limits.push_back(limit);
  }
  if (net.by_size.size() == 1) {
    net.by_size.clear();
    net.size_limits.clear();
  }
}

// The engine's parameters of one fitted regime.
ScheduleNet regime_net(const LogGPRegime& r, const ScheduleNet& rules) {
  const LogGops seconds{.L = r.L, .o = r.o, .g = r.g, .G = r.G, .O = r.O};
  ScheduleNet net = to_engine_units(seconds, rules.S);
  net.rendezvous_latencies = rules.rendezvous_latencies;
  return net;
}

// loggops.file_fit = "regimes": the eager regime's parameters, and above a detected switch the
// rendezvous regime's, S the switch.
ScheduleNetRead read_regimes(ParamReader& reader, const NetgaugeLogGPTable& table,
                             double rendezvous_latencies) {
  if (reader.has(kLogGPBytes.name))
    throw InputError(
        "loggops.file_bytes applies to loggops.file_fit = \"row\": with \"regimes\" each "
        "message takes its own size's regime");
  if (reader.has("loggops.O"))
    throw InputError(
        "loggops.O and loggops.file (loggops.file_fit = \"regimes\") both give it: keep one");
  const NetgaugeRegimeFit fit = fit_netgauge_regimes(table);
  if (fit.eager_bytes && reader.has(kEager.name))
    throw InputError(fmt::format(
        "loggops.S and loggops.file (loggops.file_fit = \"regimes\", its protocol switch at "
        "{} bytes) both give it: keep one",
        *fit.eager_bytes + 1));
  ScheduleNet rules;
  rules.S = fit.eager_bytes ? *fit.eager_bytes : static_cast<std::uint64_t>(reader.integer(kEager));
  rules.rendezvous_latencies = rendezvous_latencies;
  ScheduleNetRead read{
      .net = regime_net(fit.eager, rules),
      .file_fit = "regimes",
      .fit = LogGPFitReport{
          .eager_bytes = fit.eager_bytes, .eager = fit.eager, .rendezvous = fit.rendezvous}};
  if (fit.rendezvous) {
    read.net.by_size = {read.net, regime_net(*fit.rendezvous, rules)};
    read.net.size_limits = {rules.S, kLargest};
  }
  for (const std::string& key : loggp_file_keys()) reader.forget(key);
  reader.forget("loggops.O");
  reader.derive("simulated.loggops.file_L", fit.file_L, false, "seconds");
  record_simulated(reader, read.net);
  return read;
}

}  // namespace

std::vector<KeySpec> schedule_net_keys() {
  std::vector<KeySpec> keys = {kEager, kLogGPFile, kLogGPBytes, kFileFit, kRendezvous};
  for (KeySpec& k : regime_keys()) keys.push_back(std::move(k));
  return keys;
}

ScheduleNetRead read_schedule_net(ParamReader& reader, std::uint64_t row_bytes) {
  LogGops seconds = read_loggops(reader, false);
  const double rendezvous_latencies = reader.text(kRendezvous) == "handshake" ? 2.0 : 0.0;
  if (!reader.has(kLogGPFile.name)) {
    // Neither is read (nor recorded) without a file.
    if (reader.has(kLogGPBytes.name))
      throw InputError("loggops.file_bytes applies with loggops.file, which is not given");
    if (reader.has(kFileFit.name))
      throw InputError("loggops.file_fit applies with loggops.file, which is not given");
    ScheduleNet net = to_engine_units(seconds, static_cast<std::uint64_t>(reader.integer(kEager)));
    net.rendezvous_latencies = rendezvous_latencies;
    record_simulated(reader, net);
    apply_rendezvous_regime(reader, net);
    return {.net = net, .file_fit = "", .fit = std::nullopt};
  }
  for (const std::string& key : loggp_file_keys())
    if (reader.has(key))
      throw InputError(fmt::format("{} and loggops.file both give it: keep one", key));
  for (const KeySpec& k : regime_keys())
    if (reader.has(k.name))
      throw InputError(fmt::format("{} and loggops.file both give it: keep one", k.name));
  const NetgaugeLogGPTable table = NetgaugeLogGPTable::from_file(reader.text(kLogGPFile));
  if (reader.text(kFileFit) == "regimes") return read_regimes(reader, table, rendezvous_latencies);
  ScheduleNet rules;
  rules.S = static_cast<std::uint64_t>(reader.integer(kEager));
  rules.rendezvous_latencies = rendezvous_latencies;
  const bool one_row = reader.has(kLogGPBytes.name);
  if (one_row) row_bytes = static_cast<std::uint64_t>(reader.integer(kLogGPBytes));
  const NetgaugeLogGP m = table.nearest(row_bytes);
  ScheduleNet net = row_net(seconds, m, rules);
  if (!one_row) fill_row_table(net, table, seconds);
  record_measured(reader, m);
  record_simulated(reader, net);
  return {.net = net, .file_fit = "row", .fit = std::nullopt};
}

}  // namespace collnoise
