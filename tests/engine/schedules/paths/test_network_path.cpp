// The critical path's network category (docs/models/critical-path.md, "The categories"): a
// message's time in a shared network after its arrival, under LogGOPSim's simple model and the
// flow model (docs/models/contention.md), on cases worked by hand (L = 100, o = 10, g = 5 ns,
// senders at 0), the tie rule that leaves a busy receiver's wait off the network, and both
// recorders (critical_path.hpp, path_composition.hpp) giving the same bits with every binding
// matched on noisy recursive doubling under both models.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <numeric>
#include <string>

#include "core/param_reader.hpp"
#include "distributions/exponential.hpp"
#include "engine/network/contention_spec.hpp"
#include "engine/network/topology_keys.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/contention_keys.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/paths/critical_path.hpp"
#include "engine/schedules/paths/path_composition.hpp"
#include "engine/schedules/paths/timeline_recorder.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;
using collnoise::test::net_of;
using collnoise::testing::run_command_line;

namespace {

constexpr std::uint64_t kAllEager = std::uint64_t{1} << 40;

// L = 100, o = 10, g = 5, G on `topology` under `model` (flows: links at 1/G bytes per ns).
ScheduleNet shared_net(const std::string& topology, ContentionModel model, double G = 0,
                       std::uint64_t S = kAllEager) {
  ScheduleNet net = net_of(100, 10, 5, G, 0, S);
  auto spec = std::make_shared<ContentionSpec>();
  spec->topology = parse_topology(topology);
  spec->model = model;
  if (model == ContentionModel::kFlows) spec->bytes_per_ns = 1.0 / G;
  net.contention = std::move(spec);
  return net;
}

double category(const CriticalPath& p, PathCategory c) {
  return p.time[static_cast<std::size_t>(c)];
}

// The sum of the categories is the completion within `ulps` of it.
void check_sums_to_completion(const CriticalPath& p, double ulps = 2) {
  const double sum = std::accumulate(p.time.begin(), p.time.end(), 0.0);
  CHECK(std::abs(sum - p.completion) <=
        ulps * (std::nextafter(p.completion, INFINITY) - p.completion));
}

// Both recorders on one run of `s`: the same bits, every binding matched; the segments' path.
template <class Sched, class Noise>
CriticalPath path_on(const Sched& s, const ScheduleNet& net, Noise& noise,
                     const StepBucket& bucket = {}, std::size_t buckets = 1) {
  CriticalPathRecorder segments(bucket, true);
  PathCompositionRecorder sums(bucket, buckets, ParameterTimesLayout::kNone, true);
  BothObservers<CriticalPathRecorder, PathCompositionRecorder> both{segments, sums};
  ScheduleEngineMemory memory;
  const ScheduleRun run = simulate_schedule(s, net, noise, memory, both);
  INFO(run.incomplete);
  REQUIRE(run.complete);
  CriticalPath path = segments.result(run.finish);
  const CriticalPath carried = sums.result(run.finish);
  CHECK(path.unmatched == 0);
  CHECK(carried.unmatched == 0);
  CHECK(carried.completion == path.completion);
  CHECK(carried.time == path.time);
  CHECK(carried.noise_total == path.noise_total);
  CHECK(carried.noise_by_bucket == path.noise_by_bucket);
  check_sums_to_completion(path);
  return path;
}

CriticalPath path_on(const std::string& goal, const ScheduleNet& net) {
  QuietSchedule quiet;
  return path_on(read_goal_text(goal, "network.goal"), net, quiet);
}

// Two leaf switches of two endpoints under one top switch: rank 0 sends `first` bytes to rank
// 2 and rank 1 `second` bytes to rank 3, both at 0, both over the top switch; `before` is what
// rank 2 does beside its receive.
std::string crossing(std::uint64_t first, std::uint64_t second, const std::string& before = "") {
  const auto b = [](std::uint64_t n) { return std::to_string(n) + "b"; };
  return "num_ranks 4\nrank 0 {\nl1: send " + b(first) + " to 2 tag 0\n}\nrank 1 {\nl1: send " +
         b(second) + " to 3 tag 0\n}\nrank 2 {\n" + before + "l2: recv " + b(first) +
         " from 0 tag 0\n}\nrank 3 {\nl2: recv " + b(second) + " from 1 tag 0\n}\n";
}
const std::string kTree = "xgft(2; 2,2; 1,1)";

}  // namespace

