#include "engine/schedules/engine/message_delays.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <limits>
#include <map>

#include "core/errors.hpp"
#include "distributions/law_kind.hpp"
#include "engine/schedules/schedule_fields.hpp"

namespace collnoise {

MessageDelays::MessageDelays(std::shared_ptr<const NoiseLaw> eta, double mean_ns)
    : eta_(std::move(eta)), mean_ns_(mean_ns) {}

MessageDelays::MessageDelays(std::shared_ptr<const LatencySamples> samples, bool whole,
                             const ScheduleNet& net)
    : samples_(std::move(samples)), whole_(whole), net_(net) {}

MessageDelays::MessageDelays(std::shared_ptr<const LatencySamples> samples, bool whole,
                             const ScheduleNet& net, const PoolDrawOptions& draw)
    : samples_(std::move(samples)), whole_(whole), net_(net), draw_(draw) {}

double MessageDelays::loggp_delay_ns(std::uint64_t bytes, double u, Pcg32& stream) const {
  // L from the smallest pool, as a 1-byte message's: whole (its wire, less what the engine
  // charges a 1-byte message elsewhere) or excess (on top of the model's L).
  const ScheduleNet& net = loggopsim::for_size(net_, bytes);  // the message's own parameters
  const std::uint64_t smallest = samples_->smallest_size();
  const double sample = samples_->draw(smallest, u) * 1e9;
  const double wire = whole_ ? std::max(sample - charged_elsewhere_ns(1), 0.0)
                             : net.L + (sample - samples_->draw(smallest, 0.0) * 1e9);
  // G for the (s - 1) bytes after the first: one draw, or one per block (the last block holds
  // the rest), as the cloud-noise authors' LogGOPSim fork does.
  const double extra = loggopsim::extra_bytes(bytes);
  double bytes_time = 0.0;
  if (!draw_.per_block) {
    if (extra > 0.0) bytes_time = extra * samples_->draw_per_byte(stream.next_uniform()) * 1e9;
  } else {
    for (std::uint64_t rest = bytes > 0 ? bytes - 1 : 0; rest > 0;) {
      const std::uint64_t block = std::min(draw_.block_bytes, rest);
      bytes_time +=
          static_cast<double>(block) * samples_->draw_per_byte(stream.next_uniform()) * 1e9;
      rest -= block;
    }
  }
  // The receive's end is that of a receive charged max((s-1)O, the drawn bytes' time) after a
  // wire of `wire`; the engine charges max((s-1)O, (s-1)G) there, so the difference rides on
  // the arrival.
  const double per_byte_cpu = extra * net.O;
  return wire - net.L + std::max(per_byte_cpu, bytes_time) - std::max(per_byte_cpu, extra * net.G);
}

double MessageDelays::charged_elsewhere_ns(std::uint64_t bytes) const {
  // The message's own parameters: with a LogGP file's rows or regimes, its size's.
  const ScheduleNet& net = loggopsim::for_size(net_, bytes);
  return net.o + loggopsim::receive_overhead(net, loggopsim::extra_bytes(bytes));
}

double MessageDelays::delay_ns(std::uint64_t bytes, double u) const {
  if (eta_) return mean_ns_ * eta_->isf(u);
  const double sample = samples_->draw(bytes, u) * 1e9;
  // A whole sample is the message's one-way time: the wire term L + delay is what the engine
  // does not charge elsewhere, never negative.
  if (whole_)
    return std::max(sample - charged_elsewhere_ns(bytes), 0.0) - loggopsim::for_size(net_, bytes).L;
  // The excess over the pool's smallest sample (the (s - s0) G of a borrowed pool cancels).
  return sample - samples_->draw(bytes, 0.0) * 1e9;
}

double MessageDelays::floored_share(std::uint64_t bytes) const {
  if (!whole_samples()) return 0.0;
  // LogGP floors the L of the smallest pool, charged as a 1-byte message's.
  if (draw_.loggp)
    return samples_->share_below(samples_->smallest_size(), charged_elsewhere_ns(1) * 1e-9);
  return samples_->share_below(bytes, charged_elsewhere_ns(bytes) * 1e-9);
}

double floored_share_of(const MessageDelays& delays, const AnySchedule& s) {
  if (!delays.whole_samples()) return 0.0;
  // The sends by size: a schedule has few sizes, each worked out once.
  std::map<std::uint64_t, std::uint64_t> sends;
  std::visit(
      [&](const auto& x) {
        for (std::uint32_t h = 0; h < x.ranks(); ++h) {
          const auto v = x.view(h);
          for (std::uint64_t op = v.first(); op < v.first() + v.count(); ++op)
            if (v.kind(op) == OpKind::kSend) ++sends[v.size(op)];
        }
      },
      s);
  double floored = 0.0;
  std::uint64_t total = 0;
  for (const auto& [bytes, count] : sends) {
    floored += static_cast<double>(count) * delays.floored_share(bytes);
    total += count;
  }
  return total == 0 ? 0.0 : floored / static_cast<double>(total);
}

void put_latency_fields(Record& record, const MessageDelays& delays, const AnySchedule& s) {
  using namespace schedule_fields;
  if (!delays.samples()) return;
  const LatencySamples& samples = *delays.samples();
  std::vector<double> bytes, counts;
  for (const auto& pool : samples.summaries()) {
    bytes.push_back(static_cast<double>(pool.message_bytes));
    counts.push_back(static_cast<double>(pool.samples));
  }
  record.put(kLatencyPoolBytes, Field(series_of(bytes)));
  record.put(kLatencyPoolSamples, Field(series_of(counts)));
  std::vector<std::string> lines;
  for (const auto& r : samples.records()) {
    const auto hash = delays.file_hashes().find(r.file);
    lines.push_back(fmt::format("{} ({} file, {}): {} bytes, {} samples read, {} kept", r.file,
                                latency_file_kind_name(r.kind),
                                hash == delays.file_hashes().end() ? "no hash" : hash->second,
                                r.message_bytes, r.read, r.kept));
  }
  lines.push_back(fmt::format("transform: {}", samples.transform().describe()));
  record.put(kLatencyPools, Field(fmt::format("{}", fmt::join(lines, "; "))));
  if (delays.whole_samples()) record.put(kLatencyFlooredShare, Field(floored_share_of(delays, s)));
}

double MessageDelays::tail_index() const {
  return eta_ ? eta_->tail_index() : std::numeric_limits<double>::infinity();
}

namespace {

const KeySpec kLaw{.name = "latency.law",
                   .type = KeyType::kText,
                   .meaning =
                       "a noise law for each message's extra latency (shape keys under "
                       "latency.)",
                   .optional = true};
const KeySpec kMean{.name = "latency.mean",
                    .meaning = "the mean extra latency of a message (with latency.law)",
                    .unit = "seconds",
                    .bounds = {0.0, 1.0e3},
                    .optional = true};
const KeySpec kFile{.name = "latency.file",
                    .type = KeyType::kFile,
                    .meaning =
                        "measured latencies: Netgauge latency (ng_netnoise_mpi_lat.out), "
                        "bandwidth (ng_netnoise_mpi_bw.out) or one-one (ng_one_one_mpi_*.out) "
                        "files, one or a list",
                    .optional = true};
const KeySpec kColumn{.name = "latency.column",
                      .type = KeyType::kChoice,
                      .meaning = "what the file's second column holds: rtt (halved) or one_way",
                      .fallback = std::string("rtt"),
                      .choices = {"rtt", "one_way"}};
const KeySpec kUse{.name = "latency.use",
                   .type = KeyType::kChoice,
                   .meaning =
                       "excess (the sample less its pool's smallest, added to L) or whole "
                       "(the sample is the message's one-way time, send start to receive end)",
                   .fallback = std::string("excess"),
                   .choices = {"excess", "whole"}};

}  // namespace

std::vector<KeySpec> message_delay_keys() {
  std::vector<KeySpec> keys = {kLaw, kMean, kFile, kColumn, kUse};
  for (auto& k : latency_pool_keys()) keys.push_back(std::move(k));
  return keys;
}

namespace {

// The pools of latency.file, as the [latency] table asks (by_file).
MessageDelays read_measured_delays(ParamReader& reader, const ScheduleNet& net) {
  const std::vector<std::string> paths = reader.files(kFile);
  const LatencyColumn column =
      reader.text(kColumn) == "one_way" ? LatencyColumn::kOneWay : LatencyColumn::kRoundTrip;
  const bool whole = reader.text(kUse) == "whole";
  const PoolDrawOptions draw = read_pool_draw(reader);
  const PoolTransform transform = read_pool_transform(reader);
  auto samples = std::make_shared<const LatencySamples>(
      LatencySamples::from_files(paths, net.G * 1e-9, column, transform));
  if (draw.loggp) {
    bool smaller = false;
    for (const auto& r : samples->records()) smaller |= r.kind != LatencyFileKind::kBandwidth;
    if (!samples->has_bandwidth() || !smaller)
      throw InputError(
          "latency.draw = \"loggp\" needs among latency.file a bandwidth file (one size above "
          "1 KiB, for G) and a latency or one-one file (for L)");
  }
  MessageDelays delays = draw.loggp ? MessageDelays(samples, whole, net, draw)
                                    : MessageDelays(std::move(samples), whole, net);
  std::map<std::string, std::string> hashes;
  for (const auto& f : reader.input_files())
    if (f.key.starts_with(kFile.name)) hashes[f.path] = f.hash;
  delays.set_file_hashes(std::move(hashes));
  return delays;
}

}  // namespace

std::optional<MessageDelays> read_message_delays(ParamReader& reader, const ScheduleNet& net) {
  const bool by_law = reader.has(kLaw.name);
  const bool by_file = reader.has(kFile.name);
  if (by_law && by_file) throw InputError("give one of latency.law and latency.file, not both");
  if (by_law) {
    auto eta = read_unit_law(reader, "latency");
    const std::optional<double> mean = reader.optional_number(kMean);
    if (!mean || *mean <= 0.0)
      throw InputError("latency.law needs latency.mean, the mean extra latency in seconds (> 0)");
    return MessageDelays(std::move(eta), *mean * 1e9);
  }
  if (by_file) return read_measured_delays(reader, net);
  refuse_pool_keys(reader);
  for (const KeySpec& k : {kMean, kColumn, kUse})
    if (reader.has(k.name))
      throw InputError(
          fmt::format("{} applies with latency.law or latency.file, and neither is given", k.name));
  return std::nullopt;
}

}  // namespace collnoise
