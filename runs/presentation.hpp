#pragma once
// How a point is shown, as its model chose (engine/study.hpp), in the plain form result files
// store: table columns as text lines and plot hints as a record (docs/hdf5-layout.md).
#include <string>
#include <vector>

#include "core/record.hpp"
#include "engine/study.hpp"
#include "outputs/result_file.hpp"

namespace collnoise {

/// Lines "header<TAB>field<TAB>format".
std::string columns_text(const std::vector<TableColumn>& columns);

/// One key a line.
std::string table_params_text(const std::vector<std::string>& keys);

/// figure, x, x_scale, y, y_low, y_high, y_label, references (comma-separated).
Record plot_record(const PlotHints& hints);

/// A point as the result file writes it: its parameters and kind, its summary and tally, and
/// how its model wants it shown.
PointResult point_result(const PreparedPoint& point, Record summary, const Tally* tally,
                         std::uint64_t chunk_size);

}  // namespace collnoise
