#pragma once
// Every built-in algorithm at a few small sizes, both protocols' message sizes and both receive
// orders: what the critical-path tests run each of their checks on.
#include <catch2/catch.hpp>

#include <cstdint>

#include "core/errors.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"

namespace collnoise {

/// Calls `check(schedule, ranks)` for every algorithm on 2, 7 and 16 ranks, 8 and 100000 bytes,
/// in order and preposted (k = 3), skipping the sizes an algorithm does not take.
template <class Check>
void for_each_small_schedule(Check check) {
  for (const AlgorithmKind& algorithm : algorithm_kinds()) {
    for (const std::uint32_t ranks : {2U, 7U, 16U}) {
      for (const std::uint64_t bytes : {std::uint64_t{8}, std::uint64_t{100000}}) {
        for (const ReceiveOrder order : {ReceiveOrder::kInOrder, ReceiveOrder::kPreposted}) {
          AlgorithmParams params;
          params.ranks = ranks;
          params.message_bytes = bytes;
          params.k = 3;
          params.receives = order;
          INFO(algorithm.name << " on " << ranks << " ranks, " << bytes << " bytes");
          Schedule s;
          try {
            s = algorithm.generate(params);
          } catch (const InputError&) {
            continue;  // not at this size
          }
          check(s, ranks);
        }
      }
    }
  }
}

}  // namespace collnoise
