#pragma once
// A schedule as a study holds it: stored (a GOAL file, an algorithm without a pattern, repeated
// cycles) or generated on the fly (engine/schedules/schedule/generated_schedule.hpp). The engine is
// compiled for each; std::visit picks.
#include <variant>

#include "engine/schedules/schedule/generated_schedule.hpp"
#include "engine/schedules/schedule/schedule.hpp"

namespace collnoise {

using AnySchedule = std::variant<Schedule, GeneratedSchedule>;

inline std::uint32_t ranks_of(const AnySchedule& s) {
  return std::visit([](const auto& x) { return x.ranks(); }, s);
}
/// The ranks a run times (Schedule::timed_ranks).
inline std::uint32_t timed_ranks_of(const AnySchedule& s) {
  return std::visit([](const auto& x) { return x.timed_ranks(); }, s);
}
inline std::uint64_t operations_of(const AnySchedule& s) {
  return std::visit([](const auto& x) { return x.operations(); }, s);
}
inline std::uint64_t memory_bytes_of(const AnySchedule& s) {
  return std::visit([](const auto& x) { return x.memory_bytes(); }, s);
}
inline std::uint64_t ready_at_start_of(const AnySchedule& s) {
  return std::visit([](const auto& x) { return x.ready_at_start(); }, s);
}

}  // namespace collnoise
