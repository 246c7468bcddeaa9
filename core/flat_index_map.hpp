#pragma once
// A hash map from 64-bit indices to small values, for the engine observers' hot paths (a message
// in flight looked up by its send's index): open addressing with linear probing in one array,
// erased entries shifted back (no tombstones), grown when half full. Against std::unordered_map
// it allocates nothing per entry and finds an entry in about one cache miss.
#include <cstdint>
#include <vector>

namespace collnoise {

template <class Value>
class FlatIndexMap {
 public:
  /// The value of `key`, or nullptr. Valid until the next insert or erase.
  Value* find(std::uint64_t key) {
    if (slots_.empty()) return nullptr;
    for (std::size_t i = home(key);; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return &slots_[i].value;
      if (slots_[i].key == kEmpty) return nullptr;
    }
  }
  /// Fetches the slot where `key` would be found into the cache.
  void prefetch(std::uint64_t key) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[home(key)]);
  }
  /// Sets the value of `key` (precondition: key is not ~0).
  void insert(std::uint64_t key, const Value& value) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    std::size_t i = home(key);
    while (slots_[i].key != kEmpty && slots_[i].key != key) i = (i + 1) & mask_;
    if (slots_[i].key == kEmpty) ++size_;
    slots_[i] = Slot{key, value};
  }
  /// Removes `key` if present.
  void erase(std::uint64_t key) {
    if (slots_.empty()) return;
    std::size_t i = home(key);
    while (slots_[i].key != key) {
      if (slots_[i].key == kEmpty) return;
      i = (i + 1) & mask_;
    }
    // Shift back the entries after it whose home is not between the hole and them.
    for (std::size_t j = (i + 1) & mask_; slots_[j].key != kEmpty; j = (j + 1) & mask_) {
      const std::size_t h = home(slots_[j].key);
      const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (stays) continue;
      slots_[i] = slots_[j];
      i = j;
    }
    slots_[i].key = kEmpty;
    --size_;
  }
  std::size_t size() const { return size_; }
  void clear() {
    slots_.clear();
    size_ = 0;
    mask_ = 0;
  }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  struct Slot {
    std::uint64_t key = kEmpty;
    Value value{};
  };
  std::size_t home(std::uint64_t key) const {
    // Fibonacci hashing: consecutive indices (a rank's sends) spread over the table.
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> shift_) & mask_;
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const std::size_t capacity = old.empty() ? 64 : 2 * old.size();
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(capacity));
    size_ = 0;
    for (const Slot& s : old)
      if (s.key != kEmpty) insert(s.key, s.value);
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0, mask_ = 0;
  unsigned shift_ = 64;
};

}  // namespace collnoise
