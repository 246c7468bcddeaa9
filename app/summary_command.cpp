#include <fmt/format.h>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "app/messages.hpp"
#include "outputs/result_file.hpp"
#include "outputs/summary_report.hpp"
#include "runs/presentation.hpp"

namespace collnoise {

int summary_command(const SummaryOptions& options) {
  const ResultFile file = read_result_file(options.path, read_options(!options.no_verify));
  // Files written before models declared the parameters their table always shows: the engine's
  // default.
  const std::string shown = file.table_params.empty() || !file.table_params.front()
                                ? table_params_text(PlotHints{}.table_params)
                                : *file.table_params.front();
  const std::string columns =
      file.table_columns.empty() ? std::string() : file.table_columns.front();
  if (options.json) {
    fmt::print("{}", summary_json(file.root, file.params, file.summaries, file.predictions));
  } else {
    fmt::print("{}", summary_table(file.params, file.summaries, columns, shown));
    fmt::print("{}", prediction_table(file.predictions, columns, shown));
  }
  return exit_code::kSuccess;
}

}  // namespace collnoise
