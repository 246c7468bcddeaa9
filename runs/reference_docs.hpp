#pragma once
// The reference tables of docs/reference/, rendered from the registries that define them: the
// models and their keys (engine/models.cpp), the per-stage laws (distributions/laws.cpp), the
// kinds of time-based noise (distributions/time_noises.cpp), the generated algorithms
// (engine/schedules/algorithms/algorithms.cpp) and the summary fields (ModelKind::summary_fields
// and runs/point_fields.cpp). The files are committed; `collnoise reference DIR` writes them, and
// tests/test_reference_docs.cpp fails when the committed ones differ from what the registries give,
// so the tables cannot drift from the code.
#include <string>
#include <vector>

namespace collnoise {

/// One generated page: its file name under docs/reference/ and its Markdown text.
struct ReferencePage {
  std::string file;  ///< "keys.md"
  std::string text;
};

/// Every page of docs/reference/, rendered in memory (deterministic: the same registries give
/// the same bytes).
std::vector<ReferencePage> reference_pages();

/// The command that regenerates the pages, run from the source directory with a built
/// collnoise: "build/collnoise reference docs/reference".
inline constexpr const char* kRegenerateReferenceCommand =
    "build/collnoise reference docs/reference";

/// Writes every page into `directory` (created if missing). RuntimeFailure if a file cannot be
/// written.
void write_reference_pages(const std::string& directory);

}  // namespace collnoise
