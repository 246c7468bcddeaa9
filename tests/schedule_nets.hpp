#pragma once
// LogGOPS parameter sets of the schedule tests, in the engine's nanoseconds.
#include <cstdint>

#include "engine/schedules/engine/schedule_engine.hpp"

namespace collnoise::test {

inline ScheduleNet net_of(double L, double o, double g, double G, double O, std::uint64_t S) {
  ScheduleNet net;
  net.L = L;
  net.o = o;
  net.g = g;
  net.G = G;
  net.O = O;
  net.S = S;
  return net;
}

/// Chen & Suda's: L = 1 us, o = 1 ns, G = 1 ns per byte.
inline ScheduleNet chen_suda_net() {
  return net_of(1000, 1, 0, 1, 0, 65535);
}

}  // namespace collnoise::test
