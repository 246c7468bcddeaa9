#include "outputs/tally_io.hpp"

#include <fmt/format.h>

#include <cmath>
#include <span>

#include "core/errors.hpp"

namespace collnoise {
namespace {

std::string joined_metrics(const TallyLayout& layout) {
  return fmt::format("{}", fmt::join(layout.metrics, ","));
}

std::string joined_pairs(const TallyLayout& layout) {
  std::vector<std::string> parts;
  for (const auto& [a, b] : layout.pairs) parts.push_back(fmt::format("{}:{}", a, b));
  return fmt::format("{}", fmt::join(parts, ","));
}

// The unit of a product of values in units a and b (co-moments, sums of squares): "seconds^2",
// "seconds*bytes"; a pure number ("" or "1") leaves the other unit.
std::string product_unit(const std::string& a, const std::string& b) {
  const auto pure = [](const std::string& u) { return u.empty() || u == "1"; };
  if (pure(a)) return b;
  if (pure(b)) return a;
  return a == b ? a + "^2" : a + "*" + b;
}

void write_histogram(const h5::Group& group, const NamedHistogram& named,
                     const TallyLayout& layout) {
  const auto& h = named.histogram;
  group.write_doubles("edges", h.edges()).set_attribute("units", Field(named.unit));
  group.write_counts("counts", h.counts());
  Record r;
  r.set("underflow", Field(h.underflow()));
  r.set("overflow", Field(h.overflow()));
  r.set("spacing", Field(to_string(h.spacing())));
  r.set("unit", Field(named.unit));
  r.set("metric", named.metric ? Field(layout.metrics[*named.metric])
                               : Field(Null{"filled by the model, not from a metric"}));
  // scikit-hep UHI axis kinds: regular (equal widths) or variable edges.
  r.set("uhi_kind", Field(std::string(h.spacing() == BinSpacing::kLog ? "variable" : "regular")));
  group.write_record(r);
}

std::string text_attribute(const h5::Group& group, const std::string& name,
                           const std::string& where) {
  const auto f = group.attribute(name);
  if (!f || !std::holds_alternative<std::string>(*f))
    throw InputError(fmt::format("{}: the tally has no '{}' attribute", where, name));
  return std::get<std::string>(*f);
}

}  // namespace

void write_tally(const h5::Group& group, const Tally& tally, std::uint64_t chunk_size) {
  const TallyLayout& layout = tally.layout();
  const std::size_t width = layout.metrics.size();
  const std::size_t pairs = layout.pairs.size();
  Record info;
  info.set("chunk_size", Field(chunk_size));
  info.set("chunks", Field(static_cast<std::uint64_t>(tally.chunks().size())));
  info.set("samples", Field(tally.samples()));
  info.set("metrics", Field(joined_metrics(layout)));
  std::vector<std::string> units;
  for (std::size_t m = 0; m < width; ++m) units.push_back(layout.unit_of(m));
  info.set("metric_units", Field(fmt::format("{}", fmt::join(units, ","))));
  info.set("pairs", Field(joined_pairs(layout)));
  info.set("keep_raw", Field(layout.keep_raw));
  group.write_record(info);

  std::vector<std::uint64_t> index, count, pair_count;
  std::vector<double> mean, m2, min, max, mean_lo, m2_lo, pair_mean_x, pair_mean_y, pair_c;
  std::vector<std::span<const double>> raw;
  for (const auto& [c, chunk] : tally.chunks()) {
    index.push_back(c);
    for (const auto& a : chunk.metrics) {
      count.push_back(a.count);
      mean.push_back(a.mean);
      m2.push_back(a.m2);
      min.push_back(a.min);
      max.push_back(a.max);
      mean_lo.push_back(a.mean_lo);
      m2_lo.push_back(a.m2_lo);
    }
    for (const auto& p : chunk.pairs) {
      pair_count.push_back(p.count);
      pair_mean_x.push_back(p.mean_x);
      pair_mean_y.push_back(p.mean_y);
      pair_c.push_back(p.c);
    }
    raw.emplace_back(chunk.raw);
  }
  // Units: per column of the [chunks, metrics] and [chunks, pairs] arrays, as `units` arrays.
  std::vector<std::string> squared_units, x_units, y_units, c_units;
  for (const auto& u : units) squared_units.push_back(product_unit(u, u));
  for (const auto& [a, b] : layout.pairs) {
    x_units.push_back(units.at(a));
    y_units.push_back(units.at(b));
    c_units.push_back(product_unit(units.at(a), units.at(b)));
  }
  const auto chunks = group.create_group("chunks");
  chunks.write_counts("index", index);
  chunks.write_counts("count", count, width);
  chunks.write_doubles("mean", mean, width).set_texts("units", units);
  chunks.write_doubles("m2", m2, width).set_texts("units", squared_units);
  chunks.write_doubles("min", min, width).set_texts("units", units);
  chunks.write_doubles("max", max, width).set_texts("units", units);
  // The compensation terms of the double-double mean and m2 (estimators/accumulator.hpp).
  chunks.write_doubles("mean_lo", mean_lo, width).set_texts("units", units);
  chunks.write_doubles("m2_lo", m2_lo, width).set_texts("units", squared_units);
  if (pairs > 0) {
    chunks.write_counts("pair_count", pair_count, pairs);
    chunks.write_doubles("pair_mean_x", pair_mean_x, pairs).set_texts("units", x_units);
    chunks.write_doubles("pair_mean_y", pair_mean_y, pairs).set_texts("units", y_units);
    chunks.write_doubles("pair_c", pair_c, pairs).set_texts("units", c_units);
  }
  if (layout.keep_raw)
    group.write_concatenated("raw", raw).set_attribute("units", Field(layout.unit_of(0)));

  const auto totals = group.create_group("totals");
  for (std::size_t m = 0; m < width; ++m) {
    const Accumulator a = tally.total(m);
    Record t;
    t.set("count", Field(a.count));
    t.set("mean", Field(a.mean));
    t.set("m2", Field(a.m2));
    t.set("min", Field(a.min));
    t.set("max", Field(a.max));
    t.set("sd", Field(a.sd()));
    t.set_unit({"mean", "min", "max", "sd"}, units[m]);
    t.set_unit("m2", squared_units[m]);
    totals.create_group(layout.metrics[m]).write_record(t);
  }
  const auto histograms = group.create_group("histograms");
  for (const auto& h : tally.histograms())
    write_histogram(histograms.create_group(h.name), h, layout);
  const auto tops = group.create_group("top_values");
  for (std::size_t m = 0; m < width; ++m)
    if (tally.tops()[m].capacity() > 0)
      tops.write_doubles(layout.metrics[m], tally.tops()[m].descending())
          .set_attribute("units", Field(units[m]));
}

namespace {

std::uint64_t chunk_size_of(const h5::Group& group, const std::string& where) {
  const auto size = group.attribute("chunk_size");
  if (!size || !std::holds_alternative<std::uint64_t>(*size) || std::get<std::uint64_t>(*size) == 0)
    throw InputError(fmt::format("{}: the tally has no valid chunk size", where));
  return std::get<std::uint64_t>(*size);
}

// What a tally written by this program always satisfies. A file that passed its checksum holds
// it; an unverified one (--no-verify, or one written before checksums) may not, and its numbers
// could otherwise make an estimator run for ever (a count of 2^60 samples in a quantile's
// binomial interval) or read out of bounds.
void check_chunk_values(const std::string& where, std::uint64_t chunk_size, std::size_t width,
                        std::span<const std::uint64_t> count, std::span<const double> mean,
                        std::span<const double> m2, std::span<const double> min,
                        std::span<const double> max) {
  for (std::size_t k = 0; k < count.size(); ++k) {
    const std::size_t first_of_chunk = k - k % width;
    // The running mean may stray from [min, max] by rounding, never further.
    const double slack = 1e-9 * (std::abs(min[k]) + std::abs(max[k]));
    const bool ordered = count[k] == 0 || (min[k] <= max[k] && min[k] - slack <= mean[k] &&
                                           mean[k] <= max[k] + slack);
    if (count[k] > chunk_size || count[k] != count[first_of_chunk] || !ordered || !(m2[k] >= 0.0))
      throw InputError(fmt::format(
          "{}: chunk record {} is inconsistent (count {}, chunk size {}, mean {}, min {}, max {}, "
          "m2 {}): the file is damaged",
          where, k / width, count[k], chunk_size, mean[k], min[k], max[k], m2[k]));
  }
}

// A compensation term is below an ulp of its leading part (estimators/accumulator.hpp): a larger
// one would move a mean the checks above cannot see.
void check_compensation(const std::string& where, std::size_t width, std::span<const double> hi,
                        std::span<const double> lo, const std::string& name) {
  for (std::size_t k = 0; k < hi.size(); ++k)
    if (!(std::abs(lo[k]) <= 0x1.0p-52 * std::abs(hi[k])))
      throw InputError(fmt::format(
          "{}: chunk record {} is inconsistent ({} {} with compensation {}): the file is damaged",
          where, k / width, name, hi[k], lo[k]));
}

// A metric's histogram counts every sample of the metric, outside its range included.
void check_histogram_total(const std::string& where, const NamedHistogram& named,
                           const Tally& tally) {
  std::uint64_t samples = 0;
  for (const auto& [index, chunk] : tally.chunks()) samples += chunk.metrics[*named.metric].count;
  std::uint64_t counted = named.histogram.underflow();
  bool overflowed = __builtin_add_overflow(counted, named.histogram.overflow(), &counted);
  for (const std::uint64_t c : named.histogram.counts())
    overflowed = overflowed || __builtin_add_overflow(counted, c, &counted);
  if (overflowed || counted != samples)
    throw InputError(fmt::format(
        "{}: histogram '{}' counts {} values of {} samples: the file is damaged", where, named.name,
        overflowed ? std::string("more than 2^64") : std::to_string(counted), samples));
}

}  // namespace

Tally read_tally(const h5::Group& group, const TallyLayout& layout, const std::string& where) {
  if (text_attribute(group, "metrics", where) != joined_metrics(layout) ||
      text_attribute(group, "pairs", where) != joined_pairs(layout))
    throw InputError(fmt::format("{}: the stored tally's metrics differ from this run's", where));
  const auto keep_raw = group.attribute("keep_raw");
  if (!keep_raw || !std::holds_alternative<bool>(*keep_raw) ||
      std::get<bool>(*keep_raw) != layout.keep_raw)
    throw InputError(fmt::format("{}: output.raw_samples differs from this run's", where));
  Tally tally(layout);
  const std::size_t width = layout.metrics.size();
  const std::size_t pairs = layout.pairs.size();
  const auto chunks = group.open_group("chunks");
  const auto index = chunks.read_counts("index");
  const auto count = chunks.read_counts("count");
  const auto mean = chunks.read_doubles("mean");
  const auto m2 = chunks.read_doubles("m2");
  const auto min = chunks.read_doubles("min");
  const auto max = chunks.read_doubles("max");
  // Files written before the compensation terms existed: read as uncompensated (zero terms).
  const auto compensation = [&](const std::string& name) {
    return chunks.has_child(name) ? chunks.read_doubles(name) : std::vector<double>(mean.size());
  };
  const auto mean_lo = compensation("mean_lo");
  const auto m2_lo = compensation("m2_lo");
  std::vector<std::uint64_t> pair_count;
  std::vector<double> pair_mean_x, pair_mean_y, pair_c;
  if (pairs > 0) {
    pair_count = chunks.read_counts("pair_count");
    pair_mean_x = chunks.read_doubles("pair_mean_x");
    pair_mean_y = chunks.read_doubles("pair_mean_y");
    pair_c = chunks.read_doubles("pair_c");
  }
  const std::size_t n = index.size();
  if (count.size() != n * width || mean.size() != n * width || m2.size() != n * width ||
      min.size() != n * width || max.size() != n * width || mean_lo.size() != n * width ||
      m2_lo.size() != n * width || pair_count.size() != n * pairs || pair_c.size() != n * pairs)
    throw InputError(fmt::format("{}: the tally's chunk arrays are inconsistent", where));
  check_chunk_values(where, chunk_size_of(group, where), width, count, mean, m2, min, max);
  check_compensation(where, width, mean, mean_lo, "mean");
  check_compensation(where, width, m2, m2_lo, "m2");
  const std::vector<double> raw =
      layout.keep_raw ? group.read_doubles("raw") : std::vector<double>{};
  std::size_t raw_at = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ChunkTally chunk;
    for (std::size_t m = 0; m < width; ++m) {
      const std::size_t k = i * width + m;
      chunk.metrics.push_back({count[k], mean[k], m2[k], min[k], max[k], mean_lo[k], m2_lo[k]});
    }
    for (std::size_t p = 0; p < pairs; ++p) {
      const std::size_t k = i * pairs + p;
      chunk.pairs.push_back({pair_count[k], pair_mean_x[k], pair_mean_y[k], pair_c[k]});
    }
    if (layout.keep_raw) {
      const std::size_t len = width > 0 ? static_cast<std::size_t>(chunk.metrics[0].count) : 0;
      if (raw_at + len > raw.size())
        throw InputError(fmt::format("{}: the tally's raw samples are truncated", where));
      chunk.raw.assign(raw.begin() + static_cast<std::ptrdiff_t>(raw_at),
                       raw.begin() + static_cast<std::ptrdiff_t>(raw_at + len));
      raw_at += len;
    }
    tally.insert_chunk(index[i], std::move(chunk));
  }
  const auto histograms = group.open_group("histograms");
  for (auto& named : tally.histograms()) {
    if (!histograms.has_child(named.name))
      throw InputError(fmt::format("{}: histogram '{}' is missing", where, named.name));
    const auto h = histograms.open_group(named.name);
    const auto edges = h.read_doubles("edges");
    if (edges != named.histogram.edges())
      throw InputError(fmt::format("{}: histogram '{}' has other bin edges", where, named.name));
    const auto underflow = h.attribute("underflow");
    const auto overflow = h.attribute("overflow");
    if (!underflow || !overflow || !std::holds_alternative<std::uint64_t>(*underflow) ||
        !std::holds_alternative<std::uint64_t>(*overflow))
      throw InputError(
          fmt::format("{}: histogram '{}' lacks its under/overflow", where, named.name));
    named.histogram =
        Histogram::from_parts(edges, h.read_counts("counts"), std::get<std::uint64_t>(*underflow),
                              std::get<std::uint64_t>(*overflow), named.histogram.spacing());
    if (named.metric) check_histogram_total(where, named, tally);
  }
  if (layout.keep_raw && raw_at != raw.size())
    throw InputError(fmt::format("{}: the tally holds more raw samples than it counts", where));
  const auto tops = group.open_group("top_values");
  for (std::size_t m = 0; m < width; ++m) {
    if (tally.tops()[m].capacity() == 0) continue;
    TopValues restored(tally.tops()[m].capacity());
    for (double x : tops.read_doubles(layout.metrics[m])) restored.add(x);
    tally.tops()[m] = std::move(restored);
  }
  return tally;
}

}  // namespace collnoise
