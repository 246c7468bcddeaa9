#pragma once
// The isoefficiency run kind (docs/models/isoefficiency.md; Bosque et al.): one point is one curve
// W(m) that keeps the efficiency at a target, for an imbalance overhead T_q (a closed-form family,
// or measured by Monte Carlo from job granularity or from a noise law, absolute or proportional to
// each node's work) plus a communication overhead T_o (a closed-form family, or a simulated
// collective). The record carries the curve with intervals, the exact curve where one exists, the
// fitted log-log growth exponent with its interval, the paper's predicted exponent, and an
// efficiency surface.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "distributions/noise_law.hpp"
#include "engine/isoefficiency/imbalance.hpp"
#include "engine/isoefficiency/overheads.hpp"
#include "engine/study.hpp"

namespace collnoise {

/// A communication overhead measured by simulating the collective on m ranks, seconds.
struct SimulatedOverhead {
  double mean = 0.0;
  std::optional<double> low, high;    ///< its confidence interval (null where undefined)
  std::optional<double> exact;        ///< the exact mean where one is known
  std::string method;                 ///< how the interval was computed
  std::vector<std::string> warnings;  ///< e.g. a heavy tail that makes the interval unreliable
};

struct IsoefficiencySpec {
  double target = 0.8;            ///< efficiency to keep, in (0, 1)
  double p = 1.0;                 ///< work units per second per node
  std::vector<double> m;          ///< node counts, >= 1
  std::vector<double> surface_w;  ///< W values of the efficiency surface (may be empty)
  std::uint64_t samples = 10000;  ///< Monte Carlo samples per m
  double confidence = 0.95;

  enum class Imbalance { kFamily, kGranularity, kNoise } imbalance = Imbalance::kFamily;
  OverheadFamily imbalance_family = OverheadFamily::kNone;
  double c1 = 0.0, c2 = 0.0;  ///< seconds (units as the family needs)
  // Granularity: job sizes g eta (eta from `law`, or equal sizes when null).
  double job_mean = 1.0;
  Assignment assignment = Assignment::kBlock;
  // Noise: absolute delays s eta (s seconds), or proportional ones (W/(p m)) f/(1-f) eta.
  bool proportional = false;
  double scale = 0.0;     ///< s, absolute delays
  double overhead = 0.0;  ///< f/(1-f), proportional delays
  std::shared_ptr<const NoiseLaw> law;

  // Communication overhead: a family, or a simulated collective giving T_o(m) directly.
  OverheadFamily comm_family = OverheadFamily::kNone;
  double comm_c1 = 0.0, comm_c2 = 0.0;
  /// Simulated collective: T_o(m) given m, threads, the point's stream key and the confidence
  /// level (set by the factory).
  std::function<SimulatedOverhead(double m, int threads, std::uint64_t key, double confidence)>
      comm_simulated;
  /// Core-seconds of comm_simulated at m (its cost model).
  std::function<double(double m)> comm_cost;
  std::string comm_name = "none";
};

class IsoefficiencyStudy final : public AnalysisStudy {
 public:
  explicit IsoefficiencyStudy(IsoefficiencySpec spec);
  PointSummary analyse(int threads, const SampleProgress& progress) const override;
  std::uint64_t work_units() const override { return spec_.m.size(); }
  double estimated_cost() const override;
  double working_bytes(int threads) const override;
  std::vector<TableColumn> columns() const override;
  PlotHints plot_hints() const override;

 private:
  IsoefficiencySpec spec_;
};

/// The model kind of this room: isoefficiency curves (kind = "isoefficiency").
ModelKind isoefficiency_model_kind();

/// What IsoefficiencyStudy::analyse writes (ModelKind::summary_fields).
std::vector<FieldSpec> isoefficiency_summary_fields();

}  // namespace collnoise