TEST_CASE("network path, simple model: the later of two messages sharing a link") {
  // 10000 bytes 0 -> 2 and 5000 bytes 1 -> 3 share the leaves' up and down links: congestion 2,
  // half a byte per ns each. The smaller has moved its 5000 bytes at 10000 (its polls from its
  // arrival at o + L = 110 approach that from below, each exact in whole ns) and leaves; the
  // larger has moved 5000 of its bytes by then and the rest alone: out at 15000 (polled at
  // 10055 for 4945 more). Rank 2 takes it at 15000 and finishes o later: its path is the
  // sender's o, L, the network's 15000 - 110 = 14890 ns, and the receiver's o.
  const CriticalPath p =
      path_on(crossing(10000, 5000), shared_net(kTree, ContentionModel::kSimple));
  CHECK(p.completion == 15010.0);
  CHECK(p.last_ranks == std::vector<std::uint32_t>{2});
  CHECK(category(p, PathCategory::kOverhead) == 20.0);
  CHECK(category(p, PathCategory::kWire) == 100.0);
  CHECK(category(p, PathCategory::kNetwork) == 14890.0);
  CHECK(category(p, PathCategory::kGap) == 0.0);
  CHECK(category(p, PathCategory::kNoise) == 0.0);
  // The network's segment is the message's (the sender's wire lane, its send's index).
  REQUIRE(p.segments.size() == 4);
  CHECK(p.segments[2].category == PathCategory::kNetwork);
  CHECK(p.segments[2].lane == PathLane::kWire);
  CHECK(p.segments[2].rank == 0);
  CHECK(p.segments[2].start == 110.0);
  CHECK(p.segments[2].end == 15000.0);
}

TEST_CASE("network path: a timeline's message arrows end when the network lets them go") {
  // The case above, its two senders shown (their receivers not): 0 -> 2 leaves the network at
  // 15000 and 1 -> 3 at 10000, not at their LogGP arrival, o + L = 110, where the arrows end
  // without a network.
  const auto arrivals = [](const ScheduleNet& net) {
    const auto s = read_goal_text(crossing(10000, 5000), "network.goal");
    CriticalPathRecorder segments(StepBucket{}, true);
    TimelineRecorder timeline({0, 1});
    BothObservers<CriticalPathRecorder, TimelineRecorder> both{segments, timeline};
    QuietSchedule quiet;
    ScheduleEngineMemory memory;
    const ScheduleRun run = simulate_schedule(s, net, quiet, memory, both);
    REQUIRE(run.complete);
    const Timeline t = timeline.result(segments.result(run.finish), 0.0, INFINITY, "crossing");
    std::vector<std::pair<std::uint32_t, double>> out;
    for (const TimelineMessage& m : t.messages) out.emplace_back(m.to, m.arrived_ns);
    std::sort(out.begin(), out.end());
    return out;
  };
  using Arrivals = std::vector<std::pair<std::uint32_t, double>>;
  CHECK(arrivals(shared_net(kTree, ContentionModel::kSimple)) ==
        Arrivals{{2, 15000.0}, {3, 10000.0}});
  CHECK(arrivals(net_of(100, 10, 5, 0, 0, kAllEager)) == Arrivals{{2, 110.0}, {3, 110.0}});
}

TEST_CASE("network path: a receiver busy when the network lets the message go is not the network") {
  const ScheduleNet simple = shared_net(kTree, ContentionModel::kSimple);
  // Rank 2 computes 0-20000: the message left the network at 15000 and is taken when the CPU
  // frees (polled again then: it left at the earlier poll). The path is the computation and
  // the receive's o; no network time.
  const CriticalPath busy = path_on(crossing(10000, 5000, "l1: calc 20000\n"), simple);
  CHECK(busy.completion == 20010.0);
  CHECK(category(busy, PathCategory::kCalc) == 20000.0);
  CHECK(category(busy, PathCategory::kOverhead) == 10.0);
  CHECK(category(busy, PathCategory::kNetwork) == 0.0);
  CHECK(category(busy, PathCategory::kWire) == 0.0);
  // Computing 0-15000, it frees the instant the network lets the message go: the tie goes to
  // the CPU, so the path is again the computation, not the network.
  const CriticalPath tie = path_on(crossing(10000, 5000, "l1: calc 15000\n"), simple);
  CHECK(tie.completion == 15010.0);
  CHECK(category(tie, PathCategory::kCalc) == 15000.0);
  CHECK(category(tie, PathCategory::kNetwork) == 0.0);
  // Computing 0-14000, free before the network lets it go: the network binds again.
  const CriticalPath before = path_on(crossing(10000, 5000, "l1: calc 14000\n"), simple);
  CHECK(before.completion == 15010.0);
  CHECK(category(before, PathCategory::kCalc) == 0.0);
  CHECK(category(before, PathCategory::kNetwork) == 14890.0);
  // Under the flow model too: two 10001-byte flows at half of 1 byte per ns end at 110 + 20000;
  // a receiver computing until 30000 binds.
  const ScheduleNet flows = shared_net(kTree, ContentionModel::kFlows, 1.0);
  const CriticalPath late = path_on(crossing(10001, 10001, "l1: calc 30000\n"), flows);
  CHECK(late.completion == 30010.0);
  CHECK(category(late, PathCategory::kNetwork) == 0.0);
  const CriticalPath at_end = path_on(crossing(10001, 10001, "l1: calc 20110\n"), flows);
  CHECK(at_end.completion == 20120.0);
  CHECK(category(at_end, PathCategory::kCalc) == 20110.0);
  CHECK(category(at_end, PathCategory::kNetwork) == 0.0);
}

