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
#include <unordered_map>
#include <vector>

#include "engine/schedules/schedule/generated_schedule.hpp"
#include "engine/schedules/schedule/schedule.hpp"

namespace collnoise {

/// Takes the ranks of a schedule in order, one at a time, into classes: a reader hands each rank
/// over as soon as it is read and keeps none of them stored while they fit (a 2^20-rank GOAL file
/// is read in megabytes). Memory: the class programs and 4 bytes a rank.
class RankClassCollector {
 public:
  /// For a schedule of `ranks` ranks; at most `max_classes` classes.
  explicit RankClassCollector(std::uint32_t ranks, std::uint32_t max_classes = 1024);

  /// Takes the next rank (0, 1, ... in turn). False when it fits no class and no class can be
  /// opened (too many, or their programs too large beside the operations seen): the schedule is
  /// not regular enough, and the collector takes no more ranks.
  bool add(const Schedule::RankView& rank);
  std::uint32_t ranks_taken() const { return static_cast<std::uint32_t>(class_of_.size()); }
  /// Appends every rank taken, operation by operation, to `b` (a reader that gives up on classes
  /// goes on with a stored schedule).
  void replay(ScheduleBuilder& b) const;
  /// The classes, once every rank is taken; nothing if their programs take more than a quarter
  /// of the schedule's operations (then replay() it).
  std::optional<GeneratedSchedule> finish() const;

 private:
  // A class: its first member's program (peers as that rank has them) and, per operation, the
  // readings of its peer every member so far agrees with.
  struct Class {
    Schedule program;
    std::vector<std::uint64_t> shape;    ///< the program without its peers (shape_of)
    std::vector<std::uint32_t> offset;   ///< (peer - rank) mod N of the members
    std::vector<std::uint8_t> readings;  ///< kByOffset | kFixed, as still possible
  };
  bool join(Class& c, const Schedule::RankView& v, std::uint32_t rank);
  Class open(const Schedule::RankView& v, std::uint32_t rank,
             const std::vector<std::uint64_t>& shape) const;
  std::uint32_t peer_of(const Class& c, std::uint32_t k, std::uint32_t rank) const;

  std::uint32_t ranks_;
  std::uint32_t max_classes_;
  std::vector<Class> classes_;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> by_shape_;
  std::vector<std::uint32_t> class_of_;
  std::uint64_t operations_ = 0;  ///< of the ranks taken
  std::uint64_t class_operations_ = 0;
  bool failed_ = false;
  // Scratch, kept between ranks.
  std::vector<std::uint64_t> words_;
  std::vector<std::uint8_t> narrowed_;
};

/// `s` as rank classes, if it has at most `max_classes` of them and they take at most a quarter
/// of its operations; else nothing (an irregular schedule, such as one recorded from an
/// application, stays stored).
std::optional<GeneratedSchedule> rank_classes(const Schedule& s, std::uint32_t max_classes = 1024);

}  // namespace collnoise
