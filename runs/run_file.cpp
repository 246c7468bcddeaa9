#include "runs/run_file.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "engine/errors.hpp"
#include "engine/rng.hpp"

namespace collnoise {
namespace {

using NodeMap = std::map<std::string, const toml::node*>;

const std::set<std::string> kTopKeys = {"name",       "seed", "samples",
                                        "confidence", "kind", "chunk_size"};
const std::set<std::string> kOutputKeys = {"output.raw_phase_times", "output.histogram_bins",
                                           "output.histogram_spacing"};
const std::set<std::string> kNHalfKeys = {"nhalf.check_samples", "nhalf.check_confidence"};
// Hints for outputs/plot_result.py (read back from the run file text stored in the result).
const std::set<std::string> kPlotKeys = {"plot.title", "plot.panels"};
const std::set<std::string> kCollectiveKeys = {
    "collective.kind", "collective.N",   "collective.log2_N",  "collective.levels",
    "collective.w",    "collective.tau", "collective.sampling"};
const std::set<std::string> kNoiseNumbers = {"noise.f", "noise.a",     "noise.p",
                                             "noise.T", "noise.sigma", "noise.k"};

bool is_point_key(const std::string& key) {
  return kCollectiveKeys.contains(key) || kNoiseNumbers.contains(key) || key == "noise.law" ||
         key == "noise.file" || key == "noise.components";
}

std::string sweep_alias(const std::string& key) {
  if (key == "N" || key == "log2_N" || key == "levels") return "collective." + key;
  return key;
}

// Dotted keys of every value; arrays stay whole.
void flatten(const toml::table& table, const std::string& prefix, NodeMap& out) {
  for (auto&& [k, v] : table) {
    const std::string key =
        prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (const auto* sub = v.as_table())
      flatten(*sub, key, out);
    else
      out[key] = &v;
  }
}

std::string where(const std::string& origin, const toml::node& node) {
  const auto& src = node.source();
  return fmt::format("{}:{}", origin, src.begin.line);
}

ParamValue to_param(const std::string& origin, const std::string& key, const toml::node& node) {
  if (auto v = node.as_integer()) return v->get();
  if (auto v = node.as_floating_point()) return v->get();
  if (auto v = node.as_string()) return v->get();
  if (auto v = node.as_boolean()) return v->get();
  throw InputError(fmt::format("{}: {} has an unsupported value type", where(origin, node), key));
}

double number(const std::string& key, const ParamValue& v) {
  if (auto d = std::get_if<double>(&v)) return *d;
  if (auto i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  throw InputError(fmt::format("{} must be a number, got {}", key, to_text(v)));
}

std::string text(const std::string& key, const ParamValue& v) {
  if (auto s = std::get_if<std::string>(&v)) return *s;
  throw InputError(fmt::format("{} must be a string, got {}", key, to_text(v)));
}

std::int64_t integer(const std::string& key, const ParamValue& v) {
  if (auto i = std::get_if<std::int64_t>(&v)) return *i;
  throw InputError(fmt::format("{} must be an integer, got {}", key, to_text(v)));
}

RankCount rank_count(const std::string& key, const ParamValue& v) {
  if (auto i = std::get_if<std::int64_t>(&v)) {
    if (*i < 1) throw InputError(fmt::format("{} = {} is invalid: N must be >= 1", key, *i));
    return static_cast<RankCount>(*i);
  }
  if (auto s = std::get_if<std::string>(&v)) {
    const auto n = parse_rank_count(*s);
    if (!n || *n == 0)
      throw InputError(fmt::format("{} = \"{}\" is not a rank count >= 1", key, *s));
    return *n;
  }
  if (auto r = std::get_if<RankCount>(&v)) return *r;
  throw InputError(
      fmt::format("{} must be an integer (or a string of digits), got {}", key, to_text(v)));
}

LawSpec component_spec(const std::string& origin, const toml::table& table, std::size_t index) {
  LawSpec spec;
  spec.where = fmt::format("noise.components[{}]", index);
  for (auto&& [k, v] : table) {
    const std::string key(k.str());
    const std::string full = spec.where + "." + key;
    const ParamValue value = to_param(origin, full, v);
    if (key == "law") {
      spec.law = text(full, value);
    } else if (key == "file") {
      spec.file = text(full, value);
    } else {
      spec.numbers[key] = number(full, value);
    }
  }
  if (spec.law.empty()) throw InputError(fmt::format("{}.law is missing", spec.where));
  const auto allowed = law_keys(spec.law, true);
  for (const auto& [key, _] : spec.numbers)
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw InputError(fmt::format("{}.{} is not a key of a {} component (allowed: {})", spec.where,
                                   key, spec.law, fmt::join(allowed, ", ")));
  return spec;
}

struct Scalars {
  std::map<std::string, ParamValue> values;
  const toml::array* components = nullptr;
};

TreePoint build_point(const std::string& origin, const Scalars& merged, std::uint64_t seed,
                      bool n_optional) {
  TreePoint p;
  const auto get = [&](const std::string& key) -> const ParamValue* {
    const auto it = merged.values.find(key);
    return it == merged.values.end() ? nullptr : &it->second;
  };
  const auto* kind = get("collective.kind");
  const std::string collective = kind ? text("collective.kind", *kind) : "tree_barrier";
  if (collective != "tree_barrier")
    throw InputError(
        fmt::format("collective.kind = \"{}\" is not a known collective (known: "
                    "tree_barrier)",
                    collective));
  const auto* n = get("collective.N");
  const auto* log2n = get("collective.log2_N");
  const auto* levels = get("collective.levels");
  const int given = (n != nullptr) + (log2n != nullptr) + (levels != nullptr);
  if (given > 1 || (given == 0 && !n_optional))
    throw InputError("give exactly one of collective.N, collective.log2_N, collective.levels");
  if (n) p.n = rank_count("collective.N", *n);
  if (log2n) {
    const auto k = integer("collective.log2_N", *log2n);
    if (k < 0 || k > 126)
      throw InputError(fmt::format("collective.log2_N = {} is invalid: 0 <= log2_N <= 126", k));
    p.n = pow2(static_cast<int>(k));
  }
  if (levels) {
    const auto k = integer("collective.levels", *levels);
    if (k < 1 || k > 127)
      throw InputError(fmt::format("collective.levels = {} is invalid: 1 <= levels <= 127", k));
    p.n = pow2(static_cast<int>(k)) - 1;
  }
  const auto* w = get("collective.w");
  if (!w) throw InputError("collective.w is missing: the work per phase in seconds");
  p.w = number("collective.w", *w);
  if (!(p.w > 0.0) || !std::isfinite(p.w))
    throw InputError(fmt::format("collective.w = {} is invalid: work must be > 0 seconds", p.w));
  if (const auto* tau = get("collective.tau")) p.tau = number("collective.tau", *tau);
  if (!(p.tau >= 0.0) || !std::isfinite(p.tau))
    throw InputError(
        fmt::format("collective.tau = {} is invalid: latency must be >= 0 seconds", p.tau));
  std::string sampling = "per_rank";
  if (const auto* s = get("collective.sampling")) sampling = text("collective.sampling", *s);
  if (sampling == "per_rank")
    p.sampling = TreeSampling::kPerRank;
  else if (sampling == "per_level")
    p.sampling = TreeSampling::kPerLevel;
  else
    throw InputError(fmt::format(
        "collective.sampling = \"{}\" is invalid: use \"per_rank\" or \"per_level\"", sampling));

  const auto* law = get("noise.law");
  if (!law) throw InputError("noise.law is missing");
  p.noise.law = text("noise.law", *law);
  const auto& names = law_names();
  if (std::find(names.begin(), names.end(), p.noise.law) == names.end())
    throw InputError(fmt::format("noise.law = \"{}\" is not a known noise law (known: {})",
                                 p.noise.law, fmt::join(names, ", ")));
  const auto allowed = law_keys(p.noise.law, false);
  for (const auto& [key, value] : merged.values) {
    if (!key.starts_with("noise.") || key == "noise.law") continue;
    const std::string shortkey = key.substr(6);
    if (std::find(allowed.begin(), allowed.end(), shortkey) == allowed.end())
      throw InputError(fmt::format("{} is not a parameter of the {} law (allowed: {})", key,
                                   p.noise.law, fmt::join(allowed, ", ")));
    if (shortkey == "file")
      p.noise.file = text(key, value);
    else if (shortkey != "components")
      p.noise.numbers[shortkey] = number(key, value);
  }
  if (p.noise.law == "mixture") {
    if (!merged.components)
      throw InputError("noise.components is missing: a mixture needs components");
    std::size_t i = 0;
    for (auto&& c : *merged.components) {
      const auto* t = c.as_table();
      if (!t) throw InputError(fmt::format("noise.components[{}] must be a table", i));
      p.noise.components.push_back(component_spec(origin, *t, i++));
    }
  }

  p.params["collective.kind"] = collective;
  if (given == 1) p.params["collective.N"] = p.n;
  p.params["collective.w"] = p.w;
  p.params["collective.tau"] = p.tau;
  p.params["collective.sampling"] = sampling;
  for (const auto& [key, value] : merged.values)
    if (key.starts_with("noise.") && key != "noise.components") p.params[key] = value;
  if (p.noise.law == "mixture") {
    std::string desc;
    for (const auto& c : p.noise.components) {
      desc += c.law;
      for (const auto& [k, v] : c.numbers) desc += fmt::format(" {}={}", k, to_text(v));
      if (!c.file.empty()) desc += " file=" + c.file;
      desc += ";";
    }
    p.params["noise.components"] = desc;
  }
  // Validate now, so that a bad law stops the run before any sampling.
  const auto noise = make_stage_noise(p.noise, p.w);
  if (p.noise.law == "bernoulli") {
    p.params["noise.p"] = noise.scale > 0.0 ? noise.scale / p.noise.numbers.at("T") : 0.0;
    p.params["noise.f"] = noise.overhead / (1.0 + noise.overhead);
  }

  std::uint64_t key = hash_combine(seed, 0x636f6c6c6e6f6973ULL);  // "collnois"
  for (const auto& [k, v] : p.params) {
    for (char c : k + "=" + to_text(v) + ";")
      key = hash_combine(key, static_cast<unsigned char>(c));
  }
  p.stream_key = key;
  return p;
}

template <class T>
T scalar(const NodeMap& all, const std::string& key, T fallback, const std::string& origin) {
  const auto it = all.find(key);
  if (it == all.end()) return fallback;
  const ParamValue v = to_param(origin, key, *it->second);
  if constexpr (std::is_same_v<T, std::string>) {
    return text(key, v);
  } else if constexpr (std::is_same_v<T, bool>) {
    if (auto b = std::get_if<bool>(&v)) return *b;
    throw InputError(fmt::format("{}: {} must be true or false", where(origin, *it->second), key));
  } else if constexpr (std::is_same_v<T, double>) {
    return number(key, v);
  } else {
    const auto i = integer(key, v);
    if (i < 0)
      throw InputError(fmt::format("{}: {} = {} must be >= 0", where(origin, *it->second), key, i));
    return static_cast<T>(i);
  }
}

}  // namespace

std::string to_text(const ParamValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>)
          return v ? "true" : "false";
        else if constexpr (std::is_same_v<T, std::int64_t>)
          return std::to_string(v);
        else if constexpr (std::is_same_v<T, double>)
          return fmt::format("{:.17g}", v);
        else if constexpr (std::is_same_v<T, std::string>)
          return v;
        else
          return to_string(v);
      },
      value);
}

