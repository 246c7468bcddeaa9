#pragma once
// What a model does for one sweep point, and how models are found. Sampled models (the
// collectives) simulate samples in chunks, a row of metric values per sample, and turn the merged
// tally into a summary record; the sampling driver (runs/sampling_driver.hpp) owns the chunk
// loop, threads, processes, parts, checkpoints and precision targets for all of them. Analysis
// kinds (N_1/2, isoefficiency) compute their record directly.
//
// Each model lives in a room of engine/ and owns its whole life there: the keys it reads (with
// their defaults, ranges and units), their validation, its closed forms, its summary fields and
// table columns, its datasets and their units, and its plot hints. engine/models.cpp lists the
// models, one line each (docs/extending.md).
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/field_spec.hpp"
#include "core/key_spec.hpp"
#include "core/param_reader.hpp"
#include "core/record.hpp"
#include "estimators/mean_interval.hpp"
#include "estimators/summary_fields.hpp"
#include "estimators/tally.hpp"

namespace collnoise {

/// Settings every summary needs.
struct SummaryContext {
  double confidence = 0.95;
  std::size_t points_in_run = 1;  ///< for the Bonferroni adjustment of verdicts
};

/// What a model computes for a point: its own summary fields, and the warnings its estimates
/// raised (an interval method that fell back, too few samples). The fields every point shares
/// (`confidence`, `warnings`, the precision results) are written after the model's own by
/// runs/point_fields.hpp, the one writer `run` and `merge` both call.
struct PointSummary {
  Record record;
  std::vector<std::string> warnings;
};

/// A column of the table `collnoise run` and `summary` print: a header and the summary field it
/// shows (`format` "z" prints two decimals; empty: six significant digits). A model names the field
/// through its declaration (`kField.name`, `fields.mean().name`).
struct TableColumn {
  std::string header;
  std::string field;
  std::string format;
};

/// What `collnoise plot` needs to draw a point's figure without knowing the model: the figure,
/// drawn by the Python module python/collnoise/figures/<figure>.py ("curve": y against x with its
/// interval band and reference curves; "cycles", "network", "isoefficiency", "nhalf": the figures
/// of those models), the x parameter and its scale, the y field and its interval, and reference
/// fields.
struct PlotHints {
  std::string figure = "curve";
  std::string x = "collective.N";
  std::string x_scale = "log";
  // The fields are named through their declarations (core/field_spec.hpp): show() and
  // add_reference(), never a name of the hints' own.
  std::string y;      ///< the field drawn (show())
  std::string y_low;  ///< its interval's ends; empty: none
  std::string y_high;
  std::string y_label = "mean [s]";
  std::vector<std::string> references;  ///< fields drawn as reference curves (exact_mean)

  /// Draws a declared mean with its interval.
  void show(const MeanFields& fields) {
    show(fields.mean());
    y_low = fields.ci_low().name;
    y_high = fields.ci_high().name;
  }
  /// Draws a declared field with the interval of two others.
  void show(const FieldSpec& field, const FieldSpec& low, const FieldSpec& high) {
    y = field.name;
    y_low = low.name;
    y_high = high.name;
  }
  /// Draws a declared field, without an interval.
  void show(const FieldSpec& field) {
    y = field.name;
    y_low.clear();
    y_high.clear();
  }
  /// Adds a declared field drawn as a reference curve.
  void add_reference(const FieldSpec& field) { references.push_back(field.name); }
  /// Parameters the summary table shows even when every point has the same value (a point's
  /// size and noise law at a glance); the others only where points differ.
  std::vector<std::string> table_params = {"collective.N", "noise.law"};
};

/// Called with the samples done so far in a point (progress display).
using SampleProgress = std::function<void(std::uint64_t samples_done)>;

class SampledStudy {
 public:
  virtual ~SampledStudy() = default;

  /// The point's stream key (from the seed and the point's stream identity), set once the
  /// parameters are known.
  void set_stream_key(std::uint64_t key) { key_ = key; }

