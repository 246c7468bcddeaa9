#pragma once
// Every point's tally of a result file, as the bytes of its encoding: two results hold the same
// samples exactly when these are equal (used to compare runs split, resumed or dispatched
// differently).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "estimators/tally_codec.hpp"
#include "outputs/result_file.hpp"
#include "runs/point_factory.hpp"
#include "runs/run_file.hpp"
#include "runs/sampling_driver.hpp"

namespace collnoise::testing {

inline std::vector<std::vector<std::byte>> tally_bytes(const std::string& runfile,
                                                       const std::string& result) {
  const RunSpec run = load_run_file(runfile);
  const auto points = prepare_points(run);
  std::vector<std::optional<TallyLayout>> layouts;
  for (const auto& p : points) layouts.push_back(empty_tally(run, *p.sampled).layout());
  std::vector<std::vector<std::byte>> bytes;
  for (const auto& t : read_result_tallies(result, layouts)) bytes.push_back(encode_tally(*t));
  return bytes;
}

}  // namespace collnoise::testing
