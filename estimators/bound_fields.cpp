#include "estimators/bound_fields.hpp"

#include <array>
#include <charconv>

namespace collnoise {
namespace {

constexpr std::string_view kPatternHead = "bound_";
constexpr const char* kWritten = "with [[bound]] tables";

constexpr std::array<BoundMemberSpec, 13> kMembers = {{
    {BoundMember::kName, "name", "the i-th bound's name (i from 1, in the run file's order)", true,
     false, false},
    {BoundMember::kStatistic, "statistic",
     "the statistic it bounds: mean, median, p90, p99 or p999", true, false, false},
    {BoundMember::kRelation, "relation", "\">=\", \"<=\" or \"==\"", true, false, false},
    {BoundMember::kValue, "value", "the bound's value at the point, in the primary metric's unit",
     false, true, true},
    {BoundMember::kEstimate, "estimate", "the statistic's estimate", false, true, true},
    {BoundMember::kCiLow, "ci_low", "lower end of the statistic's interval at bound_<i>_level",
     false, true, true},
    {BoundMember::kCiHigh, "ci_high", "upper end of that interval", false, true, true},
    {BoundMember::kCiMethod, "ci_method", "how the interval was computed", true, false, false},
    {BoundMember::kLevel, "level", "the interval's confidence level", false, false, false},
    {BoundMember::kLevelMethod, "level_method",
     "\"fixed\" (the run's confidence) or \"spent over looks\" (precision.until)", true, false,
     false},
    {BoundMember::kVerdict, "verdict", "holds, violated or undecided (docs/bounds.md)", true, true,
     false},
    {BoundMember::kVerdictAdjusted, "verdict_adjusted",
     "the verdict at the level adjusted for every bound at every point (Bonferroni)", true, true,
     false},
    {BoundMember::kDistance, "distance", "(estimate - value) / |value|", false, true, false},
}};

std::string member_name(std::string_view index, const BoundMemberSpec& spec) {
  std::string name(kPatternHead);
  name += index;
  name += '_';
  name += spec.suffix;
  return name;
}

}  // namespace

std::span<const BoundMemberSpec> bound_members() {
  return kMembers;
}

const BoundMemberSpec& bound_member(BoundMember member) {
  return kMembers[static_cast<std::size_t>(member)];
}

FieldSpec bound_field(std::size_t i, BoundMember member, const std::string& unit) {
  const BoundMemberSpec& spec = bound_member(member);
  return {member_name(std::to_string(i), spec), spec.in_metric_unit ? unit : std::string(),
          std::string(spec.meaning), kWritten};
}

std::optional<BoundFieldName> parse_bound_field(std::string_view key) {
  if (!key.starts_with(kPatternHead)) return std::nullopt;
  key.remove_prefix(kPatternHead.size());
  std::size_t bound = 0;
  const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), bound);
  if (error != std::errc() || end == key.data() || bound < 1 || end == key.data() + key.size() ||
      *end != '_')
    return std::nullopt;
  const std::string_view suffix = key.substr(static_cast<std::size_t>(end - key.data()) + 1);
  for (const BoundMemberSpec& spec : kMembers)
    if (spec.suffix == suffix) return BoundFieldName{bound, spec.member};
  return std::nullopt;
}

const FieldSpec& bounds_decided_field() {
  static const FieldSpec field{"bounds_decided", "",
                               "whether every bound's verdict is holds or violated", kWritten};
  return field;
}

FieldList bound_field_pattern() {
  FieldList fields;
  // Values in the primary metric's unit, which the pattern cannot name once for all models: each
  // record declares it.
  for (const BoundMemberSpec& spec : kMembers)
    fields.push_back({member_name("<i>", spec), "", std::string(spec.meaning), kWritten});
  fields.push_back(bounds_decided_field());
  return fields;
}

}  // namespace collnoise
