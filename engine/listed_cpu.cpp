#include <algorithm>

#include "engine/cpu_noise.hpp"

namespace collnoise {

ListedCpu::ListedCpu(std::vector<std::vector<Detour>> detours) {
  for (auto& list : detours) {
    std::sort(list.begin(), list.end(),
              [](const Detour& a, const Detour& b) { return a.start < b.start; });
    std::vector<Detour> merged;
    for (const auto& d : list) {
      if (!merged.empty() && d.start <= merged.back().end)
        merged.back().end = std::max(merged.back().end, d.end);
      else
        merged.push_back(d);
    }
    busy_.push_back(std::move(merged));
  }
}

double ListedCpu::op(std::size_t rank, double t, double x) const {
  if (!(x > 0.0) || rank >= busy_.size()) return t + (x > 0.0 ? x : 0.0);
  const auto& list = busy_[rank];
  auto it = std::upper_bound(list.begin(), list.end(), t,
                             [](double value, const Detour& d) { return value < d.end; });
  for (; it != list.end(); ++it) {
    if (t < it->start) {
      const double room = it->start - t;
      if (x <= room) return t + x;
      x -= room;
    }
    t = it->end;
  }
  return t + x;
}

}  // namespace collnoise
