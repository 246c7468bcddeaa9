#include "runs/point_factory.hpp"

#include <fmt/format.h>
#include <algorithm>

#include "engine/errors.hpp"
#include "engine/rng.hpp"
#include "runs/nhalf_study.hpp"
#include "runs/noise_params.hpp"
#include "runs/tree_barrier_study.hpp"
#include "runs/tree_params.hpp"

namespace collnoise {
namespace {

std::uint64_t point_stream_key(std::uint64_t seed, const ParamMap& resolved) {
  std::uint64_t key = hash_combine(seed, 0x636f6c6c6e6f6973ULL);  // "collnois"
  for (const auto& [k, v] : resolved)
    for (char c : k + "=" + to_text(v) + ";")
      key = hash_combine(key, static_cast<unsigned char>(c));
  return key;
}

Record params_record(const ParamMap& resolved) {
  Record r;
  for (const auto& [key, value] : resolved) {
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, RankCount>) {
            r.set(key, Field(to_double(v)));
            r.set(key + "_string", Field(to_string(v)));
          } else if constexpr (std::is_same_v<T, NumberList>) {
            r.set(key, Field(series_of(v)));
          } else {
            r.set(key, Field(v));
          }
        },
        value);
  }
  return r;
}

// Bernoulli noise given by f records the p it implies, and the f of a given p, so that points
// are comparable whichever way the run file put them.
void record_bernoulli(ParamReader& reader, const StageNoise& noise, const LawSpec& spec) {
  if (spec.law != "bernoulli") return;
  reader.derive("noise.p", noise.scale > 0.0 ? noise.scale / spec.numbers.at("T") : 0.0);
  reader.derive("noise.f", noise.overhead / (1.0 + noise.overhead));
}

TreeBarrierModel tree_model(const TreeParams& tree, const LawSpec& law, ParamReader& reader) {
  TreeBarrierModel m;
  m.shape = TreeShape(tree.n);
  m.w = tree.w;
  m.tau = tree.tau;
  m.noise = make_stage_noise(law, tree.w);
  record_bernoulli(reader, m.noise, law);
  return m;
}

void prepare_tree_barrier(PreparedPoint& point, ParamReader& reader, const PointSpec& spec,
                          const RunSpec& run) {
  const bool nhalf = run.kind == RunKind::kNHalf;
  const TreeParams tree = read_tree_params(reader, !nhalf);
  const NoiseSetup noise = read_noise(reader, spec.components);
  if (nhalf) {
    if (!noise.stage)
      throw InputError(fmt::format(
          "noise.law = \"{}\": N_1/2 is defined for per-stage noise laws only", noise.law));
    point.kind = "nhalf";
    point.analysis = std::make_unique<NHalfStudy>(tree_model(tree, *noise.stage, reader), run);
    return;
  }
  if (noise.time)
    throw InputError(fmt::format("noise.law = \"{}\" is time-based: not supported here yet", noise.law));
  point.kind = "tree_barrier";
  point.sampled =
      std::make_unique<TreeBarrierStudy>(tree_model(tree, *noise.stage, reader), tree.sampling);
}

}  // namespace

const std::vector<std::string>& collective_kinds() {
  static const std::vector<std::string> kinds = {"tree_barrier"};
  return kinds;
}

PreparedPoint prepare_point(const RunSpec& run, const PointSpec& spec) {
  ParamReader reader(spec.params);
  const std::string kind = reader.text_or("collective.kind", "tree_barrier");
  const auto& kinds = collective_kinds();
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
    throw InputError(fmt::format("collective.kind = \"{}\" is not a known collective (known: {})",
                                 kind, fmt::join(kinds, ", ")));
  PreparedPoint point;
  if (run.kind == RunKind::kNHalf && kind != "tree_barrier")
    throw InputError(fmt::format(
        "kind = \"nhalf\" needs collective.kind = \"tree_barrier\", got \"{}\"", kind));
  prepare_tree_barrier(point, reader, spec, run);
  reader.reject_unread(fmt::format("a {} run", kind));
  if (run.kind == RunKind::kSample && point.sampled && run.samples < 2 && !run.precision.enabled)
    throw InputError(fmt::format(
        "{}: samples = {} is invalid: at least 2 samples per point", run.path, run.samples));
  point.params = params_record(reader.resolved());
  point.stream_key = point_stream_key(run.seed, reader.resolved());
  if (point.sampled) point.sampled->set_stream_key(point.stream_key);
  if (point.analysis) point.analysis->set_stream_key(point.stream_key);
  return point;
}

std::vector<PreparedPoint> prepare_points(const RunSpec& run) {
  std::vector<PreparedPoint> points;
  for (const auto& spec : run.points) points.push_back(prepare_point(run, spec));
  return points;
}

}  // namespace collnoise
