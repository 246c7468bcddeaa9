#pragma once
// From run-file points to models: finds the model that takes each point (engine/models.cpp), lets
// it read (and so validate) its parameters, and derives the point's stream key from the seed and
// the point's stream identity (docs/models/streams.md): not the point's position in the sweep,
// so adding a sweep value changes no other point.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/study.hpp"
#include "runs/run_file.hpp"

namespace collnoise {

/// InputError naming the key, law or value at fault.
PreparedPoint prepare_point(const RunSpec& run, const PointSpec& spec);
std::vector<PreparedPoint> prepare_points(const RunSpec& run);

/// What result and checkpoint files record of the run (runs/run_file.hpp) and of each point:
/// its stream identity and data files with the hashes of their content.
RunIdentity run_identity(const RunSpec& run, const std::string& part,
                         const std::vector<PreparedPoint>& points);

/// The collective kinds a run file may name (every model's, sorted).
std::vector<std::string> collective_kinds();

}  // namespace collnoise
