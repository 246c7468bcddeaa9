#include "runs/point_factory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "core/stop_request.hpp"
#include "runs/bound_check.hpp"
#include "runs/prediction.hpp"

namespace collnoise {
namespace {

// A point's stream key (stream format 2, docs/models/streams.md): the seed, the format, the
// model and the point's stream identity (the keys that define the sampled model, given other
// than their defaults; data files by their content), folded byte by byte.
std::uint64_t point_stream_key(std::uint64_t seed, const std::string& identity) {
  std::uint64_t key = hash_combine(seed, 0x636f6c6c6e6f6973ULL);  // "collnois"
  const std::string text = fmt::format("stream format {}\n{}", kStreamFormat, identity);
  for (const char c : text) key = hash_combine(key, static_cast<unsigned char>(c));
  return key;
}

// The values with the units their declarations give (written beside them as "<key>_units").
Record params_record(const ParamMap& resolved, const std::map<std::string, std::string>& units) {
  Record r;
  for (const auto& [key, unit] : units) r.set_unit(key, unit);
  for (const auto& [key, value] : resolved) {
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, RankCount>) {
            r.set(key, Field(to_double(v)));
            r.set(key + "_string", Field(to_string(v)));
          } else if constexpr (std::is_same_v<T, NumberList>) {
            r.set(key, Field(series_of(v)));
          } else if constexpr (std::is_same_v<T, TextList>) {
            r.set(key, Field(to_text(value)));  // ["a", "b"]: a record holds no list of strings
          } else {
            r.set(key, Field(v));
          }
        },
        value);
  }
  return r;
}

RunContext context_of(const RunSpec& run) {
  RunContext context;
  context.run_kind = run.kind;
  context.samples = run.samples;
  context.confidence = run.confidence;
  context.chunk_size = run.chunk_size;
  context.settings = run.model_settings;
  context.critical_path = run.output.critical_path;
  return context;
}

const ModelKind& model_taking(const ParamReader& reader, const RunContext& context) {
  for (const auto& model : model_kinds())
    if (model.takes(reader, context)) return model;
  throw InputError(fmt::format("{} = \"{}\" is not a known collective (known: {})",
                               collective_kind_key().name,
                               reader.peek_text(collective_kind_key().name).value_or("?"),
                               fmt::join(collective_kinds(), ", ")));
}

// How messages name a point of `model`: its own label, else "a <collective.kind> run".
std::string point_label(const ModelKind& model, const ParamReader& reader) {
  if (!model.point_label.empty()) return model.point_label;
  return fmt::format("a {} run", reader.peek_text(collective_kind_key().name)
                                     .value_or(to_text(*collective_kind_key().fallback)));
}

std::vector<std::string> models_recording_paths() {
  std::vector<std::string> names;
  for (const auto& model : model_kinds())
    if (model.records_critical_path) names.push_back(model.name);
  return names;
}

}  // namespace

std::vector<std::string> collective_kinds() {
  std::vector<std::string> kinds;
  for (const auto& model : model_kinds())
    for (const auto& c : model.collectives)
      if (std::find(kinds.begin(), kinds.end(), c) == kinds.end()) kinds.push_back(c);
  std::sort(kinds.begin(), kinds.end());
  return kinds;
}

PreparedPoint prepare_point(const RunSpec& run, const PointSpec& spec) {
  // Data files named relative to the run file (traces, delay files, GOAL schedules).
  ParamReader reader(spec.params, run.data_base);
  const RunContext context = context_of(run);
  PreparedPoint point;
  const ModelKind& model = model_taking(reader, context);
  if (run.output.critical_path && !model.records_critical_path)
    throw InputError(fmt::format(
        "{}: output.critical_path = true, but {} records no critical path (models that do: {}; "
        "docs/models/critical-path.md shows how to run an algorithm as a schedule)",
        run.path, point_label(model, reader), fmt::join(models_recording_paths(), ", ")));
  model.prepare(point, reader, context);
  point.model = &model;
  reader.reject_unread(point_label(model, reader));
  if (run.kind == kSampleRunKind && point.sampled && run.samples < 2 && !run.precision.enabled)
    throw InputError(fmt::format("{}: samples = {} is invalid: at least 2 samples per point",
                                 run.path, run.samples));
  point.input_files = reader.input_files();
  point.params = params_record(reader.resolved(), reader.units());
  point.stream_identity = fmt::format("model={}\n{}", model.name, reader.stream_identity());
  if (run.machine) {
    // The machine file is one of the point's data files, and its content part of its streams.
    point.input_files.push_back(
        {kMachineKey, run.machine->given_path, run.machine->path, run.machine->hash});
    point.stream_identity += fmt::format("{}={}\n", kMachineKey, run.machine->hash);
  }
  if (spec.machine_draw) {
    // Two draws whose refits agree still sample apart: each is one draw of the calibration.
    const std::uint64_t draw = spec.machine_draw->draw + 1;
    point.stream_identity += fmt::format("{}={}\n", prediction_draw_field().name, draw);
    point.params.put(prediction_draw_field(), Field(draw));
  }
  point.stream_key = point_stream_key(run.seed, point.stream_identity);
  if (point.sampled) point.sampled->set_stream_key(point.stream_key);
  if (point.analysis) point.analysis->set_stream_key(point.stream_key);
  check_bounds_apply(run.bounds, point, run.path, run.output.raw_samples,
                     run.precision.until_bounds_decided);
  return point;
}

std::vector<PreparedPoint> prepare_points(const RunSpec& run) {
  std::vector<PreparedPoint> points;
  for (const auto& spec : run.points) {
    throw_if_stop_requested();  // large points, or very many, take long to prepare
    points.push_back(prepare_point(run, spec));
  }
  return points;
}

RunIdentity run_identity(const RunSpec& run, const std::string& part,
                         const std::vector<PreparedPoint>& points) {
  RunIdentity identity = run_identity(run, part);
  for (const auto& p : points) {
    PointIdentity& point = identity.points.emplace_back();
    point.stream = p.stream_identity;
    for (const auto& f : p.input_files) point.inputs.push_back({f.key, f.given_path, f.hash});
  }
  return identity;
}

}  // namespace collnoise
