#include "outputs/points_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string_view>
#include <unordered_map>

namespace collnoise {
namespace {

// What a cell holds, for choosing its column's type.
enum class Cell { kAbsent, kBool, kInteger, kNumber, kText, kList };

Cell cell_of(const Field* f) {
  if (!f) return Cell::kAbsent;
  return std::visit(
      [](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Null>)
          return Cell::kAbsent;
        else if constexpr (std::is_same_v<T, bool>)
          return Cell::kBool;
        else if constexpr (std::is_same_v<T, std::int64_t>)
          return Cell::kInteger;
        else if constexpr (std::is_same_v<T, std::uint64_t>)
          return v <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                     ? Cell::kInteger
                     : Cell::kNumber;
        else if constexpr (std::is_same_v<T, double>)
          return Cell::kNumber;
        else if constexpr (std::is_same_v<T, std::string>)
          return Cell::kText;
        else
          return Cell::kList;
      },
      *f);
}

// A value in a text column: numbers in their shortest exact form, lists as "[a, b]" (null for
// an absent entry), nothing for an absent value.
std::string text_of(const Field* f) {
  if (!f) return {};
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Null>) {
          return {};
        } else if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::string>) {
          return v;
        } else if constexpr (std::is_same_v<T, Series>) {
          std::vector<std::string> parts;
          for (const auto& x : v) parts.push_back(x ? fmt::format("{}", *x) : "null");
          return fmt::format("[{}]", fmt::join(parts, ", "));
        } else {
          return fmt::format("{}", v);
        }
      },
      *f);
}

double number_of(const Field* f) {
  if (!f) return std::numeric_limits<double>::quiet_NaN();
  return std::visit(
      [](const auto& v) -> double {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>)
          return v ? 1.0 : 0.0;
        else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>)
          return static_cast<double>(v);
        else if constexpr (std::is_same_v<T, double>)
          return v;
        else
          return std::numeric_limits<double>::quiet_NaN();
      },
      *f);
}

// One record's fields by key, for looking up a column's cell in each row.
using FieldIndex = std::unordered_map<std::string_view, const Field*>;

FieldIndex index_of(const Record& record) {
  FieldIndex index;
  for (const auto& [key, value] : record.fields()) index.emplace(key, &value);
  return index;
}

const Field* find_in(const FieldIndex& index, const std::string& key) {
  const auto it = index.find(key);
  return it == index.end() ? nullptr : it->second;
}

// The column of `key` from one record of each row; nullopt for a summary list (a curve, read
// from the point's group), which is no column.
std::optional<h5::Column> column_of(const std::string& name, const std::string& key,
                                    const std::vector<FieldIndex>& rows, bool lists_as_text) {
  std::vector<const Field*> cells;
  std::set<Cell> kinds;
  for (const auto& row : rows) {
    cells.push_back(find_in(row, key));
    kinds.insert(cell_of(cells.back()));
  }
  if (kinds.contains(Cell::kList) && !lists_as_text) return std::nullopt;
  h5::Column column{name, {}};
  if (kinds.contains(Cell::kText) || kinds.contains(Cell::kList)) {
    std::vector<std::string> values;
    for (const Field* f : cells) values.push_back(text_of(f));
    column.values = std::move(values);
  } else if (kinds == std::set<Cell>{Cell::kBool}) {
    std::vector<bool> values;
    for (const Field* f : cells) values.push_back(std::get<bool>(*f));
    column.values = std::move(values);
  } else if (kinds == std::set<Cell>{Cell::kInteger}) {
    std::vector<std::int64_t> values;
    for (const Field* f : cells)
      values.push_back(std::holds_alternative<std::int64_t>(*f)
                           ? std::get<std::int64_t>(*f)
                           : static_cast<std::int64_t>(std::get<std::uint64_t>(*f)));
    column.values = std::move(values);
  } else {
    std::vector<double> values;
    for (const Field* f : cells) values.push_back(number_of(f));
    column.values = std::move(values);
  }
  return column;
}

// Keys in the order the records first hold them.
std::vector<std::string> keys_in_order(const std::vector<const Record*>& records) {
  std::vector<std::string> keys;
  std::set<std::string, std::less<>> seen;
  for (const Record* r : records)
    for (const auto& [key, value] : r->fields())
      if (seen.insert(key).second) keys.push_back(key);
  return keys;
}

// Adds `unit` to the " | "-separated list `listed` unless it is there.
void add_unit(std::string& listed, const std::string& unit) {
  for (std::size_t at = 0; at <= listed.size();) {
    const std::size_t end = std::min(listed.find(" | ", at), listed.size());
    if (std::string_view(listed).substr(at, end - at) == unit) return;
    at = end + 3;
  }
  listed += " | " + unit;
}

std::vector<std::pair<std::string, std::string>> units_of(const std::vector<const Record*>& records,
                                                          const std::vector<FieldIndex>& indexes) {
  std::vector<std::pair<std::string, std::string>> merged;
  std::unordered_map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < records.size(); ++i)
    for (const auto& [key, unit] : records[i]->units()) {
      if (!find_in(indexes[i], key)) continue;  // declared for a field this point lacks
      if (const auto [at, fresh] = position.emplace(key, merged.size()); fresh)
        merged.emplace_back(key, unit);
      else
        add_unit(merged[at->second].second, unit);
    }
  return merged;
}

std::string unit_in(const std::vector<std::pair<std::string, std::string>>& units,
                    const std::string& key) {
  for (const auto& [k, u] : units)
    if (k == key) return u;
  return {};
}

}  // namespace

PointsTable points_table(std::span<const PointRecords> points) {
  PointsTable table;
  std::set<std::string> names;
  const auto add = [&](h5::Column column, std::string unit, std::string source) {
    names.insert(column.name);
    table.columns.push_back(std::move(column));
    table.units.push_back(std::move(unit));
    table.sources.push_back(std::move(source));
  };
  std::vector<std::int64_t> index;
  std::vector<std::string> kinds;
  for (std::size_t i = 0; i < points.size(); ++i) {
    index.push_back(static_cast<std::int64_t>(i));
    kinds.push_back(points[i].kind);
  }
  add({"point", std::move(index)}, "", "point");
  add({"kind", std::move(kinds)}, "", "point");

  for (const char* source : {"params", "summary"}) {
    const bool params = std::string_view(source) == "params";
    std::vector<const Record*> records;
    std::vector<FieldIndex> rows;
    for (const auto& p : points) {
      records.push_back(params ? p.params : p.summary);
      rows.push_back(index_of(*records.back()));
    }
    const auto units = units_of(records, rows);
    for (const auto& key : keys_in_order(records)) {
      const std::string name = names.contains(key) ? fmt::format("{}.{}", source, key) : key;
      if (auto column = column_of(name, key, rows, params))
        add(std::move(*column), unit_in(units, key), source);
    }
  }
  return table;
}

void write_points_table(const h5::Group& group, const PointsTable& table) {
  const h5::Dataset ds = group.write_table(kPointsTableName, table.columns);
  ds.set_texts("units", table.units);
  ds.set_texts("sources", table.sources);
}

std::vector<std::pair<std::string, std::string>> merged_units(std::span<const Record> records) {
  std::vector<const Record*> pointers;
  std::vector<FieldIndex> indexes;
  for (const auto& r : records) {
    pointers.push_back(&r);
    indexes.push_back(index_of(r));
  }
  return units_of(pointers, indexes);
}

}  // namespace collnoise
