#include "outputs/result_file.hpp"

#include <fmt/format.h>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "collnoise_version.hpp"
#include "core/errors.hpp"
#include "outputs/hdf5.hpp"
#include "outputs/point_identity.hpp"
#include "outputs/points_table.hpp"
#include "outputs/tally_io.hpp"
#include "outputs/timestamp.hpp"

namespace collnoise {
namespace {

void write_point(const h5::Group& group, const PointResult& p, const PointIdentity* identity) {
  Record kind;
  kind.set("kind", Field(p.kind));
  if (!p.table_columns.empty()) kind.set("table_columns", Field(p.table_columns));
  kind.set("table_params", Field(p.table_params));
  if (p.wall_time_s) {
    kind.set("wall_time_s", Field(*p.wall_time_s));
    kind.set_unit("wall_time_s", "seconds");
  }
  group.write_record(kind);
  if (identity) write_point_identity(group, *identity);
  if (!p.plot.fields().empty()) group.create_group("plot").write_record(p.plot);
  group.create_group("params").write_record(p.params);
  // The bounds' fields go to the bounds table: a group holds at most 65535 attributes.
  group.create_group("summary").write_record(without_bound_fields(p.summary));
  if (p.tally) write_tally(group.create_group("tally"), *p.tally, p.chunk_size);
}

// The predictions as groups of their own, as the points are, and as one table.
void write_predictions(const h5::Group& root, std::span<const PredictionResult> predictions) {
  if (predictions.empty()) return;
  const h5::Group all = root.create_group(kPredictionsGroup);
  std::vector<PointRecords> rows;
  for (std::size_t i = 0; i < predictions.size(); ++i) {
    const h5::Group group = all.create_group(fmt::format("{:04d}", i));
    group.create_group("params").write_record(predictions[i].params);
    group.create_group("summary").write_record(predictions[i].summary);
    rows.push_back({kPredictionKind, &predictions[i].params, &predictions[i].summary});
  }
  write_predictions_table(root, points_table(rows));
}

std::vector<PredictionResult> read_predictions(const h5::Group& root) {
  std::vector<PredictionResult> predictions;
  if (!root.has_child(kPredictionsGroup)) return predictions;
  const h5::Group all = root.open_group(kPredictionsGroup);
  for (const auto& name : all.children()) {
    const h5::Group g = all.open_group(name);
    predictions.push_back(
        {g.open_group("params").read_record(), g.open_group("summary").read_record()});
  }
  return predictions;
}

Record root_attributes(const RunIdentity& run, const RunInfo& info, std::size_t points) {
  Record r;
  r.set("filetype", Field(std::string(kFileType)));
  r.set("format_version", Field(kFormatVersion));
  r.set("engine_version", Field(std::string(kEngineVersion)));
  r.set("git_sha", Field(std::string(kGitSha)));
  r.set("date", Field(utc_timestamp()));
  r.set("name", Field(run.name));
  r.set("kind", Field(info.kind));
  r.set("seed", Field(run.seed));
  r.set("stream_format", Field(run.stream_format));
  r.set("libm_variant", Field(info.math_library));
  r.set("threads", Field(static_cast<std::int64_t>(info.threads)));
  r.set("processes", Field(static_cast<std::int64_t>(info.processes)));
  r.set("run_kind", Field(run.run_kind));
  r.set("samples_per_point", Field(run.samples));
  r.set("confidence", Field(run.confidence));
  r.set("run_file_path", Field(run.path));
  r.set("run_file_text", Field(run.text));
  r.set("wall_time_s", Field(info.wall_time_s));
  r.set_unit("wall_time_s", "seconds");
  r.set("part", Field(info.part));
  if (!info.merged_from.empty())
    r.set("merged_from", Field(fmt::format("{}", fmt::join(info.merged_from, "\n"))));
  r.set("points", Field(static_cast<std::uint64_t>(points)));
  return r;
}

}  // namespace

void write_result_file(const std::string& path, const RunIdentity& run, const RunInfo& info,
                       const std::vector<PointResult>& points,
                       std::span<const PredictionResult> predictions) {
  h5::File file = h5::File::create();
  {
    const h5::Group root = file.root();
    root.write_record(root_attributes(run, info, points.size()));
    const h5::Group all = root.create_group("points");
    std::vector<PointRecords> rows;
    for (std::size_t i = 0; i < points.size(); ++i) {
      write_point(all.create_group(fmt::format("{:04d}", i)), points[i],
                  i < run.points.size() ? &run.points[i] : nullptr);
      rows.push_back({points[i].kind, &points[i].params, &points[i].summary});
    }
    // The same values again as one table, for loading in one call; the groups stay the record
    // (nulls with their reasons, lists, tallies).
    write_points_table(root, points_table(rows));
    if (const PointsTable bounds = bounds_table(rows); bounds.columns.front().rows() > 0)
      write_bounds_table(root, bounds);
    write_predictions(root, predictions);
  }
  file.commit(path);
}

namespace {

void check_result_root(const Record& root, const std::string& path) {
  const Field* type = root.find("filetype");
  if (!type || !std::holds_alternative<std::string>(*type) ||
      std::get<std::string>(*type) != kFileType)
    throw InputError(fmt::format("'{}' is not a collnoise result file (filetype attribute)", path));
  const Field* version = root.find("format_version");
  if (!version || !std::holds_alternative<std::int64_t>(*version) ||
      std::get<std::int64_t>(*version) != kFormatVersion)
    throw InputError(fmt::format("'{}' has an unsupported format_version (this build reads {})",
                                 path, kFormatVersion));
}

}  // namespace

namespace {

// A file that verified (or was read unverified) but that HDF5 or our checks cannot read as a
// result: a damaged input (exit 2), not a failure of the run.
template <class Read>
auto read_as_input(const std::string& path, Read&& read) {
  try {
    return read();
  } catch (const InputError&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw InputError(fmt::format("'{}' is damaged: it claims more data than memory holds", path));
  } catch (const std::exception& e) {
    throw InputError(fmt::format("'{}' is damaged or not a collnoise result: {}", path, e.what()));
  }
}

std::vector<std::optional<Tally>> read_tallies(
    const std::string& path, const std::vector<std::optional<TallyLayout>>& layouts,
    const h5::ReadOptions& options) {
  const h5::File file = h5::File::open(path, options);
  check_result_root(file.root().read_record(), path);
  const h5::Group all = file.root().open_group("points");
  const auto names = all.children();
  if (names.size() != layouts.size())
    throw InputError(fmt::format("'{}' holds {} points, its run file gives {}", path, names.size(),
                                 layouts.size()));
  std::vector<std::optional<Tally>> tallies(layouts.size());
  for (std::size_t i = 0; i < layouts.size(); ++i) {
    if (!layouts[i]) continue;
    const h5::Group g = all.open_group(names[i]);
    if (!g.has_child("tally"))
      throw InputError(fmt::format("'{}': point {} has no tally", path, names[i]));
    tallies[i] = read_tally(g.open_group("tally"), *layouts[i],
                            fmt::format("'{}', point {}", path, names[i]));
  }
  return tallies;
}

ResultFile read_result(const std::string& path, const h5::ReadOptions& options) {
  const h5::File file = h5::File::open(path, options);
  const h5::Group root = file.root();
  ResultFile out;
  out.root = root.read_record();
  check_result_root(out.root, path);
  const h5::Group all = root.open_group("points");
  for (const auto& name : all.children()) {
    const h5::Group g = all.open_group(name);
    out.params.push_back(g.open_group("params").read_record());
    out.summaries.push_back(g.open_group("summary").read_record());
    const Record attributes = g.read_record();
    const Field* columns = attributes.find("table_columns");
    out.table_columns.push_back(columns && std::holds_alternative<std::string>(*columns)
                                    ? std::get<std::string>(*columns)
                                    : std::string());
    const Field* shown = attributes.find("table_params");
    out.table_params.push_back(shown && std::holds_alternative<std::string>(*shown)
                                   ? std::optional(std::get<std::string>(*shown))
                                   : std::nullopt);
    const Field* wall = attributes.find("wall_time_s");
    out.wall_times_s.push_back(wall && std::holds_alternative<double>(*wall)
                                   ? std::optional(std::get<double>(*wall))
                                   : std::nullopt);
    out.identities.push_back(read_point_identity(g, fmt::format("'{}', point {}", path, name)));
  }
  read_bound_fields(root, out.summaries, path);
  out.predictions = read_predictions(root);
  return out;
}

std::string text_attribute(const h5::Group& group, const std::string& name) {
  const auto value = group.attribute(name);
  return value && std::holds_alternative<std::string>(*value) ? std::get<std::string>(*value)
                                                              : std::string();
}

std::optional<RawSamples> read_raw(const std::string& path, std::size_t point,
                                   const h5::ReadOptions& options) {
  const h5::File file = h5::File::open(path, options);
  check_result_root(file.root().read_record(), path);
  const h5::Group all = file.root().open_group("points");
  const auto names = all.children();
  if (point >= names.size()) throw InputError(fmt::format("'{}' holds no point {}", path, point));
  const h5::Group g = all.open_group(names[point]);
  if (!g.has_child("tally")) return std::nullopt;
  const h5::Group tally = g.open_group("tally");
  const auto keep = tally.attribute("keep_raw");
  if (!keep || !std::holds_alternative<bool>(*keep) || !std::get<bool>(*keep)) return std::nullopt;
  RawSamples raw;
  raw.values = tally.read_doubles("raw");
  // The first of the metrics ("a,b,c") and of their units ("seconds,seconds,1").
  const std::string metrics = text_attribute(tally, "metrics");
  const std::string units = text_attribute(tally, "metric_units");
  raw.metric = metrics.substr(0, metrics.find(','));
  raw.unit = units.substr(0, units.find(','));
  const auto samples = tally.attribute("samples");
  if (samples && std::holds_alternative<std::uint64_t>(*samples) &&
      std::get<std::uint64_t>(*samples) != raw.values.size())
    throw InputError(
        fmt::format("'{}', point {}: the tally counts {} samples but holds {} raw ones", path,
                    names[point], std::get<std::uint64_t>(*samples), raw.values.size()));
  return raw;
}

}  // namespace

std::size_t select_point(const ResultFile& file, std::uint64_t point, const std::string& path) {
  if (file.summaries.empty())
    throw InputError(fmt::format("--point {}: '{}' holds no points", point, path));
  if (point >= file.summaries.size())
    throw InputError(fmt::format("--point {}: '{}' holds points 0 to {}", point, path,
                                 file.summaries.size() - 1));
  return static_cast<std::size_t>(point);
}

std::optional<RawSamples> read_raw_samples(const std::string& path, std::size_t point,
                                           const h5::ReadOptions& options) {
  return read_as_input(path, [&] { return read_raw(path, point, options); });
}

std::vector<std::optional<Tally>> read_result_tallies(
    const std::string& path, const std::vector<std::optional<TallyLayout>>& layouts,
    const h5::ReadOptions& options) {
  return read_as_input(path, [&] { return read_tallies(path, layouts, options); });
}

ResultFile read_result_file(const std::string& path, const h5::ReadOptions& options) {
  return read_as_input(path, [&] { return read_result(path, options); });
}

}  // namespace collnoise
