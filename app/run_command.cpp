#include <fmt/format.h>
#include <omp.h>
#include <chrono>
#include <filesystem>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "app/progress.hpp"
#include "engine/errors.hpp"
#include "outputs/result_file.hpp"
#include "outputs/summary_report.hpp"
#include "runs/nhalf_run.hpp"
#include "runs/run_file.hpp"
#include "runs/sample_run.hpp"

namespace collnoise {

std::string default_output_path(const std::string& run_name) {
  return run_name + ".h5";
}

int run_command(const RunOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const RunSpec run = load_run_file(options.run_file, options.seed);
  const std::string out = options.out.empty() ? default_output_path(run.name) : options.out;
  if (std::filesystem::exists(out) && !options.force)
    throw InputError(fmt::format("output '{}' exists: use --force to overwrite it", out));
  check_writable(out);
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();

  std::vector<PointOutcome> outcomes;
  Progress progress(!options.quiet, run.points.size(),
                    run.kind == RunKind::kSample ? run.samples : run.nhalf.check_samples * 2);
  for (std::size_t i = 0; i < run.points.size(); ++i) {
    const auto report = [&](std::uint64_t done) { progress.update(i, done); };
    if (run.kind == RunKind::kSample)
      outcomes.push_back(run_tree_point(run, run.points[i], threads, run.points.size(), report));
    else
      outcomes.push_back(run_nhalf_point(run, run.points[i], threads, report));
  }
  progress.finish();

  RunInfo info;
  info.kind = run.kind == RunKind::kSample ? "tree_barrier" : "nhalf";
  info.threads = threads;
  info.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  write_result_file(out, run, info, outcomes);
  if (!options.quiet) {
    std::vector<Record> params, summaries;
    for (const auto& o : outcomes) {
      params.push_back(o.params);
      summaries.push_back(o.summary);
    }
    fmt::print("{}", summary_table(params, summaries));
    fmt::print("wrote {} ({} points, {:.2f} s, {} threads)\n", out, outcomes.size(),
               info.wall_time_s, threads);
  }
  return exit_code::kSuccess;
}

}  // namespace collnoise
