#pragma once
// The declaration of one summary field a model writes for its points (ModelKind::summary_fields,
// engine/study.hpp), or one every point carries (runs/point_fields.hpp): its name, unit and
// meaning, and when it is written. docs/reference/summary-fields.md is generated from these
// declarations, and tests/test_summary_schema.cpp checks them against what the models write.
#include <string>
#include <vector>

namespace collnoise {

struct FieldSpec {
  std::string name;  ///< as in the summary record: "mean", "theorem2_lower"
  /// The unit its record declares (Record::set_unit: "seconds", "work units", "1"); empty for a
  /// field that has none (counts, text, verdicts, and pure numbers the model leaves unitless).
  std::string unit;
  std::string meaning;  ///< one line
  /// When the field is written: empty for every point of the model, otherwise the condition
  /// ("time-based noise only").
  std::string when;
};

/// Appends `more` to `fields`.
inline void append_fields(std::vector<FieldSpec>& fields, const std::vector<FieldSpec>& more) {
  fields.insert(fields.end(), more.begin(), more.end());
}

}  // namespace collnoise
