#pragma once
// The schedule engine's working memory, kept from one run to the next
// (ScheduleEngineMemory in engine/schedules/engine/schedule_engine.hpp).
//
// Why: a run fills its event queue, its match lists (a million receives at once for a preposted
// 2^16-rank barrier) and its per-rank arrays, and a fresh set of them per sample cost the kernel's
// page faults and zeroing: a fifth of a 2^16-rank sample. A thread that simulates one sample
// after another keeps these buffers and only resets them.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/huge_page_allocator.hpp"
#include "engine/schedules/engine/engine_event.hpp"
#include "engine/schedules/engine/event_queue.hpp"
#include "engine/schedules/engine/match_lists.hpp"
#include "engine/schedules/engine/waiting_rooms.hpp"

namespace collnoise::schedule_detail {

/// Raw storage for the engine's per-rank and per-operation arrays, whose element types depend on
/// the noise and the schedule (a noise's per-rank slot, the narrowest dependency counter).
struct alignas(64) CacheLine {
  std::byte bytes[64];
};

/// The start round of a generated schedule's rank classes
/// (engine/schedules/schedule/generated_schedule.hpp): every rank of a class has the same
/// operations ready at the start, entering the queue in the same order, so the order is found once
/// per class and run, not sorted again for each rank. Keyed by the class's program, valid for one
/// run (cleared with the buffers, keeping their memory: nothing is allocated per sample once the
/// classes fit).
struct ClassStarts {
  /// An operation ready at the start: its local index and its EventType.
  using Ready = std::pair<std::uint32_t, std::uint8_t>;

  /// The ready operations of the class of `program`, if it was added in this run.
  std::optional<std::span<const Ready>> find(const void* program) {
    if (last_ >= classes_.size() || classes_[last_].program != program) {
      const auto at = lower_bound(program);
      if (at == classes_.end() || at->program != program) return std::nullopt;
      last_ = static_cast<std::size_t>(at - classes_.begin());
    }
    return span_of(classes_[last_]);
  }
  /// Adds the class of `program` (not yet added), whose ready operations are those appended to
  /// `ready` since its size was `begin`; gives them.
  std::span<const Ready> add(const void* program, std::size_t begin) {
    const auto at = classes_.insert(lower_bound(program), Class{program, begin, ready.size()});
    last_ = static_cast<std::size_t>(at - classes_.begin());
    return span_of(*at);
  }
  void clear() {
    classes_.clear();
    ready.clear();
    last_ = 0;
  }

  std::vector<Ready> ready;  ///< every class's, one after the other

 private:
  struct Class {
    const void* program;
    std::size_t begin, end;  ///< its ready operations in `ready`
  };
  std::vector<Class>::iterator lower_bound(const void* program) {
    return std::lower_bound(
        classes_.begin(), classes_.end(), program,
        [](const Class& c, const void* p) { return std::less<>{}(c.program, p); });
  }
  std::span<const Ready> span_of(const Class& c) const {
    return std::span<const Ready>(ready).subspan(c.begin, c.end - c.begin);
  }

  std::vector<Class> classes_;  ///< by program
  std::size_t last_ = 0;        ///< the class last found (ranks of a class mostly come in a row)
};

struct EngineBuffers {
  HugeVector<CacheLine> rank_lines;
  HugeVector<CacheLine> counter_lines;
  MatchPool matches;
  RadixEventQueue<Event> queue;
  WaitingRooms<Event> rooms;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> fresh;
  std::vector<Event> start;  ///< the start round's events listed ahead
  ClassStarts class_starts;  ///< the start round of each rank class met in this run
  /// Called with the events processed so far every 2^20 events (for progress), if set.
  std::function<void(std::uint64_t)> on_progress;

  /// `n` value-initialised objects of T at the start of `lines` (grown if need be), valid until
  /// the next call on the same lines.
  template <class T>
  static std::span<T> array_of(HugeVector<CacheLine>& lines, std::size_t n) {
    static_assert(std::is_trivially_destructible_v<T> && alignof(T) <= alignof(CacheLine));
    const std::size_t count = (n * sizeof(T) + sizeof(CacheLine) - 1) / sizeof(CacheLine);
    if (lines.size() < count) lines.resize(count);
    T* first = reinterpret_cast<T*>(lines.data());
    std::uninitialized_value_construct_n(first, n);
    return {first, n};
  }

  /// Empties the queue, lists and rooms a run may have left behind (an interrupted one), keeping
  /// their memory.
  void reset() {
    matches.clear();
    queue.clear();
    rooms.clear();
    fresh.clear();
    start.clear();
    class_starts.clear();
  }
};

}  // namespace collnoise::schedule_detail
