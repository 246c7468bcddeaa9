#include "runs/user_bound.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>

#include "core/errors.hpp"
#include "estimators/summary_fields.hpp"

namespace collnoise {
namespace {

// A text key of bound `which`, or InputError.
std::string text_key(const ParamMap& table, const std::string& key, const std::string& which,
                     bool required) {
  const auto it = table.find(key);
  if (it == table.end()) {
    if (!required) return "";
    throw InputError(fmt::format("{}: {} is missing", which, key));
  }
  const auto* text = std::get_if<std::string>(&it->second);
  if (text == nullptr || text->empty())
    throw InputError(fmt::format("{}: {} must be a non-empty string", which, key));
  return *text;
}

double number_key(const ParamMap& table, const std::string& key, const std::string& which) {
  const auto it = table.find(key);
  if (it == table.end()) return 0.0;
  if (const auto* i = std::get_if<std::int64_t>(&it->second)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&it->second)) return *d;
  throw InputError(fmt::format("{}: {} must be a number", which, key));
}

BoundRelation relation_of(const std::string& text, const std::string& which) {
  if (text == ">=") return BoundRelation::kAtLeast;
  if (text == "<=") return BoundRelation::kAtMost;
  if (text == "==") return BoundRelation::kEqual;
  throw InputError(
      fmt::format("{}: relation = \"{}\" is not one of \">=\", \"<=\", \"==\"", which, text));
}

UserBound read_one(const ParamMap& table, const std::string& which) {
  static const std::set<std::string> keys = {"name", "statistic", "relation", "expression",
                                             "tolerance"};
  for (const auto& [key, value] : table)
    if (!keys.contains(key))
      throw InputError(fmt::format(
          "{}: unknown key '{}' (a bound has name, statistic, relation, expression, tolerance)",
          which, key));
  UserBound b;
  b.name = text_key(table, "name", which, true);
  const std::string named = fmt::format("{} (\"{}\")", which, b.name);
  b.statistic = text_key(table, "statistic", named, false);
  if (b.statistic.empty()) b.statistic = "mean";
  bool known = false;
  for (const auto& [name, p] : bound_statistics()) known = known || name == b.statistic;
  if (!known) {
    std::string names;
    for (const auto& [name, p] : bound_statistics())
      names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", name);
    throw InputError(
        fmt::format("{}: statistic = \"{}\" is not one of {}", named, b.statistic, names));
  }
  b.relation = relation_of(text_key(table, "relation", named, true), named);
  b.expression = text_key(table, "expression", named, true);
  b.tolerance = number_key(table, "tolerance", named);
  if (!(b.tolerance >= 0.0) || !std::isfinite(b.tolerance))
    throw InputError(
        fmt::format("{}: tolerance = {} must be a finite number >= 0", named, b.tolerance));
  if (b.tolerance > 0.0 && b.relation != BoundRelation::kEqual)
    throw InputError(fmt::format(
        "{}: tolerance applies to relation \"==\" only (give it 0 or leave it out)", named));
  return b;
}

}  // namespace

const std::vector<std::pair<std::string, double>>& bound_statistics() {
  // The mean (0), then the reported quantiles, named as their summary fields are.
  static const std::vector<std::pair<std::string, double>> statistics = [] {
    std::vector<std::pair<std::string, double>> list = {{"mean", 0.0}};
    for (const double p : reported_probabilities()) list.emplace_back(quantile_name(p), p);
    return list;
  }();
  return statistics;
}

std::string relation_text(BoundRelation relation) {
  switch (relation) {
    case BoundRelation::kAtLeast:
      return ">=";
    case BoundRelation::kAtMost:
      return "<=";
    case BoundRelation::kEqual:
      return "==";
  }
  return "?";
}

std::vector<UserBound> read_user_bounds(const std::vector<ParamMap>& tables,
                                        const std::string& origin) {
  std::vector<UserBound> bounds;
  std::set<std::string> names;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    const std::string which = fmt::format("{}: bound[{}]", origin, i + 1);
    UserBound b = read_one(tables[i], which);
    if (!names.insert(b.name).second)
      throw InputError(fmt::format("{}: two bounds are named \"{}\"", which, b.name));
    bounds.push_back(std::move(b));
  }
  return bounds;
}

}  // namespace collnoise
