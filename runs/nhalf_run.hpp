#pragma once
// The N_1/2 run kind: per point, (a) the paper's approximation, (b) the exact N_1/2 of the model
// (any N, and full trees), (c) a simulated check that E[T](N/2) < 2w < E[T](2N) at the run's
// check confidence, on the per-level path (any N up to 2^127).
#include "runs/run_file.hpp"
#include "runs/sample_run.hpp"

namespace collnoise {

PointOutcome run_nhalf_point(const RunSpec& run, const TreePoint& point, int threads,
                             const ChunkProgress& progress = {});

}  // namespace collnoise