  /// What the point tallies (metric 0 is the primary one: precision targets and raw samples).
  virtual TallyLayout layout(std::size_t histogram_bins, const std::string& spacing) const = 0;
  /// The layout's shape (metrics, pairs, histograms and their bins, top capacities) for estimates
  /// of memory; the histograms' ranges may be placeholders. A model whose ranges cost work (a
  /// simulation) overrides it.
  virtual TallyLayout shape(std::size_t histogram_bins, const std::string& spacing) const {
    return layout(histogram_bins, spacing);
  }
  /// Samples per accumulation chunk when the run file does not say.
  virtual std::uint64_t default_chunk_size() const = 0;
  /// Simulates samples first .. first + rows.size()/width - 1 into `rows` (row-major, one row of
  /// metric values per sample) and counts into the extra histograms. The values depend only on
  /// the point's stream key and the sample indices, never on `threads`.
  virtual void simulate(std::uint64_t first, std::span<double> rows,
                        std::span<Histogram* const> extra, int threads) const = 0;
  /// Estimates, intervals, exact values and verdicts from the merged tally; its intervals are at
  /// `context.confidence`.
  virtual PointSummary summarize(const Tally& tally, const SummaryContext& context) const = 0;
  /// Tail index of the primary metric (infinity for light tails): precision targets on the mean
  /// are refused at or below 2.
  virtual double primary_tail_index() const = 0;
  /// The primary metric's mean with its interval at `level`, by the method the summary reports it
  /// with (user bounds ask for it at other levels: docs/bounds.md). Student t unless the model
  /// says otherwise.
  virtual MeanInterval primary_mean(const Tally& tally, double level) const {
    return student_t_interval(tally.total(0), level);
  }
  /// Core-seconds one sample takes: a cost model calibrated on bench/ (bench/HISTORY.md, "Cost
  /// model"), right within a factor of 3. Work estimates, limits and progress use it.
  virtual double cost_per_sample() const = 0;
  /// Core-seconds a point takes besides its samples (exact theory, summaries).
  virtual double fixed_cost() const { return 0.0; }
  /// Bytes the simulation of a chunk holds besides the tally (per-rank state), on `threads`.
  virtual double working_bytes(int threads) const = 0;
  /// The estimate columns of the run's table.
  virtual std::vector<TableColumn> columns() const = 0;
  virtual PlotHints plot_hints() const = 0;
  /// Called once a point's samples are taken (and after its layout is known): a study may drop
  /// what it holds only to sample (a schedule built for the point, gigabytes at a million ranks),
  /// so that a sweep holds one point's working state at a time. It must rebuild on later use.
  virtual void release_working_memory() const {}

 protected:
  std::uint64_t key_ = 0;
};

class AnalysisStudy {
 public:
  virtual ~AnalysisStudy() = default;
  void set_stream_key(std::uint64_t key) { key_ = key; }
  /// The point's result. `progress` receives a count of work units done.
  virtual PointSummary analyse(int threads, const SampleProgress& progress) const = 0;
  /// Whether the analysis's intervals are at the run's confidence level (then its points carry
  /// the shared `confidence` field); one with a level of its own (N_1/2's check) says no.
  virtual bool uses_run_confidence() const { return true; }
  /// Work units analyse reports in total (for progress and ETA).
  virtual std::uint64_t work_units() const = 0;
  /// Core-seconds of the whole analysis (cost model, as for sampled studies).
  virtual double estimated_cost() const = 0;
  /// Bytes the analysis holds at once, on `threads`.
  virtual double working_bytes(int threads) const = 0;
  virtual std::vector<TableColumn> columns() const = 0;
  virtual PlotHints plot_hints() const = 0;

