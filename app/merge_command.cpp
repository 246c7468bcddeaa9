// collnoise merge: the parts of a job array (collnoise run --part i/n) into the result an unsplit
// run would have written. Parts are checked to come from one run file and seed, to have been
// sampled on the same data (by content), and to hold disjoint chunks that together make every
// point whole.
#include <fmt/format.h>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "app/messages.hpp"
#include "app/output_guard.hpp"
#include "core/errors.hpp"
#include "core/rng.hpp"
#include "outputs/point_identity.hpp"
#include "outputs/result_file.hpp"
#include "outputs/summary_report.hpp"
#include "runs/point_factory.hpp"
#include "runs/point_fields.hpp"
#include "runs/prediction.hpp"
#include "runs/presentation.hpp"
#include "runs/run_file.hpp"
#include "runs/sampling_driver.hpp"
#include "runs/work_split.hpp"

namespace collnoise {
namespace {

template <class T>
T root_value(const Record& root, const char* name, const std::string& path) {
  const Field* f = root.find(name);
  if (!f || !std::holds_alternative<T>(*f))
    throw InputError(
        fmt::format("'{}' has no '{}' attribute: not a part of a collnoise run", path, name));
  return std::get<T>(*f);
}

struct PartFile {
  std::string path;
  Record root;
  PartSpec part;
  std::vector<std::optional<double>> wall_times_s;       // per point
  std::vector<std::optional<PointIdentity>> identities;  // per point; none in older files
};

std::vector<PartFile> read_parts(const std::vector<std::string>& paths,
                                 const h5::ReadOptions& read) {
  std::vector<PartFile> parts;
  for (const auto& path : paths) {
    ResultFile file = read_result_file(path, read);
    PartFile p{
        path, std::move(file.root), {}, std::move(file.wall_times_s), std::move(file.identities)};
    p.part = parse_part(root_value<std::string>(p.root, "part", path));
    parts.push_back(std::move(p));
  }
  return parts;
}

// One run file text, one seed, one part count, every part exactly once.
void check_parts_belong_together(const std::vector<PartFile>& parts) {
  const PartFile& first = parts.front();
  const auto text = root_value<std::string>(first.root, "run_file_text", first.path);
  const auto seed = root_value<std::uint64_t>(first.root, "seed", first.path);
  std::map<std::uint64_t, std::string> seen;
  for (const auto& p : parts) {
    if (root_value<std::string>(p.root, "run_file_text", p.path) != text)
      throw InputError(
          fmt::format("'{}' and '{}' come from different run files", first.path, p.path));
    const auto s = root_value<std::uint64_t>(p.root, "seed", p.path);
    if (s != seed)
      throw InputError(
          fmt::format("'{}' (seed {}) and '{}' (seed {}) were run with different "
                      "seeds: their samples are not shares of one run",
                      first.path, seed, p.path, s));
    // Parts sampled by builds of another stream format hold other random numbers.
    const Field* format = p.root.find("stream_format");
    const std::int64_t stream_format = format && std::holds_alternative<std::int64_t>(*format)
                                           ? std::get<std::int64_t>(*format)
                                           : 1;
    if (stream_format != kStreamFormat)
      throw InputError(fmt::format(
          "'{}' was sampled with stream format {}, this collnoise samples format {} "
          "(CHANGELOG.md): its samples are not shares of the same run; run that part again",
          p.path, stream_format, kStreamFormat));
    // Parts sampled under different variants of glibc's exp and log (CPUs of other kinds) may
    // differ in a last bit here and there: not the samples one run gives.
    const auto math_of = [](const PartFile& f) -> std::optional<std::string> {
      const Field* math = f.root.find("libm_variant");
      if (!math || !std::holds_alternative<std::string>(*math)) return std::nullopt;
      return std::get<std::string>(*math);
    };
    if (const auto mine = math_of(p), firsts = math_of(first); mine && firsts && *mine != *firsts)
      throw InputError(fmt::format(
          "'{}' was sampled under {} and '{}' under {}: their samples are not bitwise those of "
          "one run (docs/portable-builds.md); run the parts on one kind of CPU, or all with "
          "GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA,-FMA4",
          first.path, *firsts, p.path, *mine));
    if (p.part.count != first.part.count)
      throw InputError(fmt::format("'{}' is part {} and '{}' part {}: one job array has one n",
                                   first.path, to_string(first.part), p.path, to_string(p.part)));
    if (const auto [at, fresh] = seen.emplace(p.part.index, p.path); !fresh)
      throw InputError(fmt::format("'{}' and '{}' are both part {}: their chunks overlap",
                                   at->second, p.path, to_string(p.part)));
  }
  for (std::uint64_t i = 1; i <= first.part.count; ++i)
    if (!seen.contains(i))
      throw InputError(fmt::format("part {}/{} is missing: a merge needs all {} parts", i,
                                   first.part.count, first.part.count));
}

// Every point's identity a part records; nullopt when it records none (an older file).
std::optional<std::vector<PointIdentity>> identities_of(const PartFile& part) {
  std::vector<PointIdentity> all;
  for (const auto& identity : part.identities) {
    if (!identity) return std::nullopt;
    all.push_back(*identity);
  }
  return all;
}

// The parts were sampled on the same data, and merge reads that data now: samples of two
// contents of one file never make one result. Parts written before identities were recorded
// are merged with a note.
void check_same_data(const std::vector<PartFile>& parts, const std::vector<PointIdentity>& now) {
  std::optional<std::vector<PointIdentity>> reference;
  const PartFile* reference_part = nullptr;
  for (const auto& p : parts) {
    const auto identities = identities_of(p);
    if (!identities) {
      print_note(fmt::format(
          "'{}' records no hashes of its data files (written by an older collnoise): that it was "
          "sampled on the data the other parts read is not checked",
          p.path));
      continue;
    }
    if (!reference) {
      reference = identities;
      reference_part = &p;
      continue;
    }
    if (const auto difference =
            identity_difference(*reference, fmt::format("in '{}'", reference_part->path),
                                *identities, fmt::format("in '{}'", p.path)))
      throw InputError(fmt::format(
          "'{}' and '{}' were sampled on other data: {}: their samples are not shares of one run",
          reference_part->path, p.path, *difference));
  }
  if (!reference) return;
  if (const auto difference =
          identity_difference(*reference, "when the parts were sampled", now, "now"))
    throw InputError(fmt::format(
        "the parts were sampled on other data than merge reads: {}; restore the file the parts "
        "read",
        *difference));
}

// The files merge reads (its output may be none of them): the parts, the run file they name and
// every data file of its points (the parts alone before these are known).
std::vector<RolePath> merge_inputs(const MergeOptions& options, const RunSpec& run,
                                   const std::vector<PreparedPoint>& points) {
  std::vector<RolePath> inputs;
  for (const auto& p : options.parts) inputs.push_back({"the part", p});
  if (!run.path.empty()) inputs.push_back({"the parts' run file", run.path});
  for (const auto& p : points)
    for (const auto& f : p.input_files) inputs.push_back({"the data file", f.path});
  return inputs;
}

// The time the parts spent on point i together, when every part recorded it.
std::optional<double> point_wall_time(const std::vector<PartFile>& parts, std::size_t i) {
  double total = 0.0;
  for (const auto& p : parts) {
    if (i >= p.wall_times_s.size() || !p.wall_times_s[i]) return std::nullopt;
    total += *p.wall_times_s[i];
  }
  return total;
}

// The points' tallies, every chunk exactly once.
std::vector<Tally> merge_tallies(const RunSpec& run, const std::vector<PreparedPoint>& points,
                                 const std::vector<PartFile>& parts, const h5::ReadOptions& read) {
  std::vector<std::optional<TallyLayout>> layouts;
  std::vector<Tally> merged;
  for (const auto& p : points) {
    merged.push_back(empty_tally(run, *p.sampled));
    layouts.push_back(merged.back().layout());
  }
  std::vector<std::map<std::uint64_t, std::string>> origin(points.size());
  for (const auto& part : parts) {
    auto tallies = read_result_tallies(part.path, layouts, read);
    for (std::size_t i = 0; i < points.size(); ++i) {
      for (const auto& entry : tallies[i]->chunks())
        if (const auto [at, fresh] = origin[i].emplace(entry.first, part.path); !fresh)
          throw InputError(fmt::format("'{}' and '{}' overlap: both hold chunk {} of point {}",
                                       at->second, part.path, entry.first, i));
      merged[i].merge(std::move(*tallies[i]));
    }
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    const ChunkPlan plan = chunk_plan(run, *points[i].sampled);
    if (merged[i].chunks().size() != plan.chunks())
      throw InputError(
          fmt::format("the parts hold {} of the {} chunks of point {}: not the whole "
                      "run",
                      merged[i].chunks().size(), plan.chunks(), i));
  }
  return merged;
}

}  // namespace

int merge_command(const MergeOptions& options) {
  // --out may not be a part, the run file or a data file: those are known once the parts are
  // read and their points prepared, which writes nothing.
  const RolePath outputs[] = {{"--out", options.out}};
  refuse_path_conflicts(merge_inputs(options, {}, {}), outputs);
  const h5::ReadOptions read = read_options(!options.no_verify);
  const std::vector<PartFile> parts = read_parts(options.parts, read);
  check_parts_belong_together(parts);
  const PartFile& first = parts.front();
  const RunSpec run =
      parse_run_text(root_value<std::string>(first.root, "run_file_text", first.path),
                     root_value<std::string>(first.root, "run_file_path", first.path),
                     root_value<std::uint64_t>(first.root, "seed", first.path));
  const std::vector<PreparedPoint> points = prepare_points(run);
  for (const auto& p : points)
    if (!p.sampled) throw InputError("only sampled runs come in parts");
  const OutputGuard guard(merge_inputs(options, run, points), outputs, options.force, print_note);
  const RunIdentity identity = run_identity(run, to_string(PartSpec{}), points);
  check_same_data(parts, identity.points);
  std::vector<Tally> tallies = merge_tallies(run, points, parts, read);

  RunInfo info;
  info.kind = root_value<std::string>(first.root, "kind", first.path);
  info.threads = static_cast<int>(root_value<std::int64_t>(first.root, "threads", first.path));
  if (const Field* math = first.root.find("libm_variant");
      math && std::holds_alternative<std::string>(*math))
    info.math_library = std::get<std::string>(*math);
  info.processes = 0;
  for (const auto& p : parts) {
    info.processes += static_cast<int>(root_value<std::int64_t>(p.root, "processes", p.path));
    info.wall_time_s += root_value<double>(p.root, "wall_time_s", p.path);
    info.merged_from.push_back(p.path);
  }
  const SummaryContext context{run.confidence, points.size()};
  std::vector<PointResult> results;
  for (std::size_t i = 0; i < points.size(); ++i) {
    // Parts have no precision targets (run --part refuses them), so bounds are at the run's level.
    const BoundInput bounds{&run.bounds, &tallies[i],
                            bound_levels(run.confidence, points.size(), run.bounds.size(), {})};
    Record summary = point_record(points[i], points[i].sampled->summarize(tallies[i], context),
                                  run.confidence, nullptr, &bounds);
    results.push_back(point_result(points[i], std::move(summary), &tallies[i],
                                   chunk_plan(run, *points[i].sampled).chunk_size));
    results.back().wall_time_s = point_wall_time(parts, i);
  }
  const std::vector<PredictionResult> predictions = predictions_of(run, points, results);
  write_result_file(options.out, identity, info, results, predictions);
  if (!options.quiet) {
    fmt::print("{}", summary_table(results));
    fmt::print("{}", prediction_table(predictions, results));
    fmt::print("merged {} parts into {} ({} points)\n", parts.size(), options.out, points.size());
  }
  return exit_code::kSuccess;
}

}  // namespace collnoise