TEST_CASE("network path, flow model: two 1 MiB flows on one link") {
  // G = 1 ns per byte, links at 1 byte per ns. Both messages arrive at o + L = 110 and their
  // other 2^20 - 1 bytes share the top switch's links at half a byte per ns: out at 110 +
  // 2 (2^20 - 1) = 2097260. The receiver pays o (no O to overlap); its NIC g, off the path.
  // The network category is the transfer less what the arrival counted (o + L):
  // 2097260 - 110 = 2097150, twice the (s-1)G the NIC would have charged alone.
  const std::uint64_t mib = std::uint64_t{1} << 20;
  const CriticalPath p =
      path_on(crossing(mib, mib), shared_net(kTree, ContentionModel::kFlows, 1.0));
  CHECK(p.completion == 2097270.0);
  CHECK(category(p, PathCategory::kOverhead) == 20.0);
  CHECK(category(p, PathCategory::kWire) == 100.0);
  CHECK(category(p, PathCategory::kNetwork) == 2.0 * (mib - 1));
  CHECK(category(p, PathCategory::kGap) == 0.0);
  // Alone (the other message between ranks of one leaf), the network category is its
  // (s-1)G, which it holds instead of the receiver's overhead.
  const std::string apart =
      "num_ranks 4\nrank 0 {\nl1: send 1048576b to 2 tag 0\n}\nrank 1 {\n}\nrank 2 {\nl2: recv "
      "1048576b from 0 tag 0\n}\nrank 3 {\n}\n";
  const CriticalPath alone = path_on(apart, shared_net(kTree, ContentionModel::kFlows, 1.0));
  CHECK(alone.completion == 110.0 + (mib - 1) + 10);
  CHECK(category(alone, PathCategory::kNetwork) == mib - 1.0);
  // Rendezvous (S = 65535): the sender waits for its receive, which takes the message when the
  // flow ends; both recorders keep the message's path through the network for the sender.
  const CriticalPath rendezvous =
      path_on(crossing(mib, mib), shared_net(kTree, ContentionModel::kFlows, 1.0, 65535));
  CHECK(category(rendezvous, PathCategory::kNetwork) == 2.0 * (mib - 1));
}

TEST_CASE("network path, flow model: a dot file's link latencies are wire") {
  // Two switches joined by one cable of 0.25 byte per ns and 500 ns: 10001 bytes 0 -> 2 and
  // 1 -> 3, first bytes at 110 + 500, the other 10000 each at 0.125 byte per ns: out at 80610.
  // The path: o, L and the cable's 500 as wire, 80000 of network, the receiver's o.
  std::filesystem::create_directories("network-path");
  testing::write_text("network-path/two.dot", R"dot(digraph two {
  edge [comment="*"];
  H0; H1; H2; H3; S0; S1;
  H0 -> S0; H1 -> S0; H2 -> S1; H3 -> S1;
  S0 -> H0 [comment="H0"]; S0 -> H1 [comment="H1"];
  S0 -> S1 [comment="H2, H3", bandwidth=0.25, latency=500];
  S1 -> H2 [comment="H2"]; S1 -> H3 [comment="H3"]; S1 -> S0 [comment="H0 H1"];
}
)dot");
  ParamReader reader(ParamMap{{"network.topology_file", std::string("network-path/two.dot")},
                              {"network.contention", std::string("flows")}});
  ScheduleNet net = net_of(100, 10, 5, 1, 0, 65535);
  read_contention(reader, net);
  const CriticalPath p = path_on(crossing(10001, 10001), net);
  CHECK(p.completion == 80620.0);
  CHECK(category(p, PathCategory::kWire) == 600.0);
  CHECK(category(p, PathCategory::kNetwork) == 80000.0);
  CHECK(category(p, PathCategory::kOverhead) == 20.0);
  // One byte: its first is its last, out at the end of the hops; no network time.
  const std::string one_byte =
      "num_ranks 4\nrank 0 {\nl1: send 1b to 2 tag 0\n}\nrank 1 {\n}\nrank 2 {\nl1: recv 1b "
      "from 0 tag 0\n}\nrank 3 {\n}\n";
  const CriticalPath one = path_on(one_byte, net);
  CHECK(one.completion == 620.0);
  CHECK(category(one, PathCategory::kWire) == 600.0);
  CHECK(category(one, PathCategory::kNetwork) == 0.0);
}

