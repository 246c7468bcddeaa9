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
#include "runs/point_factory.hpp"
#include "runs/run_file.hpp"
#include "runs/sampling_driver.hpp"

namespace collnoise {

std::string default_output_path(const std::string& run_name) {
  return run_name + ".h5";
}

namespace {

std::string run_kind_label(const RunSpec& run, const std::vector<PreparedPoint>& points) {
  if (run.kind != RunKind::kSample) return to_string(run.kind);
  std::string kind;
  for (const auto& p : points) {
    if (kind.empty()) kind = p.kind;
    if (kind != p.kind) return "mixed";
  }
  return kind;
}

}  // namespace

int run_command(const RunOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const RunSpec run = load_run_file(options.run_file, options.seed);
  const std::vector<PreparedPoint> points = prepare_points(run);
  const std::string out = options.out.empty() ? default_output_path(run.name) : options.out;
  if (std::filesystem::exists(out) && !options.force)
    throw InputError(fmt::format("output '{}' exists: use --force to overwrite it", out));
  check_writable(out);
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();

  std::vector<std::uint64_t> work;
  for (const auto& p : points)
    work.push_back(p.sampled ? run.samples : p.analysis->work_units());
  Progress progress(!options.quiet, work);
  const SummaryContext context{run.confidence, points.size()};
  std::vector<Tally> tallies(points.size());
  std::vector<PointResult> results;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const PreparedPoint& point = points[i];
    const auto report = [&](std::uint64_t done) { progress.update(i, done); };
    PointResult result;
    result.kind = point.kind;
    result.params = point.params;
    if (point.sampled) {
      const ChunkPlan plan = chunk_plan(run, *point.sampled);
      tallies[i] = empty_tally(run, *point.sampled);
      sample_chunks(*point.sampled, plan, all_chunks(plan), threads, tallies[i], report);
      result.summary = point.sampled->summarize(tallies[i], context);
      result.tally = &tallies[i];
      result.chunk_size = plan.chunk_size;
    } else {
      result.summary = point.analysis->analyse(threads, report);
    }
    results.push_back(std::move(result));
  }
  progress.finish();

  RunInfo info;
  info.kind = run_kind_label(run, points);
  info.threads = threads;
  info.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  write_result_file(out, run, info, results);
  if (!options.quiet) {
    std::vector<Record> params, summaries;
    for (const auto& r : results) {
      params.push_back(r.params);
      summaries.push_back(r.summary);
    }
    fmt::print("{}", summary_table(params, summaries));
    fmt::print("wrote {} ({} points, {:.2f} s, {} threads)\n", out, results.size(),
               info.wall_time_s, threads);
  }
  return exit_code::kSuccess;
}

}  // namespace collnoise
