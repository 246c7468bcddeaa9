#pragma once
// Executes the sample kind of a run: for each point, phases in fixed-size chunks (each chunk's
// accumulator merged in chunk order, so any thread count gives the same bits), then estimates,
// intervals and the exact theory beside them.
#include <functional>
#include <vector>

#include "estimators/accumulator.hpp"
#include "estimators/histogram.hpp"
#include "estimators/top_values.hpp"
#include "outputs/record.hpp"
#include "runs/run_file.hpp"

namespace collnoise {

struct PointOutcome {
  Record params;   ///< dotted parameter names, N also as a string
  Record summary;  ///< estimates, intervals, theory and verdicts
  Accumulator total;
  std::vector<Accumulator> chunks;
  Histogram histogram;
  TopValues top{0};
  std::vector<double> raw;  ///< phase times, when the run asks for them
};

/// Called after each chunk with the phases done so far in this point.
using ChunkProgress = std::function<void(std::uint64_t phases_done)>;

/// Quantile probabilities reported for every point.
const std::vector<double>& reported_probabilities();

/// Samples and evaluates one point. `points_in_run` sets the Bonferroni adjustment.
PointOutcome run_tree_point(const RunSpec& run, const TreePoint& point, int threads,
                            std::size_t points_in_run, const ChunkProgress& progress = {});

/// The parameter record of a point (N above 2^53 also as a string).
Record params_record(const TreePoint& point);

}  // namespace collnoise
