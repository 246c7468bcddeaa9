#include "engine/schedules/engine/latency_pool_keys.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

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
const KeySpec kGCharge{
    .name = "latency.G_charge",
    .type = KeyType::kChoice,
    .meaning =
        "with latency.draw = loggp: where a message's drawn bytes' time is charged: arrival "
        "(its difference from the model's (s-1)G delays the arrival) or transfer (in place "
        "of (s-1)G on the sender's NIC and the receiver's CPU and NIC, as the data set "
        "authors' LogGOPSim fork charges it)",
    .fallback = std::string("arrival"),
    .choices = {"arrival", "transfer"}};
const KeySpec kTail{.name = "latency.tail",
                    .type = KeyType::kChoice,
                    .meaning =
                        "each pool's largest samples as measured (none) or, above a "
                        "threshold, a generalised Pareto tail fitted to them (gpd)",
                    .fallback = std::string("none"),
                    .choices = {"none", "gpd"}};
const KeySpec kWarmup{.name = "latency.warmup",
                      .type = KeyType::kInteger,
                      .meaning =
                          "samples dropped at the start of each measured block (warm-up); one "
                          "value, or one per entry of latency.file (as every transform key)",
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
const KeySpec kPoolMean{.name = "latency.pool_mean",
                        .meaning =
                            "shift or scale each pool to this mean one-way time (in place of "
                            "latency.median: the data set authors' pools are scaled to a mean)",
                        .unit = "seconds",
                        .bounds = {0.0, 1.0e6},
                        .optional = true};
const KeySpec kMedianBy{.name = "latency.median_by",
                        .type = KeyType::kChoice,
                        .meaning =
                            "how latency.median or latency.pool_mean is reached: scale (x m / "
                            "center) or shift (x + m - center, at least 0)",
                        .fallback = std::string("scale"),
                        .choices = {"scale", "shift"}};

// A pool key under `table`: "latency.warmup" as "latency.far.warmup" for the far pairs' pools.
KeySpec in_table(const KeySpec& k, const std::string& table) {
  if (table == "latency") return k;
  KeySpec out = k;
  out.name = table + k.name.substr(std::string("latency").size());
  out.meaning = "the far pairs' pools: " + k.meaning;
  return out;
}

// A transform key's value for each of `files` pools: its one value (or none) for all, or a list
// of one per file, checked against the count of `file_key`'s list.
std::vector<std::optional<double>> per_pool(ParamReader& reader, const KeySpec& spec,
                                            std::size_t files, const std::string& file_key) {
  if (reader.given_list(spec.name)) {
    const NumberList list = reader.numbers(spec);
    if (list.size() != files)
      throw InputError(
          fmt::format("{} has {} values and {} {} files: give one value, or one per file",
                      spec.name, list.size(), file_key, files));
    for (const double x : list)
      if (spec.type == KeyType::kInteger && x != std::floor(x))
        throw InputError(
            fmt::format("{} holds {}: every value must be a whole number", spec.name, x));
    return {list.begin(), list.end()};
  }
  std::optional<double> one;
  if (spec.type == KeyType::kInteger) {
    if (spec.fallback || reader.has(spec.name)) one = static_cast<double>(reader.integer(spec));
  } else {
    one = reader.optional_number(spec);
  }
  return std::vector<std::optional<double>>(files, one);
}

// latency.median_by for each pool, as per_pool; nullopt entries when not given.
std::vector<std::optional<std::string>> per_pool_choice(ParamReader& reader, const KeySpec& spec,
                                                        std::size_t files,
                                                        const std::string& file_key) {
  if (!reader.has(spec.name)) return std::vector<std::optional<std::string>>(files);
  if (!reader.given_list(spec.name))
    return std::vector<std::optional<std::string>>(files, reader.text(spec));
  const TextList list = reader.texts(spec);
  if (list.size() != files)
    throw InputError(
        fmt::format("{} has {} values and {} {} files: give one value, or one per file", spec.name,
                    list.size(), file_key, files));
  for (const std::string& x : list)
    if (std::find(spec.choices.begin(), spec.choices.end(), x) == spec.choices.end())
      throw InputError(fmt::format("{} holds \"{}\": use one of {}", spec.name, x,
                                   fmt::join(spec.choices, ", ")));
  return {list.begin(), list.end()};
}

}  // namespace

std::vector<KeySpec> latency_pool_keys() {
  return {kDraw, kGDraw, kGBlock, kGCharge,  kWarmup,   kBlock, kFirst,
          kLast, kTrim,  kMedian, kPoolMean, kMedianBy, kTail};
}

