#pragma once
// The points table of a result file (docs/hdf5-layout.md, "The points table"): one row per point
// in point order, one column per parameter and per scalar summary field that any point writes,
// so that h5py reads a whole run as one numpy structured array and pandas as one DataFrame.
// Built generically from the records the points wrote and the units they declare: the models
// own their fields, and nothing here knows one by name.
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/record.hpp"
#include "outputs/hdf5.hpp"

namespace collnoise {

/// The table's dataset, at the root of a result file.
inline constexpr const char* kPointsTableName = "points_table";

/// What one point contributes to the table: its kind and its records.
struct PointRecords {
  std::string kind;
  const Record* params = nullptr;
  const Record* summary = nullptr;
};

/// The columns, and per column its unit ("" for none) and its source ("point", "params",
/// "summary").
struct PointsTable {
  std::vector<h5::Column> columns;
  std::vector<std::string> units;
  std::vector<std::string> sources;
};

/// Columns "point" (the index, int64) and "kind", then every parameter, then every summary field
/// that is not a list, each in the order the points first write them. A column of booleans is
/// bool, of integers int64, of numbers float64, of text (or of a parameter's list, written
/// "[a, b]") fixed-length text. A value a point lacks, or holds as null, is NaN in a number
/// column (a bool or integer column with such gaps becomes float64) and empty in a text column.
/// A name taken by an earlier column is prefixed with its source ("summary.<key>").
PointsTable points_table(std::span<const PointRecords> points);

/// Writes the table as the dataset kPointsTableName of `group`, with its attributes `units` and
/// `sources`: arrays of strings aligned with the columns.
void write_points_table(const h5::Group& group, const PointsTable& table);

/// The units the records declare for the keys they hold, by key in the order first seen. A key
/// whose records declare different units (a sweep mixing models) lists them, separated by " | ".
std::vector<std::pair<std::string, std::string>> merged_units(std::span<const Record> records);

}  // namespace collnoise
