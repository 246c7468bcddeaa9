#pragma once
// What a redundant-butterfly rank still has to receive and drop, consumed in arrival order:
//  - its mate's redundant copies that lost the race to the rank's own exchange. They leave the
//    mate in round order, so they arrive in order; in steady state two are pending (the copy of
//    round r-1 arrives just after round r completes). A two-slot FIFO;
//  - late ordinary messages of rounds the rank adopted, from partners caught in detours; up to
//    one a round, arriving in any order. The smallest is inline, the others sit in chains of
//    32-byte blocks from a pool (no lock on the hot path: a rank is processed by one thread at
//    a time, and each thread keeps its own free blocks, threaded through the blocks themselves).
//    A third pending mate copy joins them.
// Empty slots hold +infinity, so the front is one comparison.
#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

namespace collnoise {

struct RankDrops {
  static constexpr double kEmpty = std::numeric_limits<double>::infinity();
  std::array<double, 2> mate{kEmpty, kEmpty};  ///< FIFO of the mate's losing copies
  double late = kEmpty;                        ///< the smallest other drop

  bool empty() const { return mate[0] == kEmpty && late == kEmpty; }
  /// Earliest arrival (+infinity when empty).
  double front() const { return mate[0] < late ? mate[0] : late; }
};

class DropPool {
 public:
  /// `ranks`: one overflow chain head each. `threads`: the most OpenMP threads that use the pool
  /// at once; each call names the calling thread (its OpenMP number), whose free list it uses.
  DropPool(std::size_t ranks, int threads);

  [[gnu::always_inline]] void insert_mate_copy(std::size_t rank, RankDrops& d, double arrival,
                                               int thread) {
    if (d.mate[0] == RankDrops::kEmpty) {
      d.mate[0] = arrival;
      return;
    }
    if (d.mate[1] == RankDrops::kEmpty && !(arrival < d.mate[0])) {
      d.mate[1] = arrival;
      return;
    }
    insert_late(rank, d, arrival, thread);  // out of order or a third: the general list
  }

  [[gnu::always_inline]] void insert_late(std::size_t rank, RankDrops& d, double arrival,
                                          int thread) {
    if (d.late == RankDrops::kEmpty) {
      d.late = arrival;
      return;
    }
    // Keep the smaller inline.
    push_overflow(rank, arrival < d.late ? d.late : arrival, thread);
    if (arrival < d.late) d.late = arrival;
  }

  /// Removes the front. Precondition: not empty.
  [[gnu::always_inline]] void pop_front(std::size_t rank, RankDrops& d, int thread) {
    if (d.mate[0] < d.late) {
      d.mate[0] = d.mate[1];
      d.mate[1] = RankDrops::kEmpty;
    } else {
      d.late = head_[rank] != 0 ? take_overflow_min(rank, thread) : RankDrops::kEmpty;
    }
  }

  void clear(std::size_t rank, RankDrops& d, int thread) {
    d = RankDrops{};
    if (head_[rank] != 0) release_chain(rank, thread);
  }

  /// Pools the free blocks of `thread` (call at the end of each share of work, from any thread,
  /// at any time: it takes a lock): a thread that freed more than it took would otherwise hoard
  /// blocks while another draws fresh ones. O(1).
  void give_back(int thread);

 private:
  // 32 bytes: memory at 2^23 ranks is tight, and most chains hold one to three values.
  struct Block {
    std::array<double, 3> values;
    std::uint32_t next;  ///< 0 ends the chain (and the free lists)
    std::uint8_t size;   // no initialisers: a chunk of blocks is touched only where used
  };
  static constexpr std::size_t kChunkBits = 16;

  double take_overflow_min(std::size_t rank, int thread);
  void push_overflow(std::size_t rank, double value, int thread);
  void release_chain(std::size_t rank, int thread);
  Block& block(std::uint32_t index);
  std::uint32_t allocate(int thread);
  void release(std::uint32_t index, int thread);

  std::vector<std::uint32_t> head_;  ///< first overflow block of each rank, 0 when none
  std::vector<std::atomic<Block*>> chunks_;
  std::vector<std::unique_ptr<Block[]>> owned_;
  std::mutex grow_;
  std::atomic<std::uint32_t> fresh_{1};  ///< block 0 is never used
  // A thread's free blocks, on a cache line of its own (two threads update theirs constantly).
  struct alignas(64) FreeList {
    std::uint32_t head = 0;  ///< the first free block, 0 when none
    std::uint32_t tail = 0;  ///< the last one, when head != 0
  };
  std::vector<FreeList> free_;     ///< per thread
  std::uint32_t shared_free_ = 0;  ///< pooled by give_back(), taken under grow_
};

}  // namespace collnoise
