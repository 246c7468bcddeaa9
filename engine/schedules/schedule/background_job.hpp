#pragma once
// A user's background job beside a collective (docs/models/contention.md, "A background job"):
// another program on the same network, given as a GOAL schedule of its own, whose messages share
// the links with the collective's. Both run as one schedule: the collective's ranks first, then
// the job's, its peers moved past the collective's; a run times the collective's ranks only
// (Schedule::timed_ranks), and the job's ranks start at 0 and take the point's noise as any rank
// does.
#include <cstdint>
#include <string>

#include "engine/schedules/schedule/any_schedule.hpp"
#include "engine/schedules/schedule/schedule.hpp"

namespace collnoise {

/// A user's background job (network.background_schedule): its schedule, and where it came from
/// ("GOAL file x", for the summary).
struct BackgroundJob {
  Schedule schedule;
  std::string description;
};

/// `collective`'s ranks 0..P-1, then `job`'s ranks as ranks P..P+Q-1 (a send to or receive from
/// job rank q goes to P + q; a receive from any source stays so, and can take only the job's
/// messages, as no message crosses between the two). Timed ranks: P. The collective is stored
/// whatever its kind (a generated schedule is built in full). InputError when the two together
/// exceed the engine's 2^30 ranks.
Schedule with_background_job(const AnySchedule& collective, const Schedule& job);

}  // namespace collnoise
