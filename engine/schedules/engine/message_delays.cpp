#include "engine/schedules/engine/message_delays.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <optional>

#include "core/errors.hpp"
#include "distributions/law_kind.hpp"
#include "engine/schedules/schedule_fields.hpp"

namespace collnoise {

MessageDelays::MessageDelays(std::shared_ptr<const NoiseLaw> eta, double mean_ns)
    : eta_(std::move(eta)), mean_ns_(mean_ns) {}

MessageDelays::MessageDelays(std::shared_ptr<const LatencySamples> samples, LatencyUse use,
                             const ScheduleNet& net)
    : samples_(std::move(samples)), use_(use), net_(net) {}

MessageDelays::MessageDelays(std::shared_ptr<const LatencySamples> samples, LatencyUse use,
                             const ScheduleNet& net, const PoolDrawOptions& draw)
    : samples_(std::move(samples)), use_(use), net_(net), draw_(draw) {}

MessageCharge MessageDelays::draw_loggp(std::uint64_t bytes, double u, Pcg32& stream) const {
  // L from the smallest pool, as a 1-byte message's: wire (the sample is L), whole (its wire,
  // less what the engine charges a 1-byte message elsewhere) or excess (on top of the model's L).
  const ScheduleNet& net = loggopsim::for_size(net_, bytes);  // the message's own parameters
  const std::uint64_t smallest = samples_->smallest_size();
  const double sample = samples_->draw(smallest, u) * 1e9;
  const double wire = use_ == LatencyUse::kWire ? sample
                      : use_ == LatencyUse::kWhole
                          ? std::max(sample - charged_elsewhere_ns(1), 0.0)
                          : net.L + (sample - samples_->draw(smallest, 0.0) * 1e9);
  // G for the (s - 1) bytes after the first: one draw, or one per block (the last block holds
  // the rest), as the cloud-noise authors' LogGOPSim fork does.
  double bytes_time = 0.0;
  if (!draw_.per_block) {
    const double extra = loggopsim::extra_bytes(bytes);
    if (extra > 0.0) bytes_time = extra * samples_->draw_per_byte(stream.next_uniform()) * 1e9;
  } else {
    for (std::uint64_t rest = bytes > 0 ? bytes - 1 : 0; rest > 0;) {
      const std::uint64_t block = std::min(draw_.block_bytes, rest);
      bytes_time +=
          static_cast<double>(block) * samples_->draw_per_byte(stream.next_uniform()) * 1e9;
      rest -= block;
    }
  }
  return {.delay_ns = wire - net.L, .bytes_ns = bytes_time};
}

double MessageDelays::loggp_delay_ns(std::uint64_t bytes, double u, Pcg32& stream) const {
  const MessageCharge drawn = draw_loggp(bytes, u, stream);
  // Charged on the transfer (latency.G_charge = "transfer"): the engine takes the bytes' time
  // from message_charge; the arrival carries the drawn wire only, never below the send's end.
  if (draw_.transfer_charge) return drawn.delay_ns;
  // The receive's end is that of a receive charged max((s-1)O, the drawn bytes' time) after a
  // wire of `wire`; the engine charges max((s-1)O, (s-1)G) there, so the difference rides on
  // the arrival. That difference is negative when the drawn bytes are faster than the model's
  // G, and for a large message it can exceed the wire: the message would then arrive before its
  // send's overhead ended, and a rendezvous sender would be released before it sent. The arrival
  // is kept at or after the send's overhead (L + delay >= 0), so the receive's end is then the
  // model's, later than the drawn bytes' time (docs/models/schedules.md, "Network noise").
  const ScheduleNet& net = loggopsim::for_size(net_, bytes);
  const double extra = loggopsim::extra_bytes(bytes);
  const double per_byte_cpu = extra * net.O;
  const double delay = drawn.delay_ns + std::max(per_byte_cpu, drawn.bytes_ns) -
                       std::max(per_byte_cpu, extra * net.G);
  return std::max(delay, -net.L);
}

MessageCharge MessageDelays::message_charge(std::uint64_t bytes, Pcg32& stream) const {
  const double u = stream.next_uniform();
  return draw_loggp(bytes, u, stream);
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
  if (use_ == LatencyUse::kWire) return sample - loggopsim::for_size(net_, bytes).L;
  if (use_ == LatencyUse::kWhole)
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
  // The sends by size and class: a schedule has few sizes, each worked out once per class.
  std::map<std::pair<std::uint64_t, bool>, std::uint64_t> sends;
  std::visit(
      [&](const auto& x) {
        for (std::uint32_t h = 0; h < x.ranks(); ++h) {
          const auto v = x.view(h);
          for (std::uint64_t op = v.first(); op < v.first() + v.count(); ++op)
            if (v.kind(op) == OpKind::kSend)
              ++sends[{v.size(op), &delays.of_pair(h, v.peer(op)) != &delays}];
        }
      },
      s);
  double floored = 0.0;
  std::uint64_t total = 0;
  for (const auto& [sent, count] : sends) {
    const MessageDelays& d = sent.second ? *delays.far() : delays;
    floored += static_cast<double>(count) * d.floored_share(sent.first);
    total += count;
  }
  return total == 0 ? 0.0 : floored / static_cast<double>(total);
}

namespace {

// Each file's pool of each size, as latency_pools says it: the transform once at the end when
// every file had the same, else with each file's pools.
void pool_lines(const MessageDelays& delays, std::vector<std::string>& lines) {
  const LatencySamples& samples = *delays.samples();
  const bool uniform = samples.uniform_transform();
  for (const auto& r : samples.records()) {
    const auto hash = delays.file_hashes().find(r.file);
    lines.push_back(fmt::format("{} ({} file, {}): {} bytes, {} samples read, {} kept{}", r.file,
                                latency_file_kind_name(r.kind),
                                hash == delays.file_hashes().end() ? "no hash" : hash->second,
                                r.message_bytes, r.read, r.kept,
                                uniform ? "" : ", transform: " + r.transform.describe()));
  }
  if (uniform) lines.push_back(fmt::format("transform: {}", samples.transform().describe()));
}

}  // namespace

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
  pool_lines(delays, lines);
  // The far pairs' own pools (latency.far.file), after the near pairs'.
  if (delays.far() && delays.far()->samples() != delays.samples()) {
    std::vector<std::string> far;
    pool_lines(*delays.far(), far);
    lines.push_back(fmt::format("far pairs: {}", fmt::join(far, "; ")));
  }
  record.put(kLatencyPools, Field(fmt::format("{}", fmt::join(lines, "; "))));
  if (delays.whole_samples()) record.put(kLatencyFlooredShare, Field(floored_share_of(delays, s)));
}

