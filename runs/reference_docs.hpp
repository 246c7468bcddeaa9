#pragma once
// The reference tables of docs/reference/, rendered from the registries that define them: the
// models and their keys (engine/models.cpp), the per-stage laws (distributions/laws.cpp), the
// kinds of time-based noise (distributions/time_noises.cpp), the generated algorithms
// (engine/schedules/algorithms/algorithms.cpp) and the summary fields (ModelKind::summary_fields
// and runs/point_fields.cpp), and the Python package's list of those fields. The files are
// committed; `collnoise reference DIR --python FILE` writes them, and
// tests/runs/test_reference_docs.cpp fails when the committed ones differ from what the registries
// give, so the tables cannot drift from the code.
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

/// The command that regenerates the pages and the Python package's list of summary fields, run
/// from the source directory with a built collnoise.
inline constexpr const char* kRegenerateReferenceCommand =
    "build/collnoise reference docs/reference --python python/collnoise/fields.py";

/// Where the Python package's list of summary fields lives, from the source directory.
inline constexpr const char* kPythonFieldsModule = "python/collnoise/fields.py";

/// The Python module of every declared summary field (python/collnoise/fields.py): one name per
/// field, bound to the field's name, and its unit in UNITS, generated from the same declarations
/// as docs/reference/summary-fields.md, so that the package spells no field name of its own.
std::string python_fields_module();

/// Writes python_fields_module() to `path`. RuntimeFailure if it cannot be written.
void write_python_fields_module(const std::string& path);

/// Writes every page into `directory` (created if missing). RuntimeFailure if a file cannot be
/// written.
void write_reference_pages(const std::string& directory);

}  // namespace collnoise
