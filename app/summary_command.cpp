#include <fmt/format.h>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "app/messages.hpp"
#include "outputs/result_file.hpp"
#include "outputs/summary_report.hpp"

namespace collnoise {

int summary_command(const SummaryOptions& options) {
  const ResultFile file = read_result_file(options.path, read_options(!options.no_verify));
  if (options.json)
    fmt::print("{}", summary_json(file.root, file.params, file.summaries));
  else
    fmt::print("{}", summary_table(
                         file.params, file.summaries,
                         file.table_columns.empty() ? std::string() : file.table_columns.front()));
  return exit_code::kSuccess;
}

}  // namespace collnoise
