#include "outputs/checkpoint.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <filesystem>

#include "collnoise_version.hpp"
#include "core/cpu_features.hpp"
#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "outputs/hdf5.hpp"
#include "outputs/point_identity.hpp"
#include "outputs/result_file.hpp"
#include "outputs/tally_io.hpp"

namespace collnoise {
namespace {

template <class T>
T attribute_of(const Record& r, const std::string& name, const std::string& path) {
  const Field* f = r.find(name);
  if (!f || !std::holds_alternative<T>(*f))
    throw InputError(
        fmt::format("checkpoint '{}' is corrupt: attribute '{}' is missing", path, name));
  return std::get<T>(*f);
}

void expect_same(const std::string& path, const char* what, const std::string& stored,
                 const std::string& current) {
  if (stored != current)
    throw InputError(fmt::format(
        "checkpoint '{}' belongs to another run: its {} is '{}', this run's is '{}'; resume with "
        "the run file, seed, part and collnoise build that wrote it",
        path, what, stored, current));
}

// The identities the checkpoint records of its points; empty when it records none.
std::vector<PointIdentity> recorded_identities(const h5::Group& all, std::size_t count,
                                               const std::string& path) {
  std::vector<PointIdentity> recorded;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string name = fmt::format("{:04d}", i);
    if (!all.has_child(name)) return {};
    auto identity = read_point_identity(all.open_group(name),
                                        fmt::format("checkpoint '{}', point {}", path, i));
    if (!identity) return {};
    recorded.push_back(std::move(*identity));
  }
  return recorded;
}

// Samples of one content of a data file are never resumed with another: the file that changed
// is named with both hashes.
void refuse_other_data(const h5::Group& all, const std::string& path, const RunIdentity& run) {
  if (run.points.empty()) return;
  const std::vector<PointIdentity> recorded = recorded_identities(all, run.points.size(), path);
  if (recorded.empty()) return;  // not recorded: the engine build check has already refused it
  if (const auto difference =
          identity_difference(recorded, "when it was written", run.points, "now"))
    throw InputError(fmt::format(
        "checkpoint '{}' was sampled on other data: {}; resuming would mix samples of both "
        "contents: restore the file it was sampled on, or move the checkpoint away and start again",
        path, *difference));
}

std::vector<LoadedPoint> read_points(const h5::File& file, const std::string& path,
                                     const RunIdentity& run,
                                     std::span<const std::optional<TallyLayout>> layouts,
                                     std::span<const std::uint64_t> chunk_sizes) {
  const Record root = file.root().read_record();
  if (!root.find("filetype") ||
      attribute_of<std::string>(root, "filetype", path) != kCheckpointType)
    throw InputError(fmt::format("'{}' is not a collnoise checkpoint", path));
  if (attribute_of<std::int64_t>(root, "format_version", path) != kCheckpointVersion)
    throw InputError(fmt::format("checkpoint '{}' has format version {}; this build reads {}", path,
                                 attribute_of<std::int64_t>(root, "format_version", path),
                                 kCheckpointVersion));
  expect_same(path, "engine build",
              attribute_of<std::string>(root, "engine_version", path) + " " +
                  attribute_of<std::string>(root, "git_sha", path),
              std::string(kEngineVersion) + " " + kGitSha);
  if (attribute_of<std::string>(root, "run_file_text", path) != run.text)
    throw InputError(fmt::format(
        "checkpoint '{}' belongs to another run: it was written for a different run file text "
        "(run '{}'); resume with the run file that wrote it",
        path, attribute_of<std::string>(root, "name", path)));
  expect_same(path, "seed", std::to_string(attribute_of<std::uint64_t>(root, "seed", path)),
              std::to_string(run.seed));
  expect_same(path, "part", attribute_of<std::string>(root, "part", path), run.part);
  // Another CPU kind may run another variant of glibc's exp and log, which round a few results
  // differently: the resumed samples would not be the ones an uninterrupted run gives.
  if (root.find("libm_variant"))
    expect_same(path, "math library (docs/portable-builds.md)",
                attribute_of<std::string>(root, "libm_variant", path), std::string(libm_variant()));
  const auto count = attribute_of<std::uint64_t>(root, "points", path);
  if (count != layouts.size())
    throw InputError(fmt::format("checkpoint '{}' is corrupt: {} points, the run has {}", path,
                                 count, layouts.size()));
  const h5::Group all = file.root().open_group("points");
  refuse_other_data(all, path, run);
  std::vector<LoadedPoint> points(layouts.size());
  for (std::size_t i = 0; i < layouts.size(); ++i) {
    if (!layouts[i]) continue;
    const h5::Group g = all.open_group(fmt::format("{:04d}", i));
    const Record r = g.read_record();
    LoadedPoint& p = points[i];
    p.state.batch_end = attribute_of<std::uint64_t>(r, "batch_end", path);
    p.state.batches = attribute_of<std::uint64_t>(r, "batches", path);
    p.state.finished = attribute_of<bool>(r, "finished", path);
    // Timing only, not part of the state the results depend on: absent is none spent.
    if (const Field* wall = r.find("wall_time_s"); wall && std::holds_alternative<double>(*wall))
      p.state.wall_time_s = std::get<double>(*wall);
    const h5::Group tally = g.open_group("tally");
    const Record info = tally.read_record();
    if (attribute_of<std::uint64_t>(info, "chunk_size", path) != chunk_sizes[i])
      throw InputError(fmt::format(
          "checkpoint '{}' is corrupt: point {} has chunk size {}, the "
          "run uses {}",
          path, i, attribute_of<std::uint64_t>(info, "chunk_size", path), chunk_sizes[i]));
    p.tally = read_tally(tally, *layouts[i], fmt::format("checkpoint '{}', point {}", path, i));
  }
  return points;
}

}  // namespace

