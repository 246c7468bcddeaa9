#pragma once
// The points table of a result file (docs/hdf5-layout.md, "The points table"): one row per point
// in point order, one column per parameter and per scalar summary field that any point writes,
// so that h5py reads a whole run as one numpy structured array and pandas as one DataFrame.
// Built generically from the records the points wrote and the units they declare: the models
// own their fields, and nothing here knows one by name.
#include <span>
#include <string>
#include <string_view>
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

/// The predictions table's dataset, at the root of a result file of a run with
/// prediction.draws: the table of the predictions' records as points_table makes one of the
/// points' (docs/hdf5-layout.md, "Predictions").
inline constexpr const char* kPredictionsTableName = "predictions_table";

/// Writes `table` (points_table of the predictions) as kPredictionsTableName of `group`.
void write_predictions_table(const h5::Group& group, const PointsTable& table);

/// The bounds table's dataset, at the root of a result file: the user bounds' fields
/// (bound_<i>_<field>, runs/bound_check.hpp), one row per point and bound, in columns of their
/// own (docs/hdf5-layout.md, "The bounds table"). They are neither attributes of the point's
/// summary group nor columns of the points table, whose sizes HDF5 caps (64 KiB of compound
/// type, 65535 attributes of a group): any number of bounds fits.
inline constexpr const char* kPointsBoundsName = "points_bounds";

/// Whether `key` is a user bound's field: "bound_<i>_<field>" with i a number and <field> one
/// of the bounds table's (a model's own "bound_lower" is not).
bool is_bound_field(std::string_view key);

/// `record` without its bound fields, units included (what a point's summary group holds).
Record without_bound_fields(const Record& record);

/// Columns point, bound (i, from 1), name, statistic, relation, value, estimate, ci_low,
/// ci_high, ci_method, level, level_method, verdict, verdict_adjusted, distance, unit (of value,
/// estimate, ci_low and ci_high at that point), then `<field>_reason` for the fields that may be
/// null (NaN or empty in their column). Units: those of `unit`, merged, for the four quantities.
/// No rows when no point has bounds.
PointsTable bounds_table(std::span<const PointRecords> points);

/// Writes it as kPointsBoundsName with `units` and `sources` ("point" or "bounds") attributes.
void write_bounds_table(const h5::Group& group, const PointsTable& table);

/// Puts the bound fields of `group`'s bounds table back into the summaries read from the point
/// groups (one per point), in the order the run wrote them: before `bounds_decided`. Nothing
/// when the file has no bounds table (no bounds, or written before it: its point groups hold
/// the fields). InputError naming `path` when the table does not fit the points.
void read_bound_fields(const h5::Group& group, std::vector<Record>& summaries,
                       const std::string& path);

/// The units the records declare for the keys they hold, by key in the order first seen. A key
/// whose records declare different units (a sweep mixing models) lists them, separated by " | ".
std::vector<std::pair<std::string, std::string>> merged_units(std::span<const Record> records);

}  // namespace collnoise
