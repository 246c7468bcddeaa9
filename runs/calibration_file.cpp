#include "runs/calibration_file.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/param_reader.hpp"
#include "engine/study.hpp"
#include "runs/run_keys.hpp"
#include "runs/toml_params.hpp"

namespace collnoise {
namespace {

const std::set<std::string> kTopKeys = {"name",  "seed", "netgauge", "measurements",
                                        "model", "fit",  "table"};
const std::set<std::string> kMeasurementKeys = {"draws", "level", "tails"};
// The samples of each table's simulation at each evaluation, named for what they are (a run
// file's `samples` is another setting).
constexpr const char* kSamplesPerTable = "samples_per_table";
const std::set<std::string> kFitKeys = {"keys",      "distance", kSamplesPerTable, "evaluations",
                                        "bootstrap", "level",    "threads"};
const std::set<std::string> kTableKeys = {"file", "size", "unit"};

template <typename T>
T required(const toml::table& t, const std::string& key, const std::string& origin,
           const std::string& what) {
  const toml::node* node = t.get(key);
  if (!node) throw InputError(fmt::format("{}: {} is missing", origin, key));
  const auto value = node->value<T>();
  if (!value) throw InputError(fmt::format("{}: {} must be {}", where(origin, *node), key, what));
  return *value;
}

template <typename T>
T optional(const toml::table& t, const std::string& key, T fallback, const std::string& origin,
           const std::string& what) {
  return t.contains(key) ? required<T>(t, key, origin, what) : fallback;
}

std::uint64_t count_at(const toml::table& t, const std::string& key, std::uint64_t fallback,
                       std::uint64_t least, const std::string& origin, const std::string& context) {
  const std::int64_t n =
      optional<std::int64_t>(t, key, static_cast<std::int64_t>(fallback), origin, "an integer");
  if (n < static_cast<std::int64_t>(least))
    throw InputError(
        fmt::format("{}: {}.{} = {} is invalid: at least {}", origin, context, key, n, least));
  return static_cast<std::uint64_t>(n);
}

double level_at(const toml::table& t, double fallback, const std::string& origin,
                const std::string& context) {
  const double level = optional<double>(t, "level", fallback, origin, "a number");
  if (!(level > 0.0 && level < 1.0))
    throw InputError(
        fmt::format("{}: {}.level = {} is invalid: a level in (0, 1)", origin, context, level));
  return level;
}

// A point key of a [model] or [[table]] table, as a run file gives it.
void read_point_keys(const toml::table& t, const std::string& prefix, const std::string& origin,
                     const std::set<std::string>& skipped, ParamMap& out) {
  NodeMap flat;
  for (auto&& [k, v] : t) {
    const std::string key(k.str());
    if (skipped.contains(key)) continue;
    if (const auto* sub = v.as_table())
      flatten(*sub, key, flat);
    else
      flat[key] = &v;
  }
  for (const auto& [key, node] : flat) {
    // A machine file says what the machine is, not what runs on it (runs/machine_file.hpp).
    if (prefix == "model" && table_of(key) == table_of(collective_kind_key().name))
      throw InputError(
          fmt::format("{}: {} is not a machine key: the run file says what runs on the machine",
                      where(origin, *node), key));
    if (!is_point_key(key) || is_table_array(key))
      throw InputError(
          fmt::format("{}: {} '{}' is not a point key", where(origin, *node), prefix, key));
    out[key] = to_param(origin, key, *node);
  }
}

// A range end in the key's unit ("0.5us" or 5e-7 for seconds).
double range_end(const KeySpec& spec, const ParamValue& given) {
  ParamReader reader(ParamMap{{spec.name, given}});
  return reader.number(spec);
}

FreeKey free_key(const std::string& key, const toml::node& node, const std::string& origin) {
  const KeySpec* spec = declared_key(key);
  if (!spec || spec->type != KeyType::kNumber || !is_point_key(key))
    throw InputError(
        fmt::format("{}: fit.keys: {} is not a number key of a point", where(origin, node), key));
  const ParamValue range = to_param(origin, key, node);
  std::vector<ParamValue> ends;
  if (const auto* numbers = std::get_if<NumberList>(&range))
    ends.assign(numbers->begin(), numbers->end());
  if (const auto* texts = std::get_if<TextList>(&range)) ends.assign(texts->begin(), texts->end());
  if (ends.size() != 2)
    throw InputError(
        fmt::format("{}: fit.keys.{} must be a range [low, high]", where(origin, node), key));
  try {
    const FreeKey free{key, range_end(*spec, ends[0]), range_end(*spec, ends[1])};
    if (!(free.low < free.high))
      throw InputError(fmt::format("its range [{}, {}] is empty", free.low, free.high));
    return free;
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: fit.keys.{}: {}", where(origin, node), key, e.what()));
  }
}

FitDistance distance_named(const std::string& name, const std::string& origin) {
  if (name == "w1") return FitDistance::kW1;
  if (name == "ks") return FitDistance::kKS;
  if (name == "quantiles") return FitDistance::kQuantiles;
  throw InputError(fmt::format("{}: fit.distance = \"{}\" is invalid: use one of w1, ks, quantiles",
                               origin, name));
}

void read_fit(const toml::table& fit, const std::string& origin, CalibrationFile& c) {
  refuse_unknown_keys(fit, kFitKeys, origin, "fit.");
  const toml::table* keys = fit["keys"].as_table();
  if (!keys || keys->empty())
    throw InputError(
        fmt::format("{}: [fit.keys] must name at least one key and its range", origin));
  for (auto&& [k, v] : *keys) c.free_keys.push_back(free_key(std::string(k.str()), v, origin));
  c.fit.distance =
      distance_named(optional<std::string>(fit, "distance", "w1", origin, "a string"), origin);
  c.fit.samples = count_at(fit, kSamplesPerTable, 400, 2, origin, "fit");
  c.fit.evaluations = count_at(fit, "evaluations", 200, 2, origin, "fit");
  c.fit.bootstrap = count_at(fit, "bootstrap", 20, 0, origin, "fit");
  c.fit.threads = static_cast<int>(count_at(fit, "threads", 1, 1, origin, "fit"));
  c.fit.level = level_at(fit, c.level, origin, "fit");
}

TableSpec read_table(const toml::table& t, const std::string& origin) {
  TableSpec table;
  table.line = static_cast<int>(t.source().begin.line);
  table.file = required<std::string>(t, "file", origin, "a path");
  if (t.contains("size")) {
    const auto size = required<std::int64_t>(t, "size", origin, "an integer");
    if (size < 0) throw InputError(fmt::format("{}: table.size must be >= 0", origin));
    table.size = static_cast<std::uint64_t>(size);
  }
  table.unit = optional<std::string>(t, "unit", "", origin, "a string");
  read_point_keys(t, "table", origin, kTableKeys, table.point);
  return table;
}

}  // namespace

CalibrationFile load_calibration_file(const std::string& path) {
  const std::string text = read_regular_text(path, fmt::format("calibration file '{}'", path));
  const toml::table root = parse_toml(text, path);
  refuse_unknown_keys(root, kTopKeys, path, "");
  CalibrationFile c;
  c.path = path;
  c.folder = std::filesystem::path(path).parent_path().string();
  c.name = required<std::string>(root, "name", path, "a string");
  c.seed = static_cast<std::uint64_t>(required<std::int64_t>(root, "seed", path, "an integer"));
  c.netgauge = required<std::string>(root, "netgauge", path, "the Netgauge run's folder");
  if (const toml::table* m = root["measurements"].as_table()) {
    refuse_unknown_keys(*m, kMeasurementKeys, path, "measurements.");
    c.measurement_draws = count_at(*m, "draws", 200, 2, path, "measurements");
    c.level = level_at(*m, c.level, path, "measurements");
    const auto tails = optional<std::string>(*m, "tails", "none", path, "a string");
    if (tails != "none" && tails != "gpd")
      throw InputError(fmt::format(
          "{}: measurements.tails = \"{}\" is invalid: use \"none\" or \"gpd\"", path, tails));
    c.measurement_tails = tails == "gpd";
  }
  if (const toml::table* model = root["model"].as_table())
    read_point_keys(*model, "model", path, {}, c.constants);
  c.fit.level = c.level;
  if (const toml::table* fit = root["fit"].as_table()) read_fit(*fit, path, c);
  if (const toml::node* tables = root.get("table")) {
    if (!tables->is_array_of_tables())
      throw InputError(fmt::format("{}: use [[table]] tables", where(path, *tables)));
    for (auto&& t : *tables->as_array()) c.tables.push_back(read_table(*t.as_table(), path));
  }
  if (c.free_keys.empty() != c.tables.empty())
    throw InputError(fmt::format("{}: {}", path,
                                 c.tables.empty()
                                     ? "[fit] needs [[table]] tables to fit to"
                                     : "[[table]] tables need a [fit] naming the keys to fit"));
  c.fit.seed = c.seed;
  c.fit.origin = path;
  return c;
}

}  // namespace collnoise
