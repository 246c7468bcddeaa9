#include "runs/presentation.hpp"

#include <fmt/format.h>

namespace collnoise {

std::string columns_text(const std::vector<TableColumn>& columns) {
  std::string text;
  for (const auto& c : columns) text += c.header + "\t" + c.field + "\t" + c.format + "\n";
  return text;
}

std::string table_params_text(const std::vector<std::string>& keys) {
  std::string text;
  for (const auto& k : keys) text += k + "\n";
  return text;
}

Record plot_record(const PlotHints& hints) {
  Record r;
  r.set("figure", Field(hints.figure));
  r.set("x", Field(hints.x));
  r.set("x_scale", Field(hints.x_scale));
  r.set("y", Field(hints.y));
  r.set("y_low", Field(hints.y_low));
  r.set("y_high", Field(hints.y_high));
  r.set("y_label", Field(hints.y_label));
  r.set("references", Field(fmt::format("{}", fmt::join(hints.references, ","))));
  return r;
}

PointResult point_result(const PreparedPoint& point, Record summary, const Tally* tally,
                         std::uint64_t chunk_size) {
  PointResult r;
  r.kind = point.kind;
  r.params = point.params;
  r.summary = std::move(summary);
  r.tally = tally;
  r.chunk_size = chunk_size;
  r.table_columns = columns_text(point.columns());
  r.table_params = table_params_text(point.plot_hints().table_params);
  r.plot = plot_record(point.plot_hints());
  return r;
}

}  // namespace collnoise
