#pragma once
// Per-rank lists of arrival times of messages a rank will receive and drop (redundant copies
// that lost the race, ordinary messages of adopted rounds), consumed smallest first. The two
// smallest are kept inline in the rank's state, sorted: in steady state a rank holds the last two
// rounds' losing copies. Under heavy noise, ranks that run ahead collect late ordinary messages
// from partners caught in detours, up to one a round; those go to chains of 64-byte blocks from
// a pool with a free list per thread, so the hot path takes no lock (a rank is processed by one
// thread at a time).
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace collnoise {

struct InlineDrops {
  static constexpr std::size_t kInline = 2;
  std::array<double, kInline> q{};  ///< the smallest arrivals, sorted; past `count` unused
  std::uint32_t head = 0;           ///< first overflow block, 0 when none
  std::uint8_t count = 0;           ///< inline and overflow together

  bool empty() const { return count == 0; }
  /// Earliest arrival. Precondition: not empty.
  double front() const { return q[0]; }
};

class DropPool {
 public:
  /// `threads`: the most OpenMP threads that will use the pool at once. Each call names the
  /// calling thread (its OpenMP thread number), whose free list it uses.
  explicit DropPool(int threads);

  void pop_front(InlineDrops& d, int thread) {
    static_assert(InlineDrops::kInline == 2);
    d.q[0] = d.q[1];  // entries past the count are unused
    if (d.count > InlineDrops::kInline) d.q[1] = take_overflow_min(d, thread);
    --d.count;
  }

  void insert(InlineDrops& d, double arrival, int thread) {
    if (d.count >= InlineDrops::kInline) return insert_spilling(d, arrival, thread);
    std::size_t k = d.count;
    while (k > 0 && arrival < d.q[k - 1]) {
      d.q[k] = d.q[k - 1];
      --k;
    }
    d.q[k] = arrival;
    ++d.count;
  }

  void clear(InlineDrops& d, int thread) {
    if (d.head != 0) release_chain(d, thread);
    d.count = 0;
  }

 private:
  struct Block {
    std::array<double, 7> values;
    std::uint32_t next = 0;  ///< 0 ends the chain
    std::uint8_t size = 0;
  };
  static constexpr std::size_t kChunkBits = 16;

  void insert_spilling(InlineDrops& d, double arrival, int thread);
  double take_overflow_min(InlineDrops& d, int thread);
  void push_overflow(InlineDrops& d, double value, int thread);
  void release_chain(InlineDrops& d, int thread);
  Block& block(std::uint32_t index);
  std::uint32_t allocate(int thread);
  void release(std::uint32_t index, int thread);

  std::vector<std::atomic<Block*>> chunks_;
  std::vector<std::unique_ptr<Block[]>> owned_;
  std::mutex grow_;
  std::atomic<std::uint32_t> fresh_{1};  ///< block 0 is never used
  std::vector<std::vector<std::uint32_t>> free_;  ///< per thread
};

}  // namespace collnoise
