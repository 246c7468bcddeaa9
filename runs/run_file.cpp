#include "runs/run_file.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <toml++/toml.h>
#include <algorithm>
#include <filesystem>
#include <set>
#include <string_view>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/rng.hpp"
#include "core/stop_request.hpp"
#include "distributions/law_kind.hpp"
#include "engine/study.hpp"
#include "runs/machine_file.hpp"
#include "runs/run_keys.hpp"
#include "runs/run_settings.hpp"
#include "runs/toml_params.hpp"

namespace collnoise {
namespace {

// An array of tables' entries become keys of their own: <key>[i].<sub> (a mixture's components).
void spread_table_arrays(PointSpec& point) {
  for (const auto& [key, tables] : point.table_arrays)
    for (std::size_t i = 0; i < tables.size(); ++i)
      for (const auto& [sub, value] : tables[i])
        point.params[fmt::format("{}[{}].{}", key, i, sub)] = value;
  point.table_arrays.clear();
}

// The run's settings and the models' settings tables: the run's are read here, a model's are
// handed to it (it checks them when it prepares a point).
void read_settings(RunSpec& run, const NodeMap& all, const std::string& origin,
                   std::optional<std::uint64_t> seed_override) {
  ParamMap given;
  std::map<std::string, int> lines;
  for (const auto& [key, node] : all) {
    if (is_run_setting(key)) {
      given[key] = scalar_value(origin, key, *node);
      lines[key] = static_cast<int>(node->source().begin.line);
    } else if (is_model_setting(key)) {
      run.model_settings[key] = scalar_value(origin, key, *node);
    }
  }
  read_run_settings(run, given, origin, seed_override, lines);
}

}  // namespace

namespace {

// The folder relative data-file paths are taken from: the run file's. A run file from a pipe
// (/dev/fd/63 of a shell's `<(gen)`, a named FIFO) has none that means anything: the current
// directory. A descriptor's path decides by its name, so that `collnoise merge`, which parses the
// recorded path again long after the pipe is gone, decides alike.
std::string data_file_base(const std::string& origin) {
  const std::string_view path(origin);
  if (path.starts_with("/dev/fd/") || path == "/dev/stdin" ||
      (path.starts_with("/proc/") && path.find("/fd/") != std::string_view::npos))
    return "";
  struct stat st {};
  if (::stat(origin.c_str(), &st) == 0 && S_ISFIFO(st.st_mode)) return "";
  return std::filesystem::path(origin).parent_path().string();
}

// The phases of parse_run_text, in its order; each refuses what it reads with the file's line.

/// The top level of a run file, sorted: the keys of the run and its base point (tables
/// flattened into dotted keys), each [[case]]'s overrides (at least one, empty), the [sweep]
/// axes. [[bound]] tables are read into the run as they come.
struct RunTables {
  const toml::node* machine = nullptr;  ///< `machine = "<file>"`: the machine file included
  NodeMap all;
  std::vector<NodeMap> cases;
  NodeMap sweep;
};

std::vector<NodeMap> read_cases(const std::string& origin, const toml::node& node) {
  const auto* arr = node.as_array();
  if (!arr) throw InputError(fmt::format("{}: use [[case]] tables", where(origin, node)));
  std::vector<NodeMap> cases;
  for (auto&& c : *arr) {
    const auto* t = c.as_table();
    if (!t) throw InputError(fmt::format("{}: each [[case]] must be a table", where(origin, c)));
    NodeMap m;
    for (auto&& [ck, cv] : *t) {
      // A case may use quoted dotted keys or sub-tables ([case.noise]); both flatten.
      if (const auto* sub = cv.as_table())
        flatten(*sub, std::string(ck.str()), m);
      else
        m[std::string(ck.str())] = &cv;
    }
    cases.push_back(std::move(m));
  }
  return cases;
}

RunTables sort_top_level(const toml::table& root, const std::string& origin, RunSpec& run) {
  RunTables tables;
  for (auto&& [k, v] : root) {
    const std::string key(k.str());
    if (key == "bound") {
      if (!v.is_array_of_tables())
        throw InputError(fmt::format("{}: use [[bound]] tables", where(origin, v)));
      run.bounds = read_user_bounds(array_of_tables(origin, key, v), origin);
    } else if (key == "sweep") {
      const auto* t = v.as_table();
      if (!t) throw InputError(fmt::format("{}: [sweep] must be a table", where(origin, v)));
      flatten(*t, "", tables.sweep);
    } else if (key == "case") {
      tables.cases = read_cases(origin, v);
    } else if (key == kMachineKey) {
      if (!v.is_string())
        throw InputError(fmt::format("{}: {} must be the path of a machine file", where(origin, v),
                                     kMachineKey));
      tables.machine = &v;
    } else if (const auto* t = v.as_table()) {
      flatten(*t, key, tables.all);
    } else {
      tables.all[key] = &v;
    }
  }
  if (tables.cases.empty()) tables.cases.emplace_back();
  return tables;
}

/// The run's settings (seed, samples, precision, output, ...), after every key is known.
void read_run_settings(RunSpec& run, const NodeMap& all, const std::string& origin,
                       std::optional<std::uint64_t> seed_override) {
  for (const auto& [key, node] : all)
    if (!is_setting(key) && !is_point_key(key))
      throw InputError(fmt::format("{}: unknown key '{}'", where(origin, *node), key));
  read_settings(run, all, origin, seed_override);
  if (run.precision.until_bounds_decided && run.bounds.empty())
    throw InputError(fmt::format(
        "{}: precision.until = \"bounds_decided\" needs [[bound]] tables to decide", origin));
}

/// The point every case and sweep starts from: the point keys given outside [[case]] and [sweep].
PointSpec base_point(const NodeMap& all, const std::string& origin) {
  PointSpec base;
  for (const auto& [key, node] : all) {
    if (!is_point_key(key)) continue;
    if (is_table_array(key))
      base.table_arrays[key] = array_of_tables(origin, key, *node);
    else
      base.params[key] = to_param(origin, key, *node);
  }
  return base;
}

/// A key the machine file gives that the run file gives too, in any of its forms and places.
void refuse_keys_given_twice(const MachineFile& machine, const RunTables& tables,
                             const std::string& origin) {
  std::set<std::string> given;
  for (const auto& [key, value] : machine.params) given.insert(key);
  for (const auto& [key, entries] : machine.table_arrays) given.insert(key);
  const auto refuse_in = [&](const NodeMap& map) {
    for (const auto& [raw_key, node] : map)
      for (const std::string& key : alternatives_of(alias(raw_key)))
        if (given.contains(key))
          throw InputError(
              fmt::format("{}: {} is given by the machine file '{}' too: give it in one of them",
                          where(origin, *node), raw_key, machine.given_path));
  };
  refuse_in(tables.all);
  for (const NodeMap& overrides : tables.cases) refuse_in(overrides);
  refuse_in(tables.sweep);
}

/// The [sweep] axes, in the order of their keys: each a point key and its values.
using SweepAxes = std::vector<std::pair<std::string, std::vector<ParamValue>>>;

SweepAxes read_sweep_axes(const NodeMap& sweep, const std::string& origin) {
  SweepAxes axes;
  for (const auto& [raw_key, node] : sweep) {
    const std::string key = alias(raw_key);
    if (!is_point_key(key) || is_table_array(key))
      throw InputError(fmt::format("{}: [sweep] key '{}' is not a sweepable parameter",
                                   where(origin, *node), raw_key));
    const auto* arr = node->as_array();
    if (!arr || arr->empty())
      throw InputError(
          fmt::format("{}: [sweep] {} must be a non-empty list", where(origin, *node), raw_key));
    std::vector<ParamValue> values;
    for (auto&& v : *arr) values.push_back(to_param(origin, key, v));
    axes.emplace_back(key, std::move(values));
  }
  return axes;
}

/// The number of points, refused before any of them is built.
void refuse_too_many_points(std::size_t cases, const SweepAxes& axes, const std::string& origin) {
  double total_points = static_cast<double>(cases);
  for (const auto& axis : axes) total_points *= static_cast<double>(axis.second.size());
  if (total_points > static_cast<double>(kMaxPoints))
    throw InputError(fmt::format(
        "{}: [sweep] and [[case]] give {:.0f} points: at most {} points per run file (split the "
        "run)",
        origin, total_points, kMaxPoints));
}

/// The base point with a case's overrides, each replacing the keys it is an alternative of.
PointSpec with_case(const PointSpec& base, const NodeMap& overrides, const std::string& origin) {
  PointSpec point = base;
  for (const auto& [raw_key, node] : overrides) {
    const std::string key = alias(raw_key);
    if (!is_point_key(key))
      throw InputError(fmt::format("{}: [[case]] key '{}' is not a point parameter",
                                   where(origin, *node), raw_key));
    drop_alternatives_of(key, point.params);
    if (is_table_array(key))
      point.table_arrays[key] = array_of_tables(origin, key, *node);
    else
      point.params[key] = to_param(origin, key, *node);
  }
  return point;
}

/// Every point of the sweep over `axes` from `start` (the last axis varies fastest), appended.
void append_sweep(const PointSpec& start, const SweepAxes& axes, std::vector<PointSpec>& points) {
  std::size_t total = 1;
  for (const auto& axis : axes) total *= axis.second.size();
  for (std::size_t flat = 0; flat < total; ++flat) {
    if ((flat & 0x3ff) == 0) throw_if_stop_requested();  // a sweep of a million points
    PointSpec point = start;
    std::size_t rest = flat;
    for (std::size_t a = axes.size(); a-- > 0;) {  // the last axis varies fastest
      const auto& [key, values] = axes[a];
      drop_alternatives_of(key, point.params);
      point.params[key] = values[rest % values.size()];
      rest /= values.size();
    }
    spread_table_arrays(point);
    points.push_back(std::move(point));
  }
}

/// With prediction.draws: every point as that many points, each with the keys of one of the
/// machine file's draws in place of the machine file's values, point b's draws consecutive.
std::vector<PointSpec> with_machine_draws(const RunSpec& run, std::vector<PointSpec> points,
                                          const std::string& origin) {
  if (run.prediction_draws == 0) return points;
  if (!run.machine)
    throw InputError(fmt::format(
        "{}: prediction.draws needs a machine file (`{} = \"...\"`) whose calibration made draws",
        origin, kMachineKey));
  const std::vector<ParamMap>& draws = run.machine->draws;
  if (run.prediction_draws > draws.size())
    throw InputError(fmt::format(
        "{}: prediction.draws = {}, but the machine file '{}' holds {} draws ([[machine.draws]]; "
        "calibrate with fit.bootstrap >= {})",
        origin, run.prediction_draws, run.machine->given_path, draws.size(), run.prediction_draws));
  if (points.size() * run.prediction_draws > kMaxPoints)
    throw InputError(fmt::format(
        "{}: {} points at prediction.draws = {} give more than {} points (split the run)", origin,
        points.size(), run.prediction_draws, kMaxPoints));
  std::vector<PointSpec> drawn;
  drawn.reserve(points.size() * run.prediction_draws);
  for (std::size_t b = 0; b < points.size(); ++b)
    for (std::size_t d = 0; d < run.prediction_draws; ++d) {
      PointSpec point = points[b];
      for (const auto& [key, value] : draws[d]) point.params[key] = value;
      point.machine_draw = MachineDraw{.base = b, .draw = d};
      drawn.push_back(std::move(point));
    }
  return drawn;
}

}  // namespace

RunSpec parse_run_text(const std::string& given, const std::string& origin,
                       std::optional<std::uint64_t> seed_override) {
  // A byte-order mark (some editors write one) is no part of the run.
  const std::string content(without_byte_order_mark(given));
  const toml::table root = parse_toml(content, origin);
  RunSpec run;
  run.path = origin;
  run.text = content;
  run.data_base = data_file_base(origin);

  const RunTables tables = sort_top_level(root, origin, run);
  read_run_settings(run, tables.all, origin, seed_override);
  PointSpec base = base_point(tables.all, origin);
  if (tables.machine) {
    run.machine = read_machine_file(*tables.machine->value<std::string>(), run.data_base, origin);
    refuse_keys_given_twice(*run.machine, tables, origin);
    base.params.insert(run.machine->params.begin(), run.machine->params.end());
    base.table_arrays.insert(run.machine->table_arrays.begin(), run.machine->table_arrays.end());
  }
  const SweepAxes axes = read_sweep_axes(tables.sweep, origin);
  refuse_too_many_points(tables.cases.size(), axes, origin);
  for (const auto& overrides : tables.cases)
    append_sweep(with_case(base, overrides, origin), axes, run.points);
  run.points = with_machine_draws(run, std::move(run.points), origin);
  return run;
}

RunSpec load_run_file(const std::string& path, std::optional<std::uint64_t> seed_override) {
  // Read whole before anything else: a run file from a pipe can be read only once, so its text
  // is what every later step uses.
  const WholeText whole = read_text_or_pipe(path, fmt::format("run file '{}'", path));
  RunSpec run = parse_run_text(whole.text, path, seed_override);
  if (whole.pipe) {
    run.from_pipe = true;
    run.data_base.clear();
  }
  return run;
}

RunIdentity run_identity(const RunSpec& run, const std::string& part) {
  RunIdentity id;
  id.name = run.name;
  id.run_kind = run.kind;
  id.seed = run.seed;
  id.samples = run.samples;
  id.confidence = run.confidence;
  id.path = run.path;
  id.text = run.text;
  id.part = part;
  id.stream_format = kStreamFormat;
  return id;
}

}  // namespace collnoise
