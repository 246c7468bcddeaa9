#pragma once
// The largest `capacity` values seen, mergeable exactly (the top-k of a union is the top-k of the
// parts' top-k). The tail-aware interval and the Hill tail index use them.
#include <algorithm>
#include <functional>
#include <span>
#include <vector>

namespace collnoise {

class TopValues {
 public:
  explicit TopValues(std::size_t capacity = 0) : capacity_(capacity) {}

  void add(double x) {
    if (capacity_ == 0) return;
    if (heap_.size() < capacity_) {
      heap_.push_back(x);
      std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
    } else if (x > heap_.front()) {
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
      heap_.back() = x;
      std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
    }
  }

  void merge(const TopValues& other) {
    for (double x : other.heap_) add(x);
  }

  /// The kept values, largest first.
  std::vector<double> descending() const {
    std::vector<double> values = heap_;
    std::sort(values.begin(), values.end(), std::greater<>());
    return values;
  }

  std::size_t capacity() const { return capacity_; }
  std::size_t size() const { return heap_.size(); }

 private:
  std::size_t capacity_;
  std::vector<double> heap_;  ///< min-heap of the kept values
};

}  // namespace collnoise
