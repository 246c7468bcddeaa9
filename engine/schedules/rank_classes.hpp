#pragma once
// A stored schedule recompiled as rank classes (docs/models/schedules.md, "Performance"): the
// collectives Schedgen writes, and the algorithms collnoise stores, give most ranks the same
// program up to their peers (a dissemination barrier's rank r sends to r + 2^k, whatever r). Such
// a schedule is held as one program per class, each peer a rule (an offset from the rank, or a
// fixed rank), and the class of each rank: a 2^16-rank dissemination barrier read from GOAL takes
// a kilobyte and a table instead of 65 MB, and the engine, which then reads one class's program
// from the cache instead of every rank's operations from memory, runs it a third faster.
//
// The classes give the engine every operation exactly as the stored schedule does (kind, size,
// peer, tag, CPU, NIC, dependents in the same order, the same global indices), so a run gives
// every rank the same finishing time, bit for bit.
#include <cstdint>
#include <optional>

#include "engine/schedules/generated_schedule.hpp"
#include "engine/schedules/schedule.hpp"

namespace collnoise {

/// `s` as rank classes, if it has at most `max_classes` of them and they take at most a quarter
/// of its memory; else nothing (an irregular schedule, such as one recorded from an
/// application, stays stored).
std::optional<GeneratedSchedule> rank_classes(const Schedule& s, std::uint32_t max_classes = 1024);

}  // namespace collnoise