TEST_CASE("network path: the recorders agree on noisy recursive doubling under both models") {
  // 64 ranks on a fat tree whose leaves have 8 endpoints and 2 up-links (messages of the
  // farther rounds share them), periodic detours at each rank's own offset, exponential
  // message delays on top; eager and rendezvous sizes. Both recorders: the same bits, every
  // binding matched, and the network on the path.
  const DetourPattern periodic({{0.0, 700.0}}, 3000.0, "periodic");
  const MessageDelays delays(std::make_shared<ExponentialLaw>(), 300.0);
  const auto round_bucket = [](const StepOperation& op) {
    return op.calc ? kSameStep : static_cast<std::uint8_t>(std::min<std::uint32_t>(op.tag, 7));
  };
  for (const ContentionModel model : {ContentionModel::kSimple, ContentionModel::kFlows})
    for (const std::uint64_t bytes : {std::uint64_t{4096}, std::uint64_t{100000}}) {
      INFO((model == ContentionModel::kSimple ? "simple, " : "flows, ") << bytes << " bytes");
      AlgorithmParams params;
      params.ranks = 64;
      params.message_bytes = bytes;
      const Schedule s = find_algorithm("recursive_doubling_allreduce")->generate(params);
      const ScheduleNet net = shared_net("xgft(2; 8,8; 1,2)", model, 0.25, 65535);
      PatternScheduleNoise cpu(periodic, TimeSemantics::kPreempt, 11, 64, 1);
      const CriticalPath quiet_cpu = path_on(s, net, cpu, round_bucket, 8);
      CHECK(category(quiet_cpu, PathCategory::kNetwork) > 0.0);
      CHECK(category(quiet_cpu, PathCategory::kNoise) > 0.0);
      PatternScheduleNoise cpu_again(periodic, TimeSemantics::kPreempt, 11, 64, 1);
      WithMessageDelays<PatternScheduleNoise> noisy(cpu_again, delays, 5);
      const CriticalPath both = path_on(s, net, noisy, round_bucket, 8);
      CHECK(category(both, PathCategory::kNetwork) > 0.0);
      QuietSchedule quiet;
      path_on(s, net, quiet, round_bucket, 8);
    }
}

TEST_CASE("network path: a run file's attribution on a shared network, on 1 and 2 threads") {
  // Recursive doubling of 64 ranks under periodic detours on a fat tree, critical paths asked
  // for, under both models: the same summary on 1 and 2 threads, with the network category.
  using testing::write_text;
  for (const std::string model : {"simple", "flows"}) {
    INFO(model);
    write_text("network-path-" + model + ".toml", R"toml(name = "np"
seed = 4
samples = 8
[output]
critical_path = true
[collective]
kind = "schedule"
algorithm = "recursive_doubling_allreduce"
N = 64
message_bytes = 100000
[loggops]
L = 1.0e-7
o = 1.0e-8
g = 5.0e-9
G = 2.5e-10
[network]
topology = "xgft(2; 8,8; 1,2)"
contention = ")toml" + model + R"toml("
[noise]
law = "periodic"
P = 1.0e-5
D = 1.0e-6
)toml");
    const std::string file = "network-path-" + model;
    std::filesystem::remove(file + "1.h5");
    std::filesystem::remove(file + "2.h5");
    const auto one =
        run_command_line("run " + file + ".toml --out " + file + "1.h5 --threads 1 --quiet");
    INFO(one.output);
    REQUIRE(one.code == 0);
    REQUIRE(
        run_command_line("run " + file + ".toml --out " + file + "2.h5 --threads 2 --quiet").code ==
        0);
    const auto summary = run_command_line("summary " + file + "1.h5 --json").output;
    CHECK(summary == run_command_line("summary " + file + "2.h5 --json").output);
    CHECK_THAT(summary, Catch::Matchers::Contains("\"path_network_mean\"") &&
                            Catch::Matchers::Contains("\"path_network_noiseless\""));
  }
}
