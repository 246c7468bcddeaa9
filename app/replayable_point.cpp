#include "app/replayable_point.hpp"

#include <fmt/format.h>

#include <span>

#include "core/errors.hpp"
#include "outputs/point_identity.hpp"
#include "runs/point_factory.hpp"

namespace collnoise {

ReplayablePoint replayable_point(const ResultFile& result, const std::string& path,
                                 std::size_t point, const std::string& purpose) {
  const auto text = result.root.find("run_file_text");
  const auto run_path = result.root.find("run_file_path");
  const auto seed = result.root.find("seed");
  if (!text || !run_path || !seed || !std::holds_alternative<std::string>(*text) ||
      !std::holds_alternative<std::string>(*run_path) ||
      !std::holds_alternative<std::uint64_t>(*seed))
    throw InputError(fmt::format("'{}' records no run file: not a collnoise result", path));
  ReplayablePoint replayable;
  replayable.run = parse_run_text(std::get<std::string>(*text), std::get<std::string>(*run_path),
                                  std::get<std::uint64_t>(*seed));
  replayable.points = prepare_points(replayable.run);
  select_point(result, point, path);
  if (point >= replayable.points.size())
    throw InputError(fmt::format("'{}' holds {} points, its run file gives {}", path,
                                 result.summaries.size(), replayable.points.size()));
  const PreparedPoint& chosen = replayable.points[point];
  replayable.study = dynamic_cast<const ScheduleStudy*>(chosen.sampled.get());
  if (replayable.study == nullptr)
    throw InputError(fmt::format("--point {} is a {} point: {}", point, chosen.kind, purpose));
  // The data the run read, by content: a changed trace would replay another sample.
  const auto& recorded = result.identities[point];
  const RunIdentity now = run_identity(replayable.run, "1/1", replayable.points);
  if (recorded)
    if (const auto difference = identity_difference(std::span(&*recorded, 1), "when it was run",
                                                    std::span(&now.points[point], 1), "now"))
      throw InputError(fmt::format("point {} was sampled on other data: {}; restore the file",
                                   point, *difference));
  return replayable;
}

}  // namespace collnoise
