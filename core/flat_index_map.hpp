#pragma once
// A hash map from integer indices to small entries, for the engine observers' hot paths (a message
// in flight looked up by its send's index): open addressing with linear probing in one array,
// erased entries shifted back (no tombstones), grown when half full. The key is the entry's own
// `key` member, so that an entry can hold it in what would be padding (a 32-bit key beside a
// 32-bit value) and a slot is the entry's size. Against std::unordered_map it allocates nothing
// per entry and finds an entry in about one cache miss.
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

namespace collnoise {

/// `Entry`: a struct with an unsigned integer member `key` (its largest value marks an empty
/// slot, so never a key) and the entry's value in its other members.
template <class Entry>
class FlatIndexMap {
 public:
  using Key = decltype(Entry::key);
  static_assert(std::is_unsigned_v<Key>);
  static constexpr Key kEmpty = std::numeric_limits<Key>::max();

  /// The entry of `key`, or nullptr. Valid until the next insert or erase.
  Entry* find(Key key) {
    if (slots_.empty()) return nullptr;
    for (std::size_t i = home(key);; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return &slots_[i];
      if (slots_[i].key == kEmpty) return nullptr;
    }
  }
  const Entry* find(Key key) const { return const_cast<FlatIndexMap*>(this)->find(key); }
  /// Fetches the slot where `key` would be found into the cache, and the slot after it, which an
  /// erasure reads (to shift it back): in the next cache line for half the slots of 32 bytes.
  void prefetch(Key key) const {
    if (slots_.empty()) return;
    const std::size_t i = home(key);
    __builtin_prefetch(&slots_[i]);
    __builtin_prefetch(&slots_[(i + 1) & mask_]);
  }
  /// Sets the entry of `entry.key` (precondition: it is not kEmpty).
  void insert(const Entry& entry) {
    if (2 * (size_ + 1) > slots_.size()) grow(slots_.empty() ? 64 : 2 * slots_.size());
    std::size_t i = home(entry.key);
    while (slots_[i].key != kEmpty && slots_[i].key != entry.key) i = (i + 1) & mask_;
    if (slots_[i].key == kEmpty) ++size_;
    slots_[i] = entry;
  }
  /// Removes `key` if present.
  void erase(Key key) {
    if (slots_.empty()) return;
    std::size_t i = home(key);
    while (slots_[i].key != key) {
      if (slots_[i].key == kEmpty) return;
      i = (i + 1) & mask_;
    }
    erase_slot(i);
  }
  /// Removes the entry `find` returned.
  void erase(Entry* found) { erase_slot(static_cast<std::size_t>(found - slots_.data())); }
  /// Room for `entries` without growing (a table grown while full holds the old one and the new
  /// at once).
  void reserve(std::size_t entries) {
    std::size_t capacity = 64;
    while (capacity < 2 * entries) capacity *= 2;
    if (capacity > slots_.size()) grow(capacity);
  }
  std::size_t size() const { return size_; }
  void clear() {
    slots_.clear();
    size_ = 0;
    mask_ = 0;
  }

 private:
  std::size_t home(Key key) const {
    // Fibonacci hashing: consecutive indices (a rank's sends) spread over the table.
    return static_cast<std::size_t>((std::uint64_t{key} * 0x9E3779B97F4A7C15ULL) >> shift_) & mask_;
  }
  void erase_slot(std::size_t i) {
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
  void grow(std::size_t capacity) {
    std::vector<Entry> old = std::move(slots_);
    Entry empty{};
    empty.key = kEmpty;
    slots_.assign(capacity, empty);
    mask_ = capacity - 1;
    shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(capacity));
    size_ = 0;
    for (const Entry& e : old)
      if (e.key != kEmpty) insert(e);
  }

  std::vector<Entry> slots_;
  std::size_t size_ = 0, mask_ = 0;
  unsigned shift_ = 64;
};

}  // namespace collnoise
