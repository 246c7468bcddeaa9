#include "engine/loggops/loggops.hpp"

#include <cmath>

namespace collnoise {

double to_ns(double seconds) {
  const double ns = seconds * 1e9;
  const double whole = std::round(ns);
  return std::abs(ns - whole) < 1e-6 ? whole : ns;
}

ScheduleNet to_engine_units(const LogGops& net, std::uint64_t eager_bytes) {
  ScheduleNet ns;
  ns.L = to_ns(net.L);
  ns.o = to_ns(net.o);
  ns.g = to_ns(net.g);
  ns.G = to_ns(net.G);
  ns.O = to_ns(net.O);
  ns.S = eager_bytes;
  return ns;
}

}  // namespace collnoise
