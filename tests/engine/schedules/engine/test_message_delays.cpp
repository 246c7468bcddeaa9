// Network noise from measured pools (engine/schedules/engine/message_delays.hpp;
// docs/models/schedules.md, "Network noise"): whole samples as the messages' whole one-way time,
// and LogGP with L and G drawn apart, per message or per block, checked on a two-rank ping
// whose receive end is worked by hand (hand_net: L 1000, o 100, G 1 ns per byte, O 0).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "distributions/latency_samples.hpp"
#include "engine/schedules/engine/message_delays.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;
using collnoise::test::hand_net;

namespace {

std::string write_file(const std::string& name, const std::string& text) {
  std::filesystem::create_directories("message_delays");
  const std::string path = "message_delays/" + name;
  std::ofstream(path) << text;
  return path;
}

// Rank 1's finishing time after rank 0 sends it `bytes` bytes under `delays`, replication `key`,
// to a thousandth of a nanosecond (the pools hold seconds: a time in ns is off in its last bits).
double ping(const MessageDelays& delays, std::uint64_t bytes, std::uint64_t key) {
  const Schedule s = read_goal_text("num_ranks 2\nrank 0 {\nl1: send " + std::to_string(bytes) +
                                        "b to 1 tag 0\n}\n" + "rank 1 {\nl1: recv " +
                                        std::to_string(bytes) + "b from 0 tag 0\n}\n",
                                    "ping.goal");
  QuietSchedule quiet;
  WithMessageDelays<QuietSchedule> noise(quiet, delays, key);
  return std::round(simulate_schedule(s, hand_net(), noise).finish[1] * 1000.0) / 1000.0;
}

// A latency file of one 2 us sample and a bandwidth file of 4096-byte messages taking 4096 or
// 8192 ns one way: per-byte times of 1 and 2 ns.
std::shared_ptr<const LatencySamples> loggp_pools() {
  const auto lat = write_file("lat.out", "#size\trtt\n1\t2\n");
  const auto bw = write_file("bw.out", "#size\trtt\n4096\t4.096\n4096\t8.192\n");
  return std::make_shared<const LatencySamples>(
      LatencySamples::from_files({lat, bw}, 1e-9, LatencyColumn::kOneWay));
}

}  // namespace

TEST_CASE("whole samples: a noiseless ping takes exactly the sample, at any size") {
  // At 16 KiB the engine charges o + o + 16383 G = 16583 ns besides the wire: a 30 us sample
  // leaves a wire of 13417 ns and the ping takes 30 us; a 10 us sample is floored (wire 0).
  for (const double sample_ns : {10000.0, 30000.0}) {
    const auto pool = std::make_shared<const LatencySamples>(
        std::map<std::uint64_t, std::vector<double>>{{16384, {sample_ns * 1e-9}}}, 1e-9, "test");
    const MessageDelays delays(pool, true, hand_net());
    CHECK(delays.charged_elsewhere_ns(16384) == 16583.0);
    if (sample_ns > 16583.0) {
      CHECK(ping(delays, 16384, 3) == sample_ns);
      CHECK(delays.floored_share(16384) == 0.0);
    } else {
      // Floored: a wire of 0, the message takes what the engine charges elsewhere.
      CHECK(ping(delays, 16384, 3) == 16583.0);
      CHECK(delays.floored_share(16384) == 1.0);
    }
  }
}

TEST_CASE("loggp: L from the latency pool, G drawn per message from the bandwidth pool") {
  const auto pools = loggp_pools();
  const MessageDelays delays(pools, true, hand_net(), PoolDrawOptions{.loggp = true});
  // 4097 bytes: wire 2000 - 2 o = 1800, then the receive charged max(0, 4096 G_drawn):
  // finish = 100 + 1800 + 100 + 4096 G_drawn = 6096 or 10192 ns.
  std::set<double> seen;
  for (std::uint64_t key = 0; key < 200; ++key) seen.insert(ping(delays, 4097, key));
  CHECK(seen == std::set<double>{6096.0, 10192.0});
  // The draws: u for L, then one for G (index floor(2 u) of {1, 2} ns per byte).
  Pcg32 stream = make_stream(77);
  Pcg32 copy = stream;
  copy.next_uniform();
  const double g = copy.next_uniform() < 0.5 ? 1.0 : 2.0;
  CHECK(delays.delay_ns(4097, stream) ==
        Approx(1800.0 - 1000.0 + 4096.0 * g - 4096.0).margin(1e-6));
  // A 1-byte message has no bytes after the first: its L alone, 100 + 1800 + 100.
  CHECK(ping(delays, 1, 5) == 2000.0);
}

