#pragma once
// Human and machine reports of a result: a fixed-width table, and the JSON document of
// `summary --json` (docs/cli.md).
#include <string>
#include <vector>

#include "core/record.hpp"

namespace collnoise {

/// A table with one row per point: the parameters that differ between points, then the
/// estimate, its interval and the exact value.
std::string summary_table(const std::vector<Record>& params, const std::vector<Record>& summaries);

/// {"format_version", "kind", "name", "seed", "points": [{"params": {...}, ...summary}]}.
/// Parameters missing from a point but present in another are null with a reason.
std::string summary_json(const Record& root, const std::vector<Record>& params,
                         const std::vector<Record>& summaries);

}  // namespace collnoise