double MessageDelays::tail_index() const {
  double index = std::numeric_limits<double>::infinity();
  if (eta_) index = eta_->tail_index();
  if (samples_)
    for (const LatencyPoolSummary& pool : samples_->summaries())
      if (const std::optional<GpdTail>& tail = samples_->tail(pool.message_bytes);
          tail && tail->shape > 0.0)
        index = std::min(index, 1.0 / tail->shape);
  return far_ ? std::min(index, far_->tail_index()) : index;
}

bool MessageDelays::has_fitted_tails() const {
  const bool here = eta_ ? eta_->fitted_tail_share() > 0.0 : samples_->has_fitted_tails();
  return here || (far_ && far_->has_fitted_tails());
}

bool MessageDelays::from_fitted_tail(std::uint64_t bytes, double u) const {
  if (eta_) return u <= eta_->fitted_tail_share();
  return samples_->in_fitted_tail(draw_.loggp ? samples_->smallest_size() : bytes, u);
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
                       "excess (the sample less its pool's smallest, added to L), whole (the "
                       "sample is the message's one-way time, send start to receive end) or wire "
                       "(the sample is the message's wire latency, in place of L)",
                   .fallback = std::string("excess"),
                   .choices = {"excess", "whole", "wire"}};

const KeySpec kFarFile{.name = "latency.far.file",
                       .type = KeyType::kFile,
                       .meaning =
                           "the far pairs' measured latencies (with network.nodes_per_switch or "
                           "network.mapping), as latency.file; default: latency.file's pools",
                       .optional = true};

}  // namespace

std::vector<KeySpec> message_delay_keys() {
  std::vector<KeySpec> keys = {kLaw, kMean, kFile, kColumn, kUse};
  for (auto& k : latency_pool_keys()) keys.push_back(std::move(k));
  keys.push_back(kFarFile);
  for (auto& k : pool_transform_keys("latency.far")) keys.push_back(std::move(k));
  return keys;
}

namespace {

// The pools of `file_key`'s files, their transforms the keys under `table`; the checksums of the
// files read, by path.
// What a set of pools is read from: a point whose pools match the last ones read takes those
// (a calibration prepares one point per evaluation and table, all on the same pools: reading
// 10 MB of samples each time would be most of its work).
struct PoolSource {
  std::vector<std::string> paths;
  std::map<std::string, std::string> hashes;  // by path: the content read
  double seconds_per_byte = 0.0;
  LatencyColumn column = LatencyColumn::kOneWay;
  std::vector<PoolTransform> transforms;
  bool gpd_tails = false;
  bool operator==(const PoolSource&) const = default;
};

std::shared_ptr<const LatencySamples> pools_of(const PoolSource& source) {
  // One entry, so that what it holds beyond a point's life is at most one point's pools.
  static std::mutex mutex;
  static std::optional<PoolSource> last_source;
  static std::shared_ptr<const LatencySamples> last;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (last_source == source) return last;
  }
  LatencySamples read = LatencySamples::from_files(source.paths, source.seconds_per_byte,
                                                   source.column, source.transforms);
  if (source.gpd_tails) read.fit_gpd_tails();
  auto samples = std::make_shared<const LatencySamples>(std::move(read));
  const std::lock_guard<std::mutex> lock(mutex);
  last_source = source;
  last = samples;
  return samples;
}

