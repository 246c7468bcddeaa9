#include "outputs/points_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <iterator>
#include <limits>
#include <set>
#include <string_view>
#include <unordered_map>

#include "core/errors.hpp"
#include "estimators/bound_fields.hpp"

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

// `without_bounds`: the user bounds' fields left out (they have a table of their own).
Survey survey(std::span<const Record* const> records, bool without_bounds = false) {
  Survey s;
  std::vector<std::size_t> written_in;  // per key: the last row that wrote it, plus one
  for (std::size_t row = 0; row < records.size(); ++row) {
    for (const auto& [key, value] : records[row]->fields()) {
      if (without_bounds && is_bound_field(key)) continue;
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
    const Survey s = survey(records, !params);
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
      for (const auto& [key, value] : records[row]->fields()) {
        const auto at = s.position.find(key);
        if (at == s.position.end()) continue;  // a bound's field
        if (const auto c = column_of[at->second]; c && !std::holds_alternative<Null>(value))
          fill_cell(table.columns[*c], row, value);
      }
  }
  return table;
}

namespace {

// A table as a compound dataset, with its columns' units and sources as attributes.
void write_table_with_units(const h5::Group& group, const char* name, const PointsTable& table) {
  const h5::Dataset ds = group.write_table(name, table.columns);
  ds.set_texts("units", table.units);
  ds.set_texts("sources", table.sources);
}

}  // namespace

void write_points_table(const h5::Group& group, const PointsTable& table) {
  write_table_with_units(group, kPointsTableName, table);
}

void write_predictions_table(const h5::Group& group, const PointsTable& table) {
  write_table_with_units(group, kPredictionsTableName, table);
}

namespace {

// A user bound's fields: the members of the pattern (estimators/bound_fields.hpp), one column
// each, in their order.
const std::size_t kBoundFields = bound_members().size();

// A key of the pattern: its bound (from 1) and member index.
struct BoundKey {
  std::int64_t bound = 0;
  std::size_t field = 0;  // index into bound_members()
};

std::optional<BoundKey> parse_bound_key(std::string_view key) {
  const auto parsed = parse_bound_field(key);
  if (!parsed) return std::nullopt;
  return BoundKey{static_cast<std::int64_t>(parsed->bound),
                  static_cast<std::size_t>(parsed->member)};
}

// The declaration of bound `bound`'s member `c`, in `unit` when it is a quantity.
FieldSpec bound_member_field(std::int64_t bound, std::size_t c, const std::string& unit = "") {
  return bound_field(static_cast<std::size_t>(bound), bound_members()[c].member, unit);
}

}  // namespace

bool is_bound_field(std::string_view key) {
  return parse_bound_key(key).has_value();
}

Record without_bound_fields(const Record& record) {
  Record out;
  for (const auto& [key, value] : record.fields())
    if (!is_bound_field(key)) out.set(key, value);
  for (const auto& [key, unit] : record.units())
    if (!is_bound_field(key)) out.set_unit(key, unit);
  return out;
}

PointsTable bounds_table(std::span<const PointRecords> points) {
  std::vector<std::int64_t> point, bound;
  std::vector<std::vector<std::string>> texts(kBoundFields), reasons(kBoundFields);
  std::vector<std::vector<double>> numbers(kBoundFields);
  std::vector<std::string> units;
  for (std::size_t p = 0; p < points.size(); ++p) {
    if (points[p].summary == nullptr) continue;
    const Record& summary = *points[p].summary;
    std::unordered_map<std::int64_t, std::size_t> row_of;  // this point's bounds
    for (const auto& [key, value] : summary.fields()) {
      const auto parsed = parse_bound_key(key);
      if (!parsed) continue;
      const auto [at, fresh] = row_of.try_emplace(parsed->bound, point.size());
      if (fresh) {
        point.push_back(static_cast<std::int64_t>(p));
        bound.push_back(parsed->bound);
        for (std::size_t c = 0; c < kBoundFields; ++c) {
          texts[c].emplace_back();
          reasons[c].emplace_back();
          numbers[c].push_back(std::numeric_limits<double>::quiet_NaN());
        }
        units.push_back(summary.unit_of(
            bound_field(static_cast<std::size_t>(parsed->bound), BoundMember::kValue, "").name));
      }
      const std::size_t c = parsed->field;
      if (const auto* null = std::get_if<Null>(&value))
        reasons[c][at->second] = null->reason;
      else if (bound_members()[c].text)
        texts[c][at->second] = text_of(value);
      else
        numbers[c][at->second] = number_of(value);
    }
  }
  PointsTable table;
  const auto add = [&](h5::Column column, std::string unit, std::string source) {
    table.columns.push_back(std::move(column));
    table.units.push_back(std::move(unit));
    table.sources.push_back(std::move(source));
  };
  std::string quantity_unit;
  for (const std::string& unit : units)
    if (!unit.empty()) add_unit(quantity_unit, unit);
  add({"point", std::move(point)}, "", "point");
  add({"bound", std::move(bound)}, "", "bounds");
  for (std::size_t c = 0; c < kBoundFields; ++c) {
    const BoundMemberSpec& member = bound_members()[c];
    const std::string field(member.suffix);
    if (member.text)
      add({field, std::move(texts[c])}, "", "bounds");
    else
      add({field, std::move(numbers[c])}, member.in_metric_unit ? quantity_unit : "", "bounds");
  }
  add({"unit", std::move(units)}, "", "bounds");
  for (std::size_t c = 0; c < kBoundFields; ++c)
    if (bound_members()[c].nullable)
      add({std::string(bound_members()[c].suffix) + "_reason", std::move(reasons[c])}, "",
          "bounds");
  return table;
}

void write_bounds_table(const h5::Group& group, const PointsTable& table) {
  write_table_with_units(group, kPointsBoundsName, table);
}

namespace {

// The column `name` of a bounds table, of type T; InputError naming the file otherwise.
template <class T>
const std::vector<T>& bound_column(std::span<const h5::Column> columns, const std::string& name,
                                   const std::string& path) {
  for (const h5::Column& column : columns)
    if (column.name == name) {
      if (const auto* values = std::get_if<std::vector<T>>(&column.values)) return *values;
      throw InputError(
          fmt::format("'{}': column {} of {} has the wrong type", path, name, kPointsBoundsName));
    }
  throw InputError(fmt::format("'{}': {} has no column {}", path, kPointsBoundsName, name));
}

// The fields of row `row` of the table into `record`.
void put_bound_row(Record& record, std::span<const h5::Column> columns, std::size_t row,
                   std::int64_t bound, const std::string& path) {
  const std::string& unit = bound_column<std::string>(columns, "unit", path)[row];
  for (std::size_t c = 0; c < kBoundFields; ++c) {
    const BoundMemberSpec& member = bound_members()[c];
    const std::string field(member.suffix);
    const FieldSpec declared = bound_member_field(bound, c, unit);
    if (member.nullable) {
      const auto& reason = bound_column<std::string>(columns, field + "_reason", path)[row];
      if (!reason.empty()) {
        record.put(declared, Field(Null{reason}));
        continue;
      }
    }
    if (member.text)
      record.put(declared, Field(bound_column<std::string>(columns, field, path)[row]));
    else
      record.put(declared, Field(bound_column<double>(columns, field, path)[row]));
  }
}

}  // namespace

void read_bound_fields(const h5::Group& group, std::vector<Record>& summaries,
                       const std::string& path) {
  if (!group.has_child(kPointsBoundsName)) return;
  const std::vector<h5::Column> columns = group.read_table(kPointsBoundsName);
  const auto& point = bound_column<std::int64_t>(columns, "point", path);
  const auto& bound = bound_column<std::int64_t>(columns, "bound", path);
  std::vector<std::vector<std::size_t>> rows_of(summaries.size());
  for (std::size_t r = 0; r < point.size(); ++r) {
    if (point[r] < 0 || static_cast<std::uint64_t>(point[r]) >= summaries.size() || bound[r] < 1)
      throw InputError(
          fmt::format("'{}': row {} of {} names point {} bound {} (the file holds {} "
                      "points)",
                      path, r, kPointsBoundsName, point[r], bound[r], summaries.size()));
    rows_of[static_cast<std::size_t>(point[r])].push_back(r);
  }
  for (std::size_t p = 0; p < summaries.size(); ++p) {
    if (rows_of[p].empty()) continue;
    // The bound fields where the run wrote them: after the model's and shared fields, before
    // bounds_decided.
    Record merged;
    const auto put_bounds = [&] {
      for (const std::size_t r : rows_of[p]) put_bound_row(merged, columns, r, bound[r], path);
    };
    bool put = false;
    for (const auto& [key, value] : summaries[p].fields()) {
      if (key == bounds_decided_field().name && !put) {
        put_bounds();
        put = true;
      }
      merged.set(key, value);
    }
    if (!put) put_bounds();
    for (const auto& [key, unit] : summaries[p].units()) merged.set_unit(key, unit);
    summaries[p] = std::move(merged);
  }
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
