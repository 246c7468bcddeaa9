// The path composition recorder's tables (engine/schedules/paths/path_composition.hpp): a message
// in flight is kept in 32 bytes with a 32-bit key, or, beyond 2^32 operations, in a table of 64-bit
// keys; either way the path is the segment recorder's (critical_path.hpp), to the bit. The
// events are fed by hand: a run of 2^32 operations is out of a test's reach.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "engine/schedules/paths/critical_path.hpp"
#include "engine/schedules/paths/path_composition.hpp"

using namespace collnoise;

namespace {

// Rank 0 sends to rank 1 (send `op`, o = 1 ns, L = 10 ns, 4 ns of network noise, 0.5 ns of CPU
// noise), rank 1 takes the message at 15 ns, then sends back (op + 1), taken at 34 ns by rank 0.
template <class Recorder>
CriticalPath ping_pong(Recorder& r, std::uint64_t op) {
  r.begin(2, 1, 1);
  r.send(SendSeen{0, 0, 0, op, 0, 1, 0, 8, 0.0, 1.0, 1.5, 1.0, 1.0, 11.0, 15.0, true});
  r.message(MessageSeen{1, 0, 0, 0, op, 8, 15.0, 1.0, 16.0, 16.0, true, true});
  r.send(SendSeen{1, 0, 0, op + 1, 1, 0, 0, 8, 16.0, 1.0, 17.0, 17.0, 1.0, 27.0, 33.0, true});
  r.message(MessageSeen{0, 1, 0, 0, op + 1, 8, 33.0, 1.0, 34.0, 34.0, true, true});
  const std::vector<double> finish{34.0, 17.0};
  return r.result(finish);
}

}  // namespace

TEST_CASE("path composition tables: 32-bit and 64-bit keys give the segments' path") {
  for (const std::uint64_t op : {std::uint64_t{6}, (std::uint64_t{1} << 32) - 2,
                                 std::uint64_t{1} << 32, (std::uint64_t{1} << 40) + 3}) {
    CAPTURE(op);
    const StepBucket steps = [](const StepOperation& o) {
      return static_cast<std::uint8_t>(o.rank == 0 ? 1 : 2);
    };
    CriticalPathRecorder segments(steps);
    PathCompositionRecorder sums(steps, 4);
    const CriticalPath a = ping_pong(segments, op);
    const CriticalPath b = ping_pong(sums, op);
    CHECK(a.unmatched == 0);
    CHECK(b.unmatched == 0);
    CHECK(b.completion == 34.0);
    CHECK(b.time == a.time);
    CHECK(b.noise_by_bucket == a.noise_by_bucket);
    // The path: o, L, 4 ns of network noise (rank 0's send, bucket 1), o, then rank 1's send: o,
    // L, 6 ns of network noise (bucket 2), o.
    CHECK(b.time[static_cast<std::size_t>(PathCategory::kOverhead)] == 4.0);
    CHECK(b.time[static_cast<std::size_t>(PathCategory::kWire)] == 20.0);
    CHECK(b.time[static_cast<std::size_t>(PathCategory::kNoise)] == 10.0);
    CHECK(b.noise_by_bucket[1] == 4.0);
    CHECK(b.noise_by_bucket[2] == 6.0);
  }
}

TEST_CASE("path composition tables: messages whose keys differ beyond 32 bits kept apart") {
  // Rank 0 sends message A (send 5) and then B (send 5 + 2^32) to rank 1, which takes A at 15 ns
  // and B, delayed 28 ns by the network, at 40 ns: a table that kept 32 bits of the key would
  // give A's message B's times.
  const std::uint64_t a = 5, b = a + (std::uint64_t{1} << 32);
  const auto run = [&](auto& r) {
    r.begin(2, 1, 1);
    r.send(SendSeen{0, 0, 0, a, 0, 1, 0, 8, 0.0, 1.0, 1.0, 1.0, 1.0, 11.0, 15.0, true});
    r.send(SendSeen{0, 0, 0, b, 1, 1, 1, 8, 1.0, 1.0, 2.0, 2.0, 1.0, 12.0, 40.0, true});
    r.message(MessageSeen{1, 0, 0, 0, a, 8, 15.0, 1.0, 16.0, 16.0, true, true});
    r.message(MessageSeen{1, 0, 0, 0, b, 8, 40.0, 1.0, 41.0, 41.0, true, true});
    const std::vector<double> finish{2.0, 41.0};
    return r.result(finish);
  };
  CriticalPathRecorder segments;
  PathCompositionRecorder sums({}, 1);
  const CriticalPath expected = run(segments);
  const CriticalPath path = run(sums);
  CHECK(path.unmatched == 0);
  CHECK(path.time == expected.time);
  CHECK(path.time[static_cast<std::size_t>(PathCategory::kOverhead)] == 3.0);
  CHECK(path.time[static_cast<std::size_t>(PathCategory::kWire)] == 10.0);
  CHECK(path.time[static_cast<std::size_t>(PathCategory::kNoise)] == 28.0);
}

TEST_CASE("path composition tables: messages beyond a rank's inbox wait in the table") {
  // Ranks 1, 2 and 3 send to rank 0 at 0 ns (o = 1 ns, L = 10 ns; the third message delayed
  // 20 ns by the network): three messages in flight to one rank, one more than its inbox holds.
  // Rank 0 takes them at 11, 12 (its CPU busy until then) and 31 ns: the last one ends the path.
  const auto run = [&](auto& r) {
    r.begin(4, 1, 1);
    for (std::uint32_t k = 1; k <= 3; ++k)
      r.send(SendSeen{k, 0, 0, 10 * k, 0, 0, 0, 8, 0.0, 1.0, 1.0, 1.0, 1.0, 11.0,
                      k == 3 ? 31.0 : 11.0, true});
    r.message(MessageSeen{0, 1, 0, 0, 10, 8, 11.0, 1.0, 12.0, 12.0, true, true});
    r.message(MessageSeen{0, 2, 0, 0, 20, 8, 12.0, 1.0, 13.0, 13.0, true, true});
    r.message(MessageSeen{0, 3, 0, 0, 30, 8, 31.0, 1.0, 32.0, 32.0, true, true});
    const std::vector<double> finish{32.0, 1.0, 1.0, 1.0};
    return r.result(finish);
  };
  CriticalPathRecorder segments;
  PathCompositionRecorder sums({}, 1);
  const CriticalPath expected = run(segments);
  const CriticalPath path = run(sums);
  CHECK(expected.unmatched == 0);
  CHECK(path.unmatched == 0);
  CHECK(path.time == expected.time);
  // Rank 3's send: o, L, 20 ns of network noise, then rank 0's o.
  CHECK(path.time[static_cast<std::size_t>(PathCategory::kOverhead)] == 2.0);
  CHECK(path.time[static_cast<std::size_t>(PathCategory::kWire)] == 10.0);
  CHECK(path.time[static_cast<std::size_t>(PathCategory::kNoise)] == 20.0);
}
