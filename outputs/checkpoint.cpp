#include "outputs/checkpoint.hpp"

#include <fmt/format.h>

#include "collnoise_version.hpp"
#include "core/cpu_features.hpp"
#include "core/errors.hpp"
#include "outputs/hdf5.hpp"
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
  std::vector<LoadedPoint> points(layouts.size());
  const h5::Group all = file.root().open_group("points");
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
    r.set("run_file_text", Field(run.text));
    r.set("seed", Field(run.seed));
    r.set("part", Field(run.part));
    r.set("libm_variant", Field(std::string(libm_variant())));
    r.set("points", Field(static_cast<std::uint64_t>(points.size())));
    file.root().write_record(r);
    const h5::Group all = file.root().create_group("points");
    for (std::size_t i = 0; i < points.size(); ++i) {
      const h5::Group g = all.create_group(fmt::format("{:04d}", i));
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

}  // namespace collnoise