TEST_CASE("loggp: G drawn once per block of the message's bytes after the first") {
  const auto pools = loggp_pools();
  const MessageDelays delays(
      pools, true, hand_net(),
      PoolDrawOptions{.loggp = true, .per_block = true, .block_bytes = 1024});
  // 4096 bytes after the first in 4 blocks of 1024, each 1024 or 2048 ns: 2000 + 4096 to
  // 2000 + 8192 in steps of 1024.
  std::set<double> seen;
  for (std::uint64_t key = 0; key < 400; ++key) seen.insert(ping(delays, 4097, key));
  CHECK(seen == std::set<double>{6096.0, 7120.0, 8144.0, 9168.0, 10192.0});
  // 2500 bytes: blocks of 1024, 1024 and 451 bytes after the first, three G draws.
  Pcg32 stream = make_stream(9);
  Pcg32 copy = stream;
  copy.next_uniform();
  double bytes_time = 0.0;
  for (const double block : {1024.0, 1024.0, 451.0})
    bytes_time += block * (copy.next_uniform() < 0.5 ? 1.0 : 2.0);
  CHECK(delays.delay_ns(2500, stream) ==
        Approx(1800.0 - 1000.0 + bytes_time - 2499.0).margin(1e-6));
  // Excess L instead: the model's L plus the sample less the smallest (0 here).
  const MessageDelays excess(pools, false, hand_net(), PoolDrawOptions{.loggp = true});
  CHECK(ping(excess, 1, 5) == 100.0 + 1000.0 + 100.0);
}

TEST_CASE("whole samples: a message takes off what its own size's parameters charge") {
  // A LogGP file's table per size: messages up to 1024 bytes take hand_net (o 100, G 1), larger
  // ones o 400 and G 2. At 2048 bytes the engine charges 400 + 400 + 2047 * 2 = 4894 ns besides
  // the wire: a 10 us sample leaves a wire of 5106 ns, and the ping takes the sample.
  ScheduleNet net = hand_net();
  ScheduleNet large = hand_net();
  large.o = 400.0;
  large.G = 2.0;
  net.size_limits = {1024, 1u << 30};
  net.by_size = {hand_net(), large};
  const auto pool = std::make_shared<const LatencySamples>(
      std::map<std::uint64_t, std::vector<double>>{{2048, {10000e-9}}}, 1e-9, "test");
  const MessageDelays delays(pool, true, net);
  CHECK(delays.charged_elsewhere_ns(2048) == 4894.0);
  CHECK(delays.charged_elsewhere_ns(512) == 100.0 + 100.0 + 511.0);
  QuietSchedule quiet;
  WithMessageDelays<QuietSchedule> noise(quiet, delays, 3);
  const Schedule s = read_goal_text(
      "num_ranks 2\nrank 0 {\nl1: send 2048b to 1 tag 0\n}\nrank 1 {\nl1: recv 2048b from 0 tag "
      "0\n}\n",
      "ping.goal");
  CHECK(std::round(simulate_schedule(s, net, noise).finish[1] * 1000.0) / 1000.0 == 10000.0);
}

TEST_CASE("wire samples: the sample is the message's L, by size and under loggp") {
  // By size: a 16 KiB pool of 30 us and 500 ns. The wire is the sample itself, so the ping takes
  // o + sample + o + 16383 G: 46583 ns and 17083 ns; a sample below L shortens the message and
  // nothing is floored.
  const auto pool = std::make_shared<const LatencySamples>(
      std::map<std::uint64_t, std::vector<double>>{{16384, {30000e-9}}, {1, {500e-9}}}, 1e-9,
      "test");
  const MessageDelays by_size(pool, LatencyUse::kWire, hand_net());
  CHECK(ping(by_size, 16384, 3) == 100.0 + 30000.0 + 100.0 + 16383.0);
  CHECK(ping(by_size, 1, 3) == 100.0 + 500.0 + 100.0);
  CHECK(by_size.delay_ns(1, 0.5) == Approx(500.0 - 1000.0).margin(1e-6));
  CHECK_FALSE(by_size.whole_samples());
  CHECK(by_size.floored_share(16384) == 0.0);
  // LogGP: L the 2 us sample as it is (not less 2 o), then the drawn G per byte: 4097 bytes end
  // at 100 + 2000 + 100 + 4096 G_drawn = 6296 or 10392 ns.
  const MessageDelays loggp(loggp_pools(), LatencyUse::kWire, hand_net(),
                            PoolDrawOptions{.loggp = true});
  std::set<double> seen;
  for (std::uint64_t key = 0; key < 200; ++key) seen.insert(ping(loggp, 4097, key));
  CHECK(seen == std::set<double>{6296.0, 10392.0});
  CHECK(ping(loggp, 1, 5) == 2200.0);
}