RunSpec parse_run_text(const std::string& content, const std::string& origin,
                       std::optional<std::uint64_t> seed_override) {
  toml::table root;
  try {
    root = toml::parse(content, origin);
  } catch (const toml::parse_error& e) {
    throw InputError(fmt::format("{}:{}:{}: malformed TOML: {}", origin, e.source().begin.line,
                                 e.source().begin.column, e.description()));
  }
  RunSpec run;
  run.path = origin;
  run.text = content;

  NodeMap all;
  std::vector<NodeMap> cases;
  NodeMap sweep;
  for (auto&& [k, v] : root) {
    const std::string key(k.str());
    if (key == "sweep") {
      const auto* t = v.as_table();
      if (!t) throw InputError(fmt::format("{}: [sweep] must be a table", where(origin, v)));
      flatten(*t, "", sweep);
    } else if (key == "case") {
      const auto* arr = v.as_array();
      if (!arr) throw InputError(fmt::format("{}: use [[case]] tables", where(origin, v)));
      for (auto&& c : *arr) {
        const auto* t = c.as_table();
        if (!t)
          throw InputError(fmt::format("{}: each [[case]] must be a table", where(origin, c)));
        NodeMap m;
        flatten(*t, "", m);
        cases.push_back(std::move(m));
      }
    } else if (const auto* t = v.as_table()) {
      flatten(*t, key, all);
    } else {
      all[key] = &v;
    }
  }
  if (cases.empty()) cases.emplace_back();

  for (const auto& [key, node] : all)
    if (!kTopKeys.contains(key) && !kOutputKeys.contains(key) && !kNHalfKeys.contains(key) &&
        !kPlotKeys.contains(key) && !is_point_key(key))
      throw InputError(fmt::format("{}: unknown key '{}'", where(origin, *node), key));

  run.name = scalar<std::string>(all, "name", "", origin);
  if (run.name.empty()) throw InputError(fmt::format("{}: name is missing", origin));
  const std::string kind = scalar<std::string>(all, "kind", "sample", origin);
  if (kind == "sample")
    run.kind = RunKind::kSample;
  else if (kind == "nhalf")
    run.kind = RunKind::kNHalf;
  else
    throw InputError(
        fmt::format("{}: kind = \"{}\" is invalid: use \"sample\" or \"nhalf\"", origin, kind));
  run.seed = seed_override ? *seed_override : scalar<std::uint64_t>(all, "seed", 0, origin);
  if (!all.contains("seed") && !seed_override)
    throw InputError(fmt::format("{}: seed is missing", origin));
  run.samples = scalar<std::uint64_t>(all, "samples", 0, origin);
  if (run.kind == RunKind::kSample && run.samples < 2)
    throw InputError(fmt::format("{}: samples = {} is invalid: at least 2 phases per point", origin,
                                 run.samples));
  run.confidence = scalar<double>(all, "confidence", 0.95, origin);
  if (!(run.confidence > 0.0 && run.confidence < 1.0))
    throw InputError(fmt::format("{}: confidence = {} must lie in (0, 1)", origin, run.confidence));
  run.chunk_size = scalar<std::uint64_t>(all, "chunk_size", 1024, origin);
  if (run.chunk_size < 1) throw InputError(fmt::format("{}: chunk_size must be >= 1", origin));
  run.output.raw_phase_times = scalar<bool>(all, "output.raw_phase_times", false, origin);
  run.output.histogram_bins = scalar<std::size_t>(all, "output.histogram_bins", 400, origin);
  if (run.output.histogram_bins < 1)
    throw InputError(fmt::format("{}: output.histogram_bins must be >= 1", origin));
  run.output.histogram_spacing =
      scalar<std::string>(all, "output.histogram_spacing", "auto", origin);
  if (run.output.histogram_spacing != "auto" && run.output.histogram_spacing != "linear" &&
      run.output.histogram_spacing != "log")
    throw InputError(fmt::format(
        "{}: output.histogram_spacing must be \"auto\", \"linear\" or \"log\"", origin));
  for (const auto& key : kPlotKeys) scalar<std::string>(all, key, "", origin);  // type check
  run.nhalf.check_samples = scalar<std::uint64_t>(all, "nhalf.check_samples", 20000, origin);
  run.nhalf.check_confidence = scalar<double>(all, "nhalf.check_confidence", 0.99, origin);

  // The base point, each case's overrides, then the sweep's cross product.
  Scalars base;
  for (const auto& [key, node] : all) {
    if (!is_point_key(key)) continue;
    if (key == "noise.components") {
      base.components = node->as_array();
      if (!base.components)
        throw InputError(
            fmt::format("{}: noise.components must be an array of tables", where(origin, *node)));
    } else {
      base.values[key] = to_param(origin, key, *node);
    }
  }
  std::vector<std::pair<std::string, std::vector<ParamValue>>> axes;
  for (const auto& [raw_key, node] : sweep) {
    const std::string key = sweep_alias(raw_key);
    if (!is_point_key(key) || key == "noise.components")
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

  for (const auto& overrides : cases) {
    Scalars with_case = base;
    for (const auto& [raw_key, node] : overrides) {
      const std::string key = sweep_alias(raw_key);
      if (!is_point_key(key))
        throw InputError(fmt::format("{}: [[case]] key '{}' is not a point parameter",
                                     where(origin, *node), raw_key));
      if (key == "noise.components")
        with_case.components = node->as_array();
      else
        with_case.values[key] = to_param(origin, key, *node);
    }
    std::size_t total = 1;
    for (const auto& axis : axes) total *= axis.second.size();
    for (std::size_t flat = 0; flat < total; ++flat) {
      Scalars point = with_case;
      std::size_t rest = flat;
      for (std::size_t a = axes.size(); a-- > 0;) {  // the last axis varies fastest
        const auto& [key, values] = axes[a];
        if (key == "collective.N" || key == "collective.log2_N" || key == "collective.levels") {
          // N, log2_N and levels replace one another.
          point.values.erase("collective.N");
          point.values.erase("collective.log2_N");
          point.values.erase("collective.levels");
        }
        point.values[key] = values[rest % values.size()];
        rest /= values.size();
      }
      run.points.push_back(build_point(origin, point, run.seed, run.kind == RunKind::kNHalf));
    }
  }
  return run;
}

RunSpec load_run_file(const std::string& path, std::optional<std::uint64_t> seed_override) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("run file '{}' cannot be read", path));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_run_text(buffer.str(), path, seed_override);
}

TreeBarrierModel tree_model(const TreePoint& point) {
  TreeBarrierModel m;
  m.shape = TreeShape(point.n);
  m.w = point.w;
  m.tau = point.tau;
  m.noise = make_stage_noise(point.noise, point.w);
  return m;
}

}  // namespace collnoise
