#pragma once
// The declaration of a summary field: the one place its name, unit and meaning are spelled. A
// model declares the fields it writes for its points (ModelKind::summary_fields, engine/study.hpp)
// and writes each through its declaration (Record::put), its table columns and plot hints name
// declarations too, and docs/reference/summary-fields.md and the Python package's list of names
// (python/collnoise/fields.py) are generated from them. tests/runs/test_summary_schema.cpp checks
// every model's points against its declarations; scripts/check_field_literals.py checks that no
// field name is spelled twice in the sources.
//
// Fields that come in families are declared as patterns (estimators/summary_fields.hpp: an
// estimated mean, the reported quantiles; runs/bound_check.hpp: a user bound's fields), whose
// members are declarations made from the pattern.
#include <string>
#include <vector>

namespace collnoise {

/// What a field holds: what the samples give (an estimate, a count, a verdict, text), or an exact
/// value beside it (a closed form, a theory's bound, the noiseless run): `collnoise.Result.exact`
/// shows the latter.
enum class FieldKind { kSampled, kExact };

struct FieldSpec {
  std::string name;  ///< as in the summary record: "mean", "theorem2_lower"
  /// The unit the record stores beside it ("seconds", "work units", "1"); empty for a field that
  /// has none (counts, text, verdicts, and pure numbers the model leaves unitless).
  std::string unit;
  std::string meaning;  ///< one line
  /// When the field is written: empty for every point of the model, otherwise the condition
  /// ("time-based noise only").
  std::string when;
  FieldKind kind = FieldKind::kSampled;

  /// The same field, written under `condition` (a model's fields that share one condition).
  FieldSpec written(std::string condition) const {
    FieldSpec copy = *this;
    copy.when = std::move(condition);
    return copy;
  }
};

/// `field`, declared as an exact value (FieldKind::kExact).
inline FieldSpec exact_field(FieldSpec field) {
  field.kind = FieldKind::kExact;
  return field;
}

/// The list of declared fields a model (or the fields every point shares) writes, in order:
/// single declarations and the expansions of patterns.
using FieldList = std::vector<FieldSpec>;

/// Appends `more` to `fields`.
inline void append_fields(FieldList& fields, const FieldList& more) {
  fields.insert(fields.end(), more.begin(), more.end());
}

/// `fields`, each written under `condition`.
inline FieldList written_under(FieldList fields, const std::string& condition) {
  for (FieldSpec& field : fields) field.when = condition;
  return fields;
}

}  // namespace collnoise
