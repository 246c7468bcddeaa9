#pragma once
// The keys of the [latency] table that shape measured pools (docs/models/schedules.md, "Network
// noise"; docs/models/netgauge-files.md, "Transforms"): how a message's time is drawn from them
// (by size, or LogGP with L and G drawn apart), and what is done to each file's samples before
// they are pooled. Declared here once; read with latency.file.
#include <cstdint>
#include <string>
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_reader.hpp"
#include "distributions/latency_samples.hpp"

namespace collnoise {

/// How a message's time comes from the pools (latency.draw).
struct PoolDrawOptions {
  /// LogGP (latency.draw = "loggp"): L from the latency pool, G from the bandwidth pool; else
  /// by size (quantile-space interpolation between measured sizes).
  bool loggp = false;
  /// LogGP: one G for each G_block bytes of a message's (s - 1) bytes, rather than one per message.
  bool per_block = false;
  std::uint64_t block_bytes = std::uint64_t{16} << 20;  ///< G_block, bytes (>= 1)
  /// LogGP (latency.G_charge = "transfer"): the drawn bytes' time occupies the sender's NIC and
  /// the receiver's CPU and NIC in place of (s - 1)G; else its difference from (s - 1)G rides on
  /// the arrival.
  bool transfer_charge = false;
};

/// The pool keys (with message_delay_keys).
std::vector<KeySpec> latency_pool_keys();

/// Reads latency.draw, latency.G_draw, latency.G_block and latency.G_charge. InputError naming the
/// key at fault.
PoolDrawOptions read_pool_draw(ParamReader& reader);
/// The transform keys under `table`: "latency" (as in latency_pool_keys) or "latency.far" (the
/// far pairs' pools: latency.far.warmup, ...; each declared once, as its latency. key).
std::vector<KeySpec> pool_transform_keys(const std::string& table);
/// Reads the transform keys under `table` (latency.warmup, .block, .first_sample,
/// .last_sample, .trim_quantile, .median, .median_by) for `files` files: each key one value for
/// every file, or a list of one per file (per-pool values). InputError naming the key at fault,
/// a list's length that is not `files` naming the key and both lengths.
std::vector<PoolTransform> read_pool_transforms(ParamReader& reader, std::size_t files,
                                                const std::string& table = "latency");
/// Reads latency.tail: whether every pool (near and far) takes a generalised Pareto tail.
bool read_pool_tail(ParamReader& reader);
/// InputError naming the first pool key given (for [latency] tables without a file).
void refuse_pool_keys(ParamReader& reader);

}  // namespace collnoise
