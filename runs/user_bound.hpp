#pragma once
// Bounds a user writes in a run file (`[[bound]]` tables, docs/bounds.md): a closed form of the
// point's keys and summary fields, held against a statistic of the point's primary metric with a
// verdict at every sampled point.
#include <string>
#include <vector>

#include "core/param_value.hpp"

namespace collnoise {

/// Which side of the bound the statistic is claimed to lie on.
enum class BoundRelation {
  kAtLeast,  ///< ">=": the statistic is at least the bound
  kAtMost,   ///< "<=": at most
  kEqual,    ///< "==": within `tolerance` (relative to the bound's value) of it
};

struct UserBound {
  std::string name;       ///< unique in the run
  std::string statistic;  ///< "mean", "median", "p90", "p99" or "p999"
  BoundRelation relation = BoundRelation::kAtLeast;
  std::string expression;  ///< muparser syntax (docs/bounds.md)
  double tolerance = 0.0;  ///< relative, >= 0; only "==" uses it
};

/// The statistics a bound may name, and their quantile probabilities (0 for the mean).
const std::vector<std::pair<std::string, double>>& bound_statistics();

/// ">=", "<=", "==".
std::string relation_text(BoundRelation relation);

/// Reads the `[[bound]]` tables of run file `origin`: InputError naming the bound and the key at
/// fault (unknown keys, a missing name or expression, a statistic or relation not listed, a
/// negative tolerance, two bounds of one name). The expression itself is checked per point,
/// against the names the point defines (runs/bound_check.hpp).
std::vector<UserBound> read_user_bounds(const std::vector<ParamMap>& tables,
                                        const std::string& origin);

}  // namespace collnoise