void write_checkpoint(const std::string& path, const RunIdentity& run,
                      std::span<const CheckpointPoint> points) {
  h5::File file = h5::File::create();
  {
    Record r;
    r.set("filetype", Field(std::string(kCheckpointType)));
    r.set("format_version", Field(kCheckpointVersion));
    r.set("engine_version", Field(std::string(kEngineVersion)));
    r.set("git_sha", Field(std::string(kGitSha)));
    r.set("name", Field(run.name));
    r.set("run_file_path", Field(run.path));
    r.set("run_file_text", Field(run.text));
    r.set("seed", Field(run.seed));
    r.set("part", Field(run.part));
    r.set("libm_variant", Field(std::string(libm_variant())));
    r.set("points", Field(static_cast<std::uint64_t>(points.size())));
    std::uint64_t chunks = 0;
    for (const auto& p : points)
      if (p.tally) chunks += p.tally->chunks().size();
    r.set("chunks", Field(chunks));
    file.root().write_record(r);
    const h5::Group all = file.root().create_group("points");
    for (std::size_t i = 0; i < points.size(); ++i) {
      const h5::Group g = all.create_group(fmt::format("{:04d}", i));
      if (i < run.points.size()) write_point_identity(g, run.points[i]);
      if (!points[i].tally) continue;
      Record state;
      state.set("batch_end", Field(points[i].state.batch_end));
      state.set("batches", Field(points[i].state.batches));
      state.set("finished", Field(points[i].state.finished));
      state.set("wall_time_s", Field(points[i].state.wall_time_s));
      state.set_unit("wall_time_s", "seconds");
      g.write_record(state);
      write_tally(g.create_group("tally"), *points[i].tally, points[i].chunk_size);
    }
  }
  file.commit(path);
}