bool read_pool_tail(ParamReader& reader) {
  return reader.text(kTail) == "gpd";
}

std::vector<KeySpec> pool_transform_keys(const std::string& table) {
  std::vector<KeySpec> keys;
  for (const KeySpec& k : {kWarmup, kBlock, kFirst, kLast, kTrim, kMedian, kPoolMean, kMedianBy})
    keys.push_back(in_table(k, table));
  return keys;
}

PoolDrawOptions read_pool_draw(ParamReader& reader) {
  PoolDrawOptions out;
  out.loggp = reader.text(kDraw) == "loggp";
  if (!out.loggp) {
    for (const KeySpec* k : {&kGDraw, &kGBlock, &kGCharge})
      if (reader.has(k->name))
        throw InputError(fmt::format("{} applies with latency.draw = \"loggp\"", k->name));
    return out;
  }
  out.transfer_charge = reader.text(kGCharge) == "transfer";
  out.per_block = reader.text(kGDraw) == "block";
  if (!out.per_block && reader.has(kGBlock.name))
    throw InputError("latency.G_block applies with latency.G_draw = \"block\"");
  if (out.per_block) out.block_bytes = static_cast<std::uint64_t>(reader.integer(kGBlock));
  return out;
}

std::vector<PoolTransform> read_pool_transforms(ParamReader& reader, std::size_t files,
                                                const std::string& table) {
  const std::string file_key = table + ".file";
  const KeySpec warmup = in_table(kWarmup, table), block = in_table(kBlock, table),
                first = in_table(kFirst, table), last = in_table(kLast, table),
                trim = in_table(kTrim, table), median = in_table(kMedian, table),
                mean = in_table(kPoolMean, table), median_by = in_table(kMedianBy, table);
  const auto w = per_pool(reader, warmup, files, file_key);
  const auto b = per_pool(reader, block, files, file_key);
  const auto f = per_pool(reader, first, files, file_key);
  const auto l = per_pool(reader, last, files, file_key);
  const auto q = per_pool(reader, trim, files, file_key);
  const auto m = per_pool(reader, median, files, file_key);
  const auto c = per_pool(reader, mean, files, file_key);
  const auto by = per_pool_choice(reader, median_by, files, file_key);
  if (reader.has(median.name) && reader.has(mean.name))
    throw InputError(
        fmt::format("{} and {} both set the pools' center: keep one", median.name, mean.name));
  const bool centered = reader.has(median.name) || reader.has(mean.name);
  if (reader.has(median_by.name) && !centered)
    throw InputError(
        fmt::format("{} applies with {} or {}", median_by.name, median.name, mean.name));
  if (centered && !reader.has(median_by.name)) reader.text(median_by);  // recorded
  bool lists = false;
  for (const KeySpec* k : {&warmup, &block, &first, &last, &trim, &median, &mean, &median_by})
    lists |= reader.given_list(k->name);
  std::vector<PoolTransform> out(files);
  for (std::size_t i = 0; i < files; ++i) {
    // Which pool an error is about, when the values are per pool.
    const std::string at = lists ? fmt::format(" (entry {} of {})", i, file_key) : "";
    PoolTransform& t = out[i];
    t.warmup = static_cast<std::uint64_t>(*w[i]);
    t.block = static_cast<std::uint64_t>(*b[i]);
    if (t.warmup >= t.block)
      throw InputError(fmt::format("{} = {} is invalid: it must be less than {} = {}{}",
                                   warmup.name, t.warmup, block.name, t.block, at));
    t.first = static_cast<std::uint64_t>(*f[i]);
    if (l[i]) {
      t.last = static_cast<std::uint64_t>(*l[i]);
      if (*t.last <= t.first)
        throw InputError(fmt::format("{} = {} is invalid: it must be greater than {} = {}{}",
                                     last.name, *t.last, first.name, t.first, at));
    }
    t.trim_quantile = *q[i];
    t.median_seconds = m[i];
    t.mean_seconds = c[i];
    if (t.median_seconds || t.mean_seconds) t.scale = by[i].value_or("scale") == "scale";
  }
  return out;
}

void refuse_pool_keys(ParamReader& reader) {
  for (const KeySpec& k : latency_pool_keys())
    if (reader.has(k.name))
      throw InputError(fmt::format("{} applies with latency.file, and none is given", k.name));
}

}  // namespace collnoise
