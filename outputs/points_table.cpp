#include "outputs/points_table.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <set>
#include <string_view>
#include <unordered_map>

namespace collnoise {
namespace {

// What a cell holds, as a bit, for choosing its column's type from all of its cells.
enum Cell : unsigned {
  kAbsent = 1u << 0,  // not written by the point, or null there
  kBool = 1u << 1,
  kInteger = 1u << 2,  // fits in int64
  kNumber = 1u << 3,
  kText = 1u << 4,
  kList = 1u << 5,
};

Cell cell_of(const Field& f) {
  return std::visit(
      [](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Null>)
          return kAbsent;
        else if constexpr (std::is_same_v<T, bool>)
          return kBool;
        else if constexpr (std::is_same_v<T, std::int64_t>)
          return kInteger;
        else if constexpr (std::is_same_v<T, std::uint64_t>)
          return v <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                     ? kInteger
                     : kNumber;
        else if constexpr (std::is_same_v<T, double>)
          return kNumber;
        else if constexpr (std::is_same_v<T, std::string>)
          return kText;
        else
          return kList;
      },
      f);
}

// A value in a text column: numbers in their shortest exact form, lists as "[a, b]" (null for
// an absent entry), nothing for a null.
std::string text_of(const Field& f) {
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
      f);
}

double number_of(const Field& f) {
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
      f);
}

std::int64_t integer_of(const Field& f) {
  return std::holds_alternative<std::int64_t>(f)
             ? std::get<std::int64_t>(f)
             : static_cast<std::int64_t>(std::get<std::uint64_t>(f));
}

// Adds `unit` to the " | "-separated list `listed` unless it is there.
void add_unit(std::string& listed, const std::string& unit) {
  if (listed.empty()) {
    listed = unit;
    return;
  }
  for (std::size_t at = 0; at <= listed.size();) {
    const std::size_t end = std::min(listed.find(" | ", at), listed.size());
    if (std::string_view(listed).substr(at, end - at) == unit) return;
    at = end + 3;
  }
  listed += " | " + unit;
}

// One source's keys over all rows, in the order first written, with the kinds of their cells
// and their units. One pass, one hash lookup per field and per unit: a sweep of many points
// holds only this and the finished columns, never a copy of every cell.
struct Survey {
  std::vector<std::string> keys;
  std::vector<unsigned> kinds;
  std::vector<std::size_t> present;  // rows that write the key
  std::vector<std::string> units;
  std::unordered_map<std::string_view, std::size_t> position;  // views into `keys`' records
};

Survey survey(std::span<const Record* const> records) {
  Survey s;
  std::vector<std::size_t> written_in;  // per key: the last row that wrote it, plus one
  for (std::size_t row = 0; row < records.size(); ++row) {
    for (const auto& [key, value] : records[row]->fields()) {
      const auto [at, fresh] = s.position.try_emplace(key, s.keys.size());
      if (fresh) {
        s.keys.push_back(key);
        s.kinds.push_back(0);
        s.present.push_back(0);
        s.units.emplace_back();
        written_in.push_back(0);
      }
      s.kinds[at->second] |= cell_of(value);
      ++s.present[at->second];
      written_in[at->second] = row + 1;
    }
    // Units of the fields this row writes (a model may declare units of fields it left out).
    for (const auto& [key, unit] : records[row]->units()) {
      const auto at = s.position.find(key);
      if (at != s.position.end() && written_in[at->second] == row + 1)
        add_unit(s.units[at->second], unit);
    }
  }
  for (std::size_t k = 0; k < s.keys.size(); ++k)
    if (s.present[k] < records.size()) s.kinds[k] |= kAbsent;
  return s;
}

// An empty column of `rows` cells of the type its kinds call for (absent cells stay as made:
// NaN, empty text); nullopt for a summary list (a curve, read from the point's group).
std::optional<h5::Column> empty_column(std::string name, unsigned kinds, std::size_t rows,
                                       bool lists_as_text) {
  if ((kinds & kList) && !lists_as_text) return std::nullopt;
  h5::Column column{std::move(name), {}};
  if (kinds & (kText | kList))
    column.values = std::vector<std::string>(rows);
  else if (kinds == kBool)
    column.values = std::vector<bool>(rows);
  else if (kinds == kInteger)
    column.values = std::vector<std::int64_t>(rows);
  else
    column.values = std::vector<double>(rows, std::numeric_limits<double>::quiet_NaN());
  return column;
}

void fill_cell(h5::Column& column, std::size_t row, const Field& value) {
  std::visit(
      [&](auto& cells) {
        using T = typename std::decay_t<decltype(cells)>::value_type;
        if constexpr (std::is_same_v<T, std::string>)
          cells[row] = text_of(value);
        else if constexpr (std::is_same_v<T, bool>)
          cells[row] = std::get<bool>(value);
        else if constexpr (std::is_same_v<T, std::int64_t>)
          cells[row] = integer_of(value);
        else
          cells[row] = number_of(value);
      },
      column.values);
}

}  // namespace

PointsTable points_table(std::span<const PointRecords> points) {
  PointsTable table;
  std::set<std::string, std::less<>> names;
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

  for (const std::string source : {"params", "summary"}) {
    const bool params = source == "params";
    std::vector<const Record*> records;
    for (const auto& p : points) records.push_back(params ? p.params : p.summary);
    const Survey s = survey(records);
    // Column of each key (or none), then every row's cells into their columns.
    std::vector<std::optional<std::size_t>> column_of(s.keys.size());
    for (std::size_t k = 0; k < s.keys.size(); ++k) {
      const std::string& key = s.keys[k];
      const std::string name = names.contains(key) ? source + "." + key : key;
      if (auto column = empty_column(name, s.kinds[k], points.size(), params)) {
        column_of[k] = table.columns.size();
        add(std::move(*column), s.units[k], source);
      }
    }
    for (std::size_t row = 0; row < records.size(); ++row)
      for (const auto& [key, value] : records[row]->fields())
        if (const auto c = column_of[s.position.at(key)]; c && !std::holds_alternative<Null>(value))
          fill_cell(table.columns[*c], row, value);
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
  for (const auto& r : records) pointers.push_back(&r);
  const Survey s = survey(pointers);
  std::vector<std::pair<std::string, std::string>> units;
  for (std::size_t k = 0; k < s.keys.size(); ++k)
    if (!s.units[k].empty()) units.emplace_back(s.keys[k], s.units[k]);
  return units;
}

}  // namespace collnoise