 protected:
  std::uint64_t key_ = 0;
};

struct ModelKind;

/// A point ready to run: its parameter record and stream key, and its model.
struct PreparedPoint {
  const ModelKind* model = nullptr;  ///< the model that took it (engine/models.cpp)
  Record params;
  std::uint64_t stream_key = 0;
  std::string kind;  ///< collective kind or analysis ("tree_barrier", "butterfly", "nhalf", ...)
  std::unique_ptr<SampledStudy> sampled;
  std::unique_ptr<AnalysisStudy> analysis;
  std::vector<DataFileRead> input_files;  ///< data files the model reads (traces, delays), hashed
  /// What the point's streams are keyed by besides the seed: its model and the keys that define
  /// it, data files by content ("model=<name>" then ParamReader::stream_identity()).
  std::string stream_identity;
  std::vector<TableColumn> columns() const {
    return sampled ? sampled->columns() : analysis->columns();
  }
  PlotHints plot_hints() const { return sampled ? sampled->plot_hints() : analysis->plot_hints(); }
};

/// What a model may know of its run besides its own keys.
/// The run kind of sampled points (`kind = "sample"`, the default of a run file); an analysis
/// model names its own (ModelKind::run_kind).
inline constexpr const char* kSampleRunKind = "sample";

struct RunContext {
  std::string run_kind = kSampleRunKind;  ///< kSampleRunKind or an analysis's run kind
  std::uint64_t samples = 0;              ///< samples per point; 0 when the run file gives none
  double confidence = 0.95;
  std::uint64_t chunk_size = 0;  ///< samples per chunk; 0: the model's default
  ParamMap settings;             ///< settings tables a model owns ([nhalf]); it checks them
  bool critical_path = false;    ///< output.critical_path: record each sample's critical path
};

/// One kind of point a run file can ask for.
struct ModelKind {
  std::string name;     ///< "tree_barrier", "cycles", "network", "nhalf", ...
  std::string meaning;  ///< one line
  /// The run kind (`kind = "..."` of a run file) whose points it analyses ("nhalf"); empty for
  /// a sampled model, whose points are those of kSampleRunKind runs.
  std::string run_kind;
  /// How a refusal of a key it did not read names its point ("an isoefficiency curve"); empty:
  /// "a <collective.kind> run".
  std::string point_label;
  /// The collective.kind values it serves (for messages and documentation).
  std::vector<std::string> collectives;
  /// Its keys (documentation and tests; the laws' keys are the laws').
  std::vector<KeySpec> keys;
  /// Whether its points record critical paths when the run asks (output.critical_path).
  bool records_critical_path = false;
  /// The summary field holding a point's rank count, when its points have one: a prediction
  /// from a machine file beyond the ranks its calibration saw is an extrapolation
  /// (runs/prediction.hpp). Null: the model's points have no rank count.
  const FieldSpec* ranks_field = nullptr;
  /// The key that holds a point's rank count among its resolved parameters (PreparedPoint::
  /// params), when its points give one before they are simulated: the largest rank count a
  /// calibration's tables measured. Null: none (a GOAL file's ranks are the file's).
  const KeySpec* ranks_key = nullptr;
  /// Its own run-level settings table ([nhalf]): keys of the run, not of a point, handed to it in
  /// RunContext::settings; it reads and checks them when it prepares a point.
  std::vector<KeySpec> settings;
  /// The fields its summary records hold, in the order it writes them: its own, not those every
  /// point shares (runs/point_fields.hpp). docs/reference/summary-fields.md lists them.
  std::vector<FieldSpec> summary_fields;
  /// Whether it takes the point: looks at the run kind and the given keys without reading them.
  std::function<bool(const ParamReader&, const RunContext&)> takes;
  /// Reads its keys through `reader` (InputError naming the key at fault) and sets the point's
  /// kind and study.
  std::function<void(PreparedPoint&, ParamReader&, const RunContext&)> prepare;
};

/// Every model, in the order they are asked whether they take a point (engine/models.cpp).
const std::vector<ModelKind>& model_kinds();

/// The run kinds a run file may name: kSampleRunKind, then each analysis model's.
std::vector<std::string> run_kinds();

/// collective.kind: the collective of a sampled point.
const KeySpec& collective_kind_key();

/// The table a point's noise law is given in ("noise"): the laws declare their keys relative to
/// it (distributions/law_kind.hpp), every model reads them there.
const std::string& noise_law_table();

}  // namespace collnoise
