#include "engine/schedules/engine/latency_pool_keys.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace collnoise {
namespace {

constexpr double kMaxIndex = 1099511627776.0;  // 2^40 samples or bytes

const KeySpec kDraw{.name = "latency.draw",
                    .type = KeyType::kChoice,
                    .meaning =
                        "by_size (a message's one-way time from the pools of the sizes around "
                        "it) or loggp (L drawn from the latency pool, G from the bandwidth pool)",
                    .fallback = std::string("by_size"),
                    .choices = {"by_size", "loggp"}};
const KeySpec kGDraw{.name = "latency.G_draw",
                     .type = KeyType::kChoice,
                     .meaning =
                         "with latency.draw = loggp: one G per message, or one per latency.G_block "
                         "bytes of it",
                     .fallback = std::string("message"),
                     .choices = {"message", "block"}};
const KeySpec kGBlock{.name = "latency.G_block",
                      .type = KeyType::kInteger,
                      .meaning = "with latency.G_draw = block: the bytes each G draw covers",
                      .unit = "bytes",
                      .fallback = std::int64_t{16777216},
                      .bounds = {1.0, kMaxIndex}};
const KeySpec kWarmup{.name = "latency.warmup",
                      .type = KeyType::kInteger,
                      .meaning = "samples dropped at the start of each measured block (warm-up)",
                      .fallback = std::int64_t{0},
                      .bounds = {0.0, kMaxIndex}};
const KeySpec kBlock{.name = "latency.block",
                     .type = KeyType::kInteger,
                     .meaning = "samples per measured block, for latency.warmup",
                     .fallback = std::int64_t{1000},
                     .bounds = {1.0, kMaxIndex}};
const KeySpec kFirst{
    .name = "latency.first_sample",
    .type = KeyType::kInteger,
    .meaning = "the window: the first sample index kept, of each size of each file",
    .fallback = std::int64_t{0},
    .bounds = {0.0, kMaxIndex}};
const KeySpec kLast{.name = "latency.last_sample",
                    .type = KeyType::kInteger,
                    .meaning = "the window: the sample index where it ends (excluded)",
                    .bounds = {1.0, kMaxIndex},
                    .optional = true};
const KeySpec kTrim{.name = "latency.trim_quantile",
                    .meaning = "keep the ceil(q n) smallest samples of each pool (trim above q)",
                    .fallback = 1.0,
                    .bounds = {0.0, 1.0, true, false}};
const KeySpec kMedian{.name = "latency.median",
                      .meaning = "shift or scale each pool to this median one-way time",
                      .unit = "seconds",
                      .bounds = {0.0, 1.0e6},
                      .optional = true};
const KeySpec kMedianBy{.name = "latency.median_by",
                        .type = KeyType::kChoice,
                        .meaning =
                            "how latency.median is reached: scale (x m / median) or shift "
                            "(x + m - median, at least 0)",
                        .fallback = std::string("scale"),
                        .choices = {"scale", "shift"}};

}  // namespace

std::vector<KeySpec> latency_pool_keys() {
  return {kDraw, kGDraw, kGBlock, kWarmup, kBlock, kFirst, kLast, kTrim, kMedian, kMedianBy};
}

PoolDrawOptions read_pool_draw(ParamReader& reader) {
  PoolDrawOptions out;
  out.loggp = reader.text(kDraw) == "loggp";
  const bool given = reader.has(kGDraw.name) || reader.has(kGBlock.name);
  if (!out.loggp) {
    if (given)
      throw InputError(fmt::format("{} applies with latency.draw = \"loggp\"",
                                   reader.has(kGDraw.name) ? kGDraw.name : kGBlock.name));
    return out;
  }
  out.per_block = reader.text(kGDraw) == "block";
  if (!out.per_block && reader.has(kGBlock.name))
    throw InputError("latency.G_block applies with latency.G_draw = \"block\"");
  if (out.per_block) out.block_bytes = static_cast<std::uint64_t>(reader.integer(kGBlock));
  return out;
}

PoolTransform read_pool_transform(ParamReader& reader) {
  PoolTransform t;
  t.warmup = static_cast<std::uint64_t>(reader.integer(kWarmup));
  t.block = static_cast<std::uint64_t>(reader.integer(kBlock));
  if (t.warmup >= t.block)
    throw InputError(
        fmt::format("latency.warmup = {} is invalid: it must be less than latency.block = {}",
                    t.warmup, t.block));
  t.first = static_cast<std::uint64_t>(reader.integer(kFirst));
  if (reader.has(kLast.name)) {
    t.last = static_cast<std::uint64_t>(reader.integer(kLast));
    if (*t.last <= t.first)
      throw InputError(fmt::format(
          "latency.last_sample = {} is invalid: it must be greater than latency.first_sample = {}",
          *t.last, t.first));
  }
  t.trim_quantile = reader.number(kTrim);
  t.median_seconds = reader.optional_number(kMedian);
  if (t.median_seconds)
    t.scale = reader.text(kMedianBy) == "scale";
  else if (reader.has(kMedianBy.name))
    throw InputError("latency.median_by applies with latency.median");
  return t;
}

void refuse_pool_keys(ParamReader& reader) {
  for (const KeySpec& k : latency_pool_keys())
    if (reader.has(k.name))
      throw InputError(fmt::format("{} applies with latency.file, and none is given", k.name));
}

}  // namespace collnoise