std::vector<LoadedPoint> read_checkpoint(const std::string& path, const RunIdentity& run,
                                         std::span<const std::optional<TallyLayout>> layouts,
                                         std::span<const std::uint64_t> chunk_sizes,
                                         const h5::ReadOptions& options) {
  const h5::File file = h5::File::open(path, options);  // InputError: missing, damaged
  try {
    return read_points(file, path, run, layouts, chunk_sizes);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(fmt::format("checkpoint '{}' is corrupt: {}", path, e.what()));
  }
}

namespace {

std::string describe_run(const std::string& name, const std::string& path, std::uint64_t seed,
                         const std::string& part) {
  return fmt::format("run '{}'{}, seed {}, part {}", name,
                     path.empty() ? std::string() : fmt::format(" of '{}'", path), seed, part);
}

// How a checkpoint's run differs from `run`: empty when it is the same run (the same run file
// text, seed, part and data).
std::string run_difference(const Record& root, const h5::Group& all, const std::string& path,
                           const RunIdentity& run) {
  if (attribute_of<std::string>(root, "run_file_text", path) != run.text)
    return "another run file text";
  if (const auto seed = attribute_of<std::uint64_t>(root, "seed", path); seed != run.seed)
    return fmt::format("seed {}, not {}", seed, run.seed);
  if (const auto part = attribute_of<std::string>(root, "part", path); part != run.part)
    return fmt::format("part {}, not {}", part, run.part);
  const std::vector<PointIdentity> recorded = recorded_identities(all, run.points.size(), path);
  if (recorded.empty() || run.points.empty()) return "";
  return identity_difference(recorded, "there", run.points, "in this run").value_or("");
}

CheckpointAtPath inspect(const std::string& path, const RunIdentity& run,
                         const h5::ReadOptions& options) {
  using Kind = CheckpointAtPath::Kind;
  const h5::File file = h5::File::open(path, options);
  const Record root = file.root().read_record();
  const Field* type = root.find("filetype");
  const std::string filetype =
      type && std::holds_alternative<std::string>(*type) ? std::get<std::string>(*type) : "";
  if (filetype == kFileType) return {Kind::kOtherFile, {}, "a collnoise result"};
  if (filetype != kCheckpointType) return {Kind::kOtherFile, {}, "an HDF5 file of another kind"};
  const h5::Group all = file.root().open_group("points");
  CheckpointAtPath found;
  const std::string difference = run_difference(root, all, path, run);
  const Field* chunks = root.find("chunks");
  if (chunks && std::holds_alternative<std::uint64_t>(*chunks))
    found.chunks = std::get<std::uint64_t>(*chunks);
  if (difference.empty()) {
    found.kind = Kind::kThisRun;
    return found;
  }
  const Field* run_path = root.find("run_file_path");
  found.kind = Kind::kOtherRun;
  found.description =
      fmt::format("{}: {}",
                  describe_run(attribute_of<std::string>(root, "name", path),
                               run_path && std::holds_alternative<std::string>(*run_path)
                                   ? std::get<std::string>(*run_path)
                                   : std::string(),
                               attribute_of<std::uint64_t>(root, "seed", path),
                               attribute_of<std::string>(root, "part", path)),
                  difference);
  return found;
}

}  // namespace

std::string describe_run(const RunIdentity& run) {
  return describe_run(run.name, run.path, run.seed, run.part);
}

CheckpointAtPath inspect_checkpoint_path(const std::string& path, const RunIdentity& run,
                                         const h5::ReadOptions& options) {
  using Kind = CheckpointAtPath::Kind;
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (!fs::exists(status)) return {};
  if (fs::is_directory(status)) return {Kind::kOtherFile, {}, "a directory"};
  if (!fs::is_regular_file(status)) {
    struct stat st {};
    return {Kind::kOtherFile,
            {},
            ::stat(path.c_str(), &st) == 0 ? file_kind(st.st_mode) : "not a regular file"};
  }
  try {
    return inspect(path, run, options);
  } catch (const std::exception& e) {
    return {Kind::kOtherFile,
            {},
            fmt::format("a file that is not a readable checkpoint ({})", e.what())};
  }
}

}  // namespace collnoise
