#pragma once
// The fields of a user bound's verdict at a point, declared as one pattern: bound_<i>_<member>
// for the i-th [[bound]] table of the run file (i from 1), and bounds_decided. runs/bound_check
// writes them; outputs/points_table keeps them in a table of their own (/points_bounds, one
// column per member) and puts them back. Both go through these declarations.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/field_spec.hpp"

namespace collnoise {

/// A member of the pattern, in the order a bound's fields are written.
enum class BoundMember : std::size_t {
  kName,
  kStatistic,
  kRelation,
  kValue,
  kEstimate,
  kCiLow,
  kCiHigh,
  kCiMethod,
  kLevel,
  kLevelMethod,
  kVerdict,
  kVerdictAdjusted,
  kDistance,
};

/// What a member holds.
struct BoundMemberSpec {
  BoundMember member;
  std::string_view suffix;   ///< "ci_low": the field is bound_<i>_ci_low
  std::string_view meaning;  ///< one line, for docs/reference/summary-fields.md
  bool text;                 ///< text (else a number)
  bool nullable;             ///< may be null, with its reason
  bool in_metric_unit;       ///< a quantity in the primary metric's unit (else unitless)
};

/// Every member, in BoundMember's order.
std::span<const BoundMemberSpec> bound_members();
const BoundMemberSpec& bound_member(BoundMember member);

/// The declaration of the i-th bound's `member` (i from 1): bound_<i>_<suffix>, in `unit` (the
/// primary metric's: "seconds", or "1" for a slowdown) when the member is a quantity.
FieldSpec bound_field(std::size_t i, BoundMember member, const std::string& unit);

/// A field name of the pattern, taken apart: bound_<bound>_<member>.
struct BoundFieldName {
  std::size_t bound = 0;  ///< from 1
  BoundMember member = BoundMember::kName;
};

/// `key` as a name of the pattern; nullopt for any other name (a model's own bound_lower).
std::optional<BoundFieldName> parse_bound_field(std::string_view key);

/// Whether every bound's verdict at the point is holds or violated.
const FieldSpec& bounds_decided_field();

/// The pattern as the reference page shows it: bound_<i>_<suffix> for every member, then
/// bounds_decided.
FieldList bound_field_pattern();

}  // namespace collnoise