TEST_CASE("loggp: a message never arrives before its send's overhead ends") {
  // The model's G of 3 ns per byte is above both drawn ones (1 and 2): the drawn bytes' time less
  // the model's, -8192 or -4096 ns at 4097 bytes, exceeds the wire of 2000 ns. The delay is
  // floored at -L, so the message arrives at o and the receive takes the model's o + 4096 G:
  // 100 + 100 + 12288 ns, whichever G is drawn.
  ScheduleNet net = hand_net();
  net.G = 3.0;
  const MessageDelays delays(loggp_pools(), LatencyUse::kWire, net, PoolDrawOptions{.loggp = true});
  for (std::uint64_t key = 0; key < 50; ++key) {
    Pcg32 stream = make_stream(key);
    CHECK(delays.delay_ns(4097, stream) == -1000.0);
  }
  // Above the floor the difference rides on the arrival as before: at G = 0.5 the drawn 1 or 2
  // ns per byte give 2000 - 1000 + 4096 (g - 0.5).
  net.G = 0.5;
  const MessageDelays faster_model(loggp_pools(), LatencyUse::kWire, net,
                                   PoolDrawOptions{.loggp = true});
  Pcg32 stream = make_stream(77);
  Pcg32 copy = stream;
  copy.next_uniform();
  const double g = copy.next_uniform() < 0.5 ? 1.0 : 2.0;
  CHECK(faster_model.delay_ns(4097, stream) ==
        Approx(2000.0 - 1000.0 + 4096.0 * (g - 0.5)).margin(1e-6));
}

TEST_CASE("loggp, G charged on the transfer: the drawn bytes occupy both NICs and the receiver") {
  // Rank 0 sends two 4097-byte messages to rank 1, L drawn as the wire (2000 ns), G drawn per
  // message (g1, g2: 1 or 2 ns per byte), charged as the data set authors' fork charges it.
  // Send 1 at 0 (CPU to 100), its NIC busy to 50 + 4096 g1; send 2 there (T2), arriving at
  // T2 + 2100. Message 1 arrives at 2100, received to 2200 + 4096 g1 (NIC to 2150 + 4096 g1);
  // message 2 arrives at 2150 + 4096 g1 and is received from 2200 + 4096 g1 to
  // 2300 + 4096 (g1 + g2). Rank 0 ends at T2 + 100 = 150 + 4096 g1.
  const Schedule s = read_goal_text(
      "num_ranks 2\nrank 0 {\nl1: send 4097b to 1 tag 0\nl2: send 4097b to 1 tag 0\n}\nrank 1 "
      "{\nl1: recv 4097b from 0 tag 0\nl2: recv 4097b from 0 tag 0\n}\n",
      "two.goal");
  PoolDrawOptions draw{.loggp = true};
  draw.transfer_charge = true;
  const MessageDelays delays(loggp_pools(), LatencyUse::kWire, hand_net(), draw);
  REQUIRE(delays.charges_transfer());
  std::set<double> sender, receiver, second;
  for (std::uint64_t key = 0; key < 200; ++key) {
    QuietSchedule quiet;
    WithMessageDelays<QuietSchedule> noise(quiet, delays, key);
    const ScheduleRun run = simulate_schedule(s, hand_net(), noise);
    const double f0 = std::round(run.finish[0] * 1000.0) / 1000.0;
    const double f1 = std::round(run.finish[1] * 1000.0) / 1000.0;
    sender.insert(f0);
    receiver.insert(f1);
    second.insert(f1 - 2300.0 - (f0 - 150.0));  // 4096 g2
  }
  CHECK(sender == std::set<double>{4246.0, 8342.0});
  CHECK(receiver == std::set<double>{10492.0, 14588.0, 18684.0});
  CHECK(second == std::set<double>{4096.0, 8192.0});
  // The latency's noise alone rides on the arrival: the wire less the model's L.
  Pcg32 stream = make_stream(5);
  CHECK(delays.delay_ns(4097, stream) == Approx(1000.0).margin(1e-6));
  // Charged on the arrival (the default) the sender's NIC takes the model's G: rank 0 ends at
  // 50 + 4096 + 100 = 4246 whatever is drawn.
  const MessageDelays arrival(loggp_pools(), LatencyUse::kWire, hand_net(),
                              PoolDrawOptions{.loggp = true});
  CHECK_FALSE(arrival.charges_transfer());
  for (std::uint64_t key = 0; key < 20; ++key) {
    QuietSchedule quiet;
    WithMessageDelays<QuietSchedule> noise(quiet, arrival, key);
    CHECK(std::round(simulate_schedule(s, hand_net(), noise).finish[0] * 1000.0) / 1000.0 ==
          4246.0);
  }
}
