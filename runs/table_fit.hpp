#pragma once
// A model's free keys fitted to measured collective tables (docs/calibration.md, "Fitted to the
// collective tables"): the keys whose values make the simulated times of every table closest to
// the measured ones, with intervals from refits on moving-block resamples of the measured
// iterations.
//
// The objective is the mean over the tables of a distance between a table's measured iteration
// maxima and its point's simulated samples (metric 0: the largest rank time of an iteration, as
// `collnoise compare --mode max` compares them): W1 divided by the measured median (each table
// weighs alike), or the KS distance, or the mean of |simulated - measured| over the quantiles
// 0.1 .. 0.9 divided by the measured median. Each table's samples come from one stream key
// whatever the free values (common random numbers), so the objective is deterministic, and
// continuous in the free values for W1 and the quantile loss wherever the simulated times are.
// The optimiser is NLopt's Subplex (LN_SBPLX, Rowan's Nelder-Mead on subspaces, derivative-free
// and bounded) on the free values scaled to [0, 1]; it stops when a step changes no scaled value
// by more than 1e-4 or after the evaluation budget.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/param_value.hpp"
#include "distributions/measured_times.hpp"

namespace collnoise {

/// A key the fit chooses, within [low, high] (in the key's unit: seconds, seconds per byte, ...).
struct FreeKey {
  std::string key;
  double low = 0.0;
  double high = 0.0;
};

/// A measured table and the point that simulates it.
struct MeasuredTable {
  std::string path;  ///< as given, for messages
  std::string hash;  ///< of its content
  ParamMap point;    ///< the point's own keys (its collective), beside the machine's
  MeasuredTimes times;
};

enum class FitDistance { kW1, kKS, kQuantiles };

struct TableFitOptions {
  FitDistance distance = FitDistance::kW1;
  std::uint64_t samples = 400;    ///< simulated samples per table and evaluation
  std::size_t evaluations = 200;  ///< the optimiser's budget per fit
  std::size_t bootstrap = 20;     ///< refits on resampled tables (0: no intervals)
  double level = 0.9;             ///< of the intervals
  std::uint64_t seed = 0;
  /// Threads of each evaluation: its tables side by side, one thread each, when there are at
  /// least as many tables as threads; else each table's simulation on all of them. The answer
  /// does not depend on it.
  int threads = 1;
  std::string data_base;  ///< the folder relative data-file paths are taken from
  std::string origin;     ///< the calibration file, for messages
};

struct TableFitResult {
  std::vector<double> best;                          ///< a value per free key
  std::vector<std::pair<double, double>> intervals;  ///< per free key (best, best without draws)
  std::vector<std::vector<double>> draws;            ///< per bootstrap refit, a value per free key
  std::vector<double> table_distance;                ///< per table, at `best`
  std::vector<std::pair<double, double>> table_distance_interval;  ///< over the refits
  double objective = 0.0;                                          ///< at `best`
  std::size_t evaluations = 0;                                     ///< in all fits
  std::vector<std::string> warnings;  ///< keys not identifiable or at a range's end
};

/// Fits `keys` to `tables` under the machine's keys `machine` (the free keys replace theirs);
/// refit b takes `machine_draws[b % size]` over `machine` (the measurements' own bootstrap, so
/// that the intervals hold both stages' uncertainty). InputError naming the table or key at
/// fault (a point its model refuses, a range outside the key's bounds).
TableFitResult fit_tables(const ParamMap& machine, const std::vector<ParamMap>& machine_draws,
                          std::span<const MeasuredTable> tables, std::span<const FreeKey> keys,
                          const TableFitOptions& options);

/// The rank count of `table`'s point under the machine's keys, as its model resolves it before
/// simulating (ModelKind::ranks_key: collective.N, or 2^log2_N); else the table's rank columns
/// for a per-rank table; nullopt when neither says (a list of a GOAL file's times).
std::optional<std::uint64_t> table_ranks(const ParamMap& machine, const MeasuredTable& table,
                                         const std::string& data_base);

/// Samples 0 .. samples - 1 of the point `params` (run with no run settings but `samples`; data
/// files relative to `data_base`) from stream key `stream_key`: each sample's metric 0, for a
/// schedule the largest rank time of an iteration, as a table of that machine would measure it
/// (the fit's simulations, and measurements generated from a known machine). InputError when its
/// model refuses the point.
std::vector<double> simulated_table_times(const ParamMap& params, std::uint64_t samples,
                                          std::uint64_t stream_key, const std::string& data_base,
                                          int threads = 1);

/// The distance of `simulated` from `measured` (both not empty), as the objective takes it.
double fit_distance(FitDistance distance, std::span<const double> simulated,
                    std::span<const double> measured);

}  // namespace collnoise
