#include "engine/schedules/schedule/background_job.hpp"

#include <fmt/format.h>

#include <variant>

#include "core/errors.hpp"

namespace collnoise {

Schedule with_background_job(const AnySchedule& collective, const Schedule& job) {
  const std::uint32_t p = ranks_of(collective);
  if (std::uint64_t{p} + job.ranks() > (std::uint64_t{1} << 30))
    throw InputError(fmt::format(
        "a collective of {} ranks beside a background job of {}: the engine takes at most 2^30", p,
        job.ranks()));
  ScheduleBuilder b;
  b.reserve(operations_of(collective) + job.operations());
  std::visit(
      [&](const auto& s) {
        for (std::uint32_t r = 0; r < p; ++r) b.append_rank(s.view(r));
      },
      collective);
  for (std::uint32_t q = 0; q < job.ranks(); ++q)
    b.append_rank(job.view(q), p, "a background job's rank");
  return b.finish_timing(p);
}

}  // namespace collnoise
