#include "engine/schedules/engine/message_delays.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "distributions/law_kind.hpp"

namespace collnoise {

MessageDelays::MessageDelays(std::shared_ptr<const NoiseLaw> eta, double mean_ns)
    : eta_(std::move(eta)), mean_ns_(mean_ns) {}

MessageDelays::MessageDelays(std::shared_ptr<const LatencySamples> samples, bool whole, double L_ns)
    : samples_(std::move(samples)), whole_(whole), L_ns_(L_ns) {}

double MessageDelays::delay_ns(std::uint64_t bytes, double u) const {
  if (eta_) return mean_ns_ * eta_->isf(u);
  const double sample = samples_->draw(bytes, u) * 1e9;
  if (whole_) return sample - L_ns_;
  // The excess over the pool's smallest sample (the (s - s0) G of a borrowed pool cancels).
  return sample - samples_->draw(bytes, 0.0) * 1e9;
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
                    .meaning = "measured latencies: a Netgauge ng_netnoise_mpi_lat.out file",
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
                       "(the sample replaces L)",
                   .fallback = std::string("excess"),
                   .choices = {"excess", "whole"}};

}  // namespace

std::vector<KeySpec> message_delay_keys() {
  return {kLaw, kMean, kFile, kColumn, kUse};
}

std::optional<MessageDelays> read_message_delays(ParamReader& reader, double L_ns, double G_ns) {
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
  if (by_file) {
    const std::string path = reader.text(kFile);
    const LatencyColumn column =
        reader.text(kColumn) == "one_way" ? LatencyColumn::kOneWay : LatencyColumn::kRoundTrip;
    const bool whole = reader.text(kUse) == "whole";
    auto samples = std::make_shared<const LatencySamples>(
        LatencySamples::from_file(path, G_ns * 1e-9, column));
    return MessageDelays(std::move(samples), whole, L_ns);
  }
  for (const KeySpec& k : {kMean, kColumn, kUse})
    if (reader.has(k.name))
      throw InputError(
          fmt::format("{} applies with latency.law or latency.file, and neither is given", k.name));
  return std::nullopt;
}

}  // namespace collnoise
