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

// An eager 8-byte message from `origin` (its send `send`) taken by `host` at `start`, with o = 1.
MessageSeen received(std::uint32_t host, std::uint32_t origin, std::uint64_t send, double start) {
  return MessageSeen{.host = host,
                     .origin = origin,
                     .cpu = 0,
                     .nic = 0,
                     .send = send,
                     .bytes = 8,
                     .start = start,
                     .overhead = 1.0,
                     .cpu_end = start + 1.0,
                     .nic_end = start + 1.0,
                     .eager = true,
                     .matched = true};
}

// Rank 0 sends to rank 1 (send `op`, o = 1 ns, L = 10 ns, 4 ns of network noise, 0.5 ns of CPU
// noise), rank 1 takes the message at 15 ns, then sends back (op + 1), taken at 34 ns by rank 0.
template <class Recorder>
CriticalPath ping_pong(Recorder& r, std::uint64_t op) {
  r.begin(2, 1, 1);
  r.send(SendSeen{.host = 0,
                  .cpu = 0,
                  .nic = 0,
                  .op = op,
                  .index = 0,
                  .peer = 1,
                  .tag = 0,
                  .bytes = 8,
                  .start = 0.0,
                  .overhead = 1.0,
                  .cpu_end = 1.5,
                  .nic_end = 1.0,
                  .o = 1.0,
                  .wire_end = 11.0,
                  .arrival = 15.0,
                  .eager = true});
  r.message(received(1, 0, op, 15.0));
  r.send(SendSeen{.host = 1,
                  .cpu = 0,
                  .nic = 0,
                  .op = op + 1,
                  .index = 1,
                  .peer = 0,
                  .tag = 0,
                  .bytes = 8,
                  .start = 16.0,
                  .overhead = 1.0,
                  .cpu_end = 17.0,
                  .nic_end = 17.0,
                  .o = 1.0,
                  .wire_end = 27.0,
                  .arrival = 33.0,
                  .eager = true});
  r.message(received(0, 1, op + 1, 33.0));
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
    r.send(SendSeen{.host = 0,
                    .cpu = 0,
                    .nic = 0,
                    .op = a,
                    .index = 0,
                    .peer = 1,
                    .tag = 0,
                    .bytes = 8,
                    .start = 0.0,
                    .overhead = 1.0,
                    .cpu_end = 1.0,
                    .nic_end = 1.0,
                    .o = 1.0,
                    .wire_end = 11.0,
                    .arrival = 15.0,
                    .eager = true});
    r.send(SendSeen{.host = 0,
                    .cpu = 0,
                    .nic = 0,
                    .op = b,
                    .index = 1,
                    .peer = 1,
                    .tag = 1,
                    .bytes = 8,
                    .start = 1.0,
                    .overhead = 1.0,
                    .cpu_end = 2.0,
                    .nic_end = 2.0,
                    .o = 1.0,
                    .wire_end = 12.0,
                    .arrival = 40.0,
                    .eager = true});
    r.message(received(1, 0, a, 15.0));
    r.message(received(1, 0, b, 40.0));
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
      r.send(SendSeen{.host = k,
                      .cpu = 0,
                      .nic = 0,
                      .op = 10 * k,
                      .index = 0,
                      .peer = 0,
                      .tag = 0,
                      .bytes = 8,
                      .start = 0.0,
                      .overhead = 1.0,
                      .cpu_end = 1.0,
                      .nic_end = 1.0,
                      .o = 1.0,
                      .wire_end = 11.0,
                      .arrival = k == 3 ? 31.0 : 11.0,
                      .eager = true});
    r.message(received(0, 1, 10, 11.0));
    r.message(received(0, 2, 20, 12.0));
    r.message(received(0, 3, 30, 31.0));
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