std::shared_ptr<const LatencySamples> read_pools(ParamReader& reader, const KeySpec& file_key,
                                                 const std::string& table, const ScheduleNet& net,
                                                 std::map<std::string, std::string>& hashes) {
  PoolSource source;
  source.paths = reader.files(file_key);
  source.column =
      reader.text(kColumn) == "one_way" ? LatencyColumn::kOneWay : LatencyColumn::kRoundTrip;
  source.transforms = read_pool_transforms(reader, source.paths.size(), table);
  source.gpd_tails = read_pool_tail(reader);
  source.seconds_per_byte = net.G * 1e-9;
  for (const auto& f : reader.input_files())
    if (f.key == file_key.name || f.key.starts_with(file_key.name + "[")) hashes[f.path] = f.hash;
  source.hashes = hashes;
  return pools_of(source);
}

// latency.draw = "loggp" needs a bandwidth pool and a smaller one.
void check_loggp_pools(const LatencySamples& samples, const std::string& file_key) {
  bool smaller = false;
  for (const auto& r : samples.records()) smaller |= r.kind != LatencyFileKind::kBandwidth;
  if (!samples.has_bandwidth() || !smaller)
    throw InputError(fmt::format(
        "latency.draw = \"loggp\" needs among {} a bandwidth file (one size above 1 KiB, for G) "
        "and a latency or one-one file (for L)",
        file_key));
}

MessageDelays measured_delays(std::shared_ptr<const LatencySamples> samples, LatencyUse use,
                              const ScheduleNet& net, const PoolDrawOptions& draw,
                              std::map<std::string, std::string> hashes) {
  MessageDelays delays = draw.loggp ? MessageDelays(std::move(samples), use, net, draw)
                                    : MessageDelays(std::move(samples), use, net);
  delays.set_file_hashes(std::move(hashes));
  return delays;
}

// The pools of latency.file, as the [latency] table asks (by_file); with near and far classes,
// the far pairs' too.
MessageDelays read_measured_delays(ParamReader& reader, const ScheduleNet& net) {
  const std::string use_text = reader.text(kUse);
  const LatencyUse use = use_text == "whole"  ? LatencyUse::kWhole
                         : use_text == "wire" ? LatencyUse::kWire
                                              : LatencyUse::kExcess;
  const PoolDrawOptions draw = read_pool_draw(reader);
  std::map<std::string, std::string> hashes;
  auto samples = read_pools(reader, kFile, "latency", net, hashes);
  if (draw.loggp) check_loggp_pools(*samples, kFile.name);
  MessageDelays delays = measured_delays(samples, use, net, draw, hashes);
  if (!net.classes) return delays;
  const ScheduleNet& far_net = net.classes->far;
  std::map<std::string, std::string> far_hashes = hashes;
  if (reader.has(kFarFile.name)) {
    far_hashes.clear();
    samples = read_pools(reader, kFarFile, "latency.far", far_net, far_hashes);
    if (draw.loggp) check_loggp_pools(*samples, kFarFile.name);
  }
  delays.set_far(net.classes, std::make_shared<const MessageDelays>(measured_delays(
                                  std::move(samples), use, far_net, draw, far_hashes)));
  return delays;
}

// The far pool keys given without classes, or without latency.far.file: refused, naming the key.
void refuse_far_keys(ParamReader& reader, bool classes) {
  for (const KeySpec& k : pool_transform_keys("latency.far"))
    if (reader.has(k.name) && !reader.has(kFarFile.name))
      throw InputError(fmt::format("{} applies with latency.far.file, and none is given", k.name));
  if (reader.has(kFarFile.name) && (!classes || !reader.has(kFile.name)))
    throw InputError(
        classes ? std::string("latency.far.file applies with latency.file, and none is given")
                : std::string("latency.far.file applies with near and far rank pairs "
                              "(network.nodes_per_switch or network.mapping), and none is given"));
}

}  // namespace

std::optional<MessageDelays> read_message_delays(ParamReader& reader, const ScheduleNet& net) {
  const bool by_law = reader.has(kLaw.name);
  const bool by_file = reader.has(kFile.name);
  if (by_law && by_file) throw InputError("give one of latency.law and latency.file, not both");
  refuse_far_keys(reader, net.classes != nullptr);
  if (by_law) {
    auto eta = read_unit_law(reader, "latency");
    const std::optional<double> mean = reader.optional_number(kMean);
    if (!mean || *mean <= 0.0)
      throw InputError("latency.law needs latency.mean, the mean extra latency in seconds (> 0)");
    // A law's delays do not depend on the LogGOPS parameters: the far pairs draw them alike.
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
