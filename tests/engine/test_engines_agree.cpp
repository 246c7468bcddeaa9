// The cycle engines (engine/cycles/: Chen & Suda's butterfly and dissemination barrier over
// repeated cycles) against the general schedule engine (engine/schedules/: LogGOPSim's rules), on
// the same noise draws (docs/models/schedules-and-cycle-engines.md).
//
//  - Without noise and with O = 0, the built-in schedules recursive_doubling_allreduce and
//    dissemination_barrier, repeated M times after a compute W, give every rank the cycle
//    engines' finishing time, bit for bit, with either receive order. With O > 0 they differ.
//  - Under noise they differ, by LogGOPSim's rules: a message leaves o + L after its send starts
//    whatever noise does to the sender's CPU, and its receive overhead is paid on arrival, in any
//    round. The cycle engines charge a message as Chen & Suda do: the message leaves when the
//    send's CPU overhead is done, and the receive's overhead is paid when the rank reaches that
//    round. That is LogGOPSim's engine on a schedule that spells each overhead out as a calc of
//    o + (s-1)O (the engine's own o and O are then 0), which cycle_schedule() writes: on it, with
//    the same draws, the two engines give every rank the same finishing time, bit for bit (times
//    in ns in both), or to 1e-12 relative (the cycle engine in seconds, as runs use it), at any
//    O. Its receives are posted in order (each once its round's send has started, "in_order"),
//    and the NIC must not pace the sends (g + (s-1)G = 0, the per-byte wire folded into L): the
//    cycle engines make a send wait for the NIC before its overhead, which a calc before the send
//    cannot do.
//  - The cycle engines have no binomial algorithm (only the network model's congestion engine
//    has binomial trees, in message-times under link loads): nothing to compare there.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "distributions/exponential.hpp"
#include "distributions/law_spec.hpp"
#include "distributions/poisson_detours.hpp"
#include "engine/cpu_noise.hpp"
#include "engine/cycles/cycle_engine.hpp"
#include "engine/cycles/cycle_reference.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"
#include "engine/schedules/simulate.hpp"

using namespace collnoise;

namespace {

// Chen & Suda's cycles written as a schedule, with every CPU overhead a calc of o ns: per cycle a
// compute calc of W ns (also when W = 0, so that per-stage noise finds it); per round a calc o
// (the send's overhead), the send, the receive (posted once the send has started: in order) and
// a calc o (the receive's overhead), which the next round's send overhead waits for. Run it with
// the engine's o = O = g = G = 0 and L the cycle engines' wire, L + (s-1)G.
struct CycleSchedule {
  Schedule schedule;
  std::vector<std::int64_t> compute_cycle;  ///< per operation: its cycle if a compute, else -1
};

CycleSchedule cycle_schedule(CycleAlgorithm algorithm, std::uint32_t n, std::uint32_t cycles,
                             std::uint64_t work_ns, std::uint64_t o_ns) {
  CycleSetup setup;
  setup.algorithm = algorithm;
  setup.ranks = n;
  const int rounds = rounds_of(setup);
  ScheduleBuilder b;
  CycleSchedule out;
  const auto add = [&](const Operation& op, std::int64_t cycle) {
    out.compute_cycle.push_back(cycle);
    return b.add(op);
  };
  for (std::uint32_t r = 0; r < n; ++r) {
    std::optional<std::uint32_t> last;
    for (std::uint32_t c = 0; c < cycles; ++c) {
      const std::uint32_t compute = add(Operation{OpKind::kCalc, work_ns, 0, 0, 0, 0}, c);
      if (last) b.depend(compute, *last, false);
      last = compute;
      for (int k = 0; k < rounds; ++k) {
        const std::uint32_t d = 1U << k;
        const bool butterfly = algorithm == CycleAlgorithm::kButterfly;
        const std::uint32_t to = butterfly ? r ^ d : (r + d) % n;
        const std::uint32_t from = butterfly ? r ^ d : (r + n - d) % n;
        const auto tag = static_cast<std::uint32_t>(k);
        const std::uint32_t send_overhead = add(Operation{OpKind::kCalc, o_ns, 0, 0, 0, 0}, -1);
        b.depend(send_overhead, *last, false);
        const std::uint32_t send = add(Operation{OpKind::kSend, 8, to, tag, 0, 0}, -1);
        b.depend(send, send_overhead, false);
        const std::uint32_t recv = add(Operation{OpKind::kRecv, 8, from, tag, 0, 0}, -1);
        b.depend(recv, send, true);
        const std::uint32_t recv_overhead = add(Operation{OpKind::kCalc, o_ns, 0, 0, 0, 0}, -1);
        b.depend(recv_overhead, recv, false);
        last = recv_overhead;
      }
    }
    b.end_rank("rank");
  }
  out.schedule = b.finish();
  return out;
}

// The engine's net for cycle_schedule(): the overheads are calcs, the wire is L.
ScheduleNet overheads_as_calcs(double wire_ns) {
  ScheduleNet net;
  net.L = wire_ns;
  return net;
}

// A cycle engine's CPUs as the general engine's noise: compute stages through compute(), every
// other CPU occupation through op(). The draws are the cycle engine's own.
template <class Cpu>
class CycleCpuNoise {
 public:
  CycleCpuNoise(Cpu& cpu, const std::vector<std::int64_t>& compute_cycle)
      : cpu_(&cpu), compute_cycle_(&compute_cycle) {}
  double end(std::uint32_t rank, Busy what, std::uint64_t op, double t, double length, double) {
    const std::int64_t cycle = what == Busy::kCalc ? (*compute_cycle_)[op] : -1;
    if (cycle >= 0) return cpu_->compute(rank, static_cast<std::uint64_t>(cycle), t, length);
    return cpu_->op(rank, t, length);
  }

 private:
  Cpu* cpu_;
  const std::vector<std::int64_t>* compute_cycle_;
};

// Both cycle engines (the fast one on 1 thread) on CPUs from `make`, which must agree to the
// last bit (tests/engine/cycles/test_cycle_engine.cpp); the reference's result.
template <class Make>
CycleResult cycle_engines(const CycleSetup& setup, const Make& make) {
  auto reference_cpu = make();
  const CycleResult reference = simulate_cycles_reference(setup, reference_cpu);
  auto fast_cpu = make();
  const CycleResult fast = simulate_cycles(setup, fast_cpu, 1);
  REQUIRE(fast.cycle_end == reference.cycle_end);
  REQUIRE(fast.last_finish == reference.last_finish);
  return reference;
}

// Every rank's finishing time in the last cycle, equal bit for bit.
void expect_bitwise(const CycleResult& cycles, const ScheduleRun& run) {
  INFO(run.incomplete);
  REQUIRE(run.complete);
  CHECK(run.finish == cycles.last_finish);
  CHECK(*std::max_element(run.finish.begin(), run.finish.end()) == cycles.cycle_end.back());
}

// The same to 1e-12 relative, the cycle engine in seconds, the general engine in ns.
void expect_close(const CycleResult& seconds, const ScheduleRun& run) {
  REQUIRE(run.complete);
  REQUIRE(run.finish.size() == seconds.last_finish.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < run.finish.size(); ++i)
    worst = std::max(
        worst, std::abs(run.finish[i] * 1e-9 - seconds.last_finish[i]) / seconds.last_finish[i]);
  CHECK(worst <= 1e-12);
}

// The cycle engines' setup in ns: L the wire (the per-byte part folded in), o and O (8-byte
// messages: a CPU overhead of o + 7 O), no NIC gap.
CycleSetup setup_ns(CycleAlgorithm algorithm, std::uint32_t n, std::uint32_t cycles, double work,
                    double wire, double o, double per_byte_o = 0.0) {
  CycleSetup s;
  s.algorithm = algorithm;
  s.ranks = n;
  s.cycles = cycles;
  s.work = work;
  s.net = LogGops{wire, o, 0.0, 0.0, per_byte_o, 8};
  return s;
}

struct Case {
  CycleAlgorithm algorithm;
  std::uint32_t n;
};

// Sizes: the butterfly at powers of two only (as the cycle engines take it), the dissemination
// barrier at any N.
const Case kCases[] = {{CycleAlgorithm::kButterfly, 1},      {CycleAlgorithm::kButterfly, 2},
                       {CycleAlgorithm::kButterfly, 8},      {CycleAlgorithm::kButterfly, 64},
                       {CycleAlgorithm::kButterfly, 256},    {CycleAlgorithm::kDissemination, 1},
                       {CycleAlgorithm::kDissemination, 3},  {CycleAlgorithm::kDissemination, 7},
                       {CycleAlgorithm::kDissemination, 12}, {CycleAlgorithm::kDissemination, 100},
                       {CycleAlgorithm::kDissemination, 257}};

const char* name_of(CycleAlgorithm a) {
  return a == CycleAlgorithm::kButterfly ? "recursive_doubling_allreduce" : "dissemination_barrier";
}

// A built-in algorithm repeated `cycles` times after `work_ns` of compute.
Schedule built_in(CycleAlgorithm a, std::uint32_t n, std::uint32_t cycles, std::uint64_t work_ns,
                  ReceiveOrder order) {
  AlgorithmParams p;
  p.ranks = n;
  p.message_bytes = 8;
  p.receives = order;
  Schedule one = find_algorithm(name_of(a))->generate(p);
  return cycles != 1 || work_ns != 0 ? repeat_schedule(one, cycles, work_ns) : one;
}

// The dissemination barrier with every receive posted at the start, as Schedgen's, but each
// round's send waiting for the previous round's send as well as its receive (program order kept).
Schedule chained_preposted_dissemination(std::uint32_t n) {
  ScheduleBuilder b;
  for (std::uint32_t r = 0; r < n; ++r) {
    std::optional<std::uint32_t> previous_send, previous_recv;
    for (std::uint32_t k = 0; (1U << k) < n; ++k) {
      const std::uint32_t d = 1U << k;
      const std::uint32_t send = b.add(Operation{OpKind::kSend, 8, (r + d) % n, k, 0, 0});
      if (previous_send) b.depend(send, *previous_send, false);
      if (previous_recv) b.depend(send, *previous_recv, false);
      previous_send = send;
      previous_recv = b.add(Operation{OpKind::kRecv, 8, (r + n - d) % n, k, 0, 0});
    }
    b.end_rank("rank");
  }
  return b.finish();
}

// Periodic detours at phases chosen by hand (exact preemption), for worked examples.
class PhasedPeriodic {
 public:
  PhasedPeriodic(const DetourPattern& pattern, std::vector<double> phases)
      : pattern_(&pattern), phases_(std::move(phases)) {}
  double end(std::uint32_t rank, Busy, std::uint64_t, double t, double length, double) {
    return pattern_->advance(phases_[rank], t, length);
  }

 private:
  const DetourPattern* pattern_;
  std::vector<double> phases_;
};

}  // namespace

TEST_CASE("engines agree without noise: the built-in schedules give the cycle engines' times") {
  // Chen & Suda's LogGOPS in ns: L = 1000, o = 1, g = 0, G = 1 per byte, O = 0, 8 bytes. A round
  // is 2o + L + 7G = 1009 ns in both: the cycle engines put 7G on the wire, LogGOPSim's rules on
  // the receiver's CPU (o + max(7O, 7G)). Integers throughout, so the bits are equal; with the
  // cycle engine in seconds (as runs use it) to 1e-12.
  ScheduleNet net;
  net.L = 1000;
  net.o = 1;
  net.G = 1;
  for (const Case& c : kCases)
    for (const std::uint32_t cycles : {1U, 3U})
      for (const std::uint64_t work : {std::uint64_t{0}, std::uint64_t{2500}})
        for (const auto order : {ReceiveOrder::kInOrder, ReceiveOrder::kPreposted}) {
          INFO(name_of(c.algorithm)
               << " on " << c.n << " ranks, M = " << cycles << ", W = " << work << " ns, receives "
               << (order == ReceiveOrder::kInOrder ? "in order" : "preposted"));
          CycleSetup ns;
          ns.algorithm = c.algorithm;
          ns.ranks = c.n;
          ns.cycles = cycles;
          ns.work = static_cast<double>(work);
          ns.net = LogGops{1000, 1, 0, 1, 0, 8};
          const CycleResult in_ns = cycle_engines(ns, [] { return QuietCpu{}; });
          const ScheduleRun run =
              run_schedule(built_in(c.algorithm, c.n, cycles, work, order), net);
          expect_bitwise(in_ns, run);
          CycleSetup seconds = ns;
          seconds.work = static_cast<double>(work) * 1e-9;
          seconds.net = LogGops{};  // the defaults are Chen & Suda's values in seconds
          if (c.n > 1 || work > 0)
            expect_close(cycle_engines(seconds, [] { return QuietCpu{}; }), run);
        }
}

TEST_CASE("engines agree without noise only at O = 0") {
  // With O > 0 the cycle engines charge o + (s-1)O on both sides of a message, LogGOPSim's rules
  // o + (s-1)O to the sender and o + max((s-1)O, (s-1)G) to the receiver: a round costs
  // 2o + L + (s-1)(G + 2O) in one, 2o + L + (s-1) max(O, G) in the other. Here (s-1) = 7,
  // O = 0.5 and G = 1 ns per byte: 1016 ns against 1009 ns a round.
  for (const Case& c :
       {Case{CycleAlgorithm::kButterfly, 16}, Case{CycleAlgorithm::kDissemination, 10}}) {
    CycleSetup setup;
    setup.algorithm = c.algorithm;
    setup.ranks = c.n;
    setup.net = LogGops{1000, 1, 0, 1, 0.5, 8};
    const CycleResult cycles = cycle_engines(setup, [] { return QuietCpu{}; });
    ScheduleNet net;
    net.L = 1000;
    net.o = 1;
    net.G = 1;
    net.O = 0.5;
    const ScheduleRun run =
        run_schedule(built_in(c.algorithm, c.n, 1, 0, ReceiveOrder::kInOrder), net);
    CHECK(cycles.cycle_end.back() == 4 * 1016.0);
    CHECK(*std::max_element(run.finish.begin(), run.finish.end()) == 4 * 1009.0);
  }
}

TEST_CASE("engines agree under periodic noise: the same offsets, every rank's time to the bit") {
  // The schedule engine's periodic noise draws each rank's offset from the stream the cycle
  // engines use (replication key, StreamPurpose::kNoiseOffset, rank), so PatternScheduleNoise and
  // PatternCpu on one key place the same detours. Dense detours (3 us every 20 us, o = 50 ns:
  // most operations meet one; also with O = 3 ns per byte, as the overhead calcs are then
  // o + 7 O: this schedule follows the cycle engines at any O) and Chen & Suda's (100 us every
  // 1 ms, o = 1 ns).
  const DetourPattern dense({{0.0, 3000.0}}, 20000.0, "dense");
  const DetourPattern sparse({{0.0, 1.0e5}}, 1.0e6, "sparse");
  std::size_t runs = 0, delayed = 0, quiet_differs = 0;
  for (const auto& [pattern, o, per_byte_o] :
       {std::tuple{&dense, 50.0, 0.0}, std::tuple{&dense, 2.0, 3.0}, std::tuple{&sparse, 1.0, 0.0}})
    for (const Case& c : kCases)
      for (const std::uint32_t cycles : {1U, 4U})
        for (const double work : {0.0, 3000.0})
          for (std::uint64_t key = 1; key <= 3; ++key) {
            INFO(name_of(c.algorithm)
                 << " on " << c.n << " ranks, M = " << cycles << ", W = " << work
                 << " ns, o = " << o << ", O = " << per_byte_o << ", key " << key);
            const double wire = 1007.0;
            const CycleSetup setup = setup_ns(c.algorithm, c.n, cycles, work, wire, o, per_byte_o);
            const CycleSchedule cs =
                cycle_schedule(c.algorithm, c.n, cycles, static_cast<std::uint64_t>(work),
                               static_cast<std::uint64_t>(setup.net.cpu_overhead()));
            const ScheduleNet net = overheads_as_calcs(wire);
            const CycleResult cycle =
                cycle_engines(setup, [&] { return PatternCpu(*pattern, key, c.n); });
            // The schedule engine's own noise policy, on the same replication key.
            PatternScheduleNoise own(*pattern, TimeSemantics::kPreempt, key, c.n, 1);
            expect_bitwise(cycle, simulate_schedule(cs.schedule, net, own));
            // The quiet case (noise on compute stages only) through the adapter.
            PatternCpu inner(*pattern, key, c.n);
            QuietOps<PatternCpu> quiet_ops(inner);
            CycleCpuNoise<QuietOps<PatternCpu>> quiet(quiet_ops, cs.compute_cycle);
            PatternCpu ref_inner(*pattern, key, c.n);
            QuietOps<PatternCpu> ref_quiet(ref_inner);
            const CycleResult quiet_cycles = simulate_cycles_reference(setup, ref_quiet);
            expect_bitwise(quiet_cycles, simulate_schedule(cs.schedule, net, quiet));
            ++runs;
            delayed += cycle.cycle_end.back() > *noiseless_closed_form(setup);
            quiet_differs += quiet_cycles.last_finish != cycle.last_finish;
          }
  // The noise did move the times (N = 1 and the sparse detours leave some runs untouched), and
  // the quiet case is not the conventional one.
  CHECK(delayed > runs / 2);
  CHECK(quiet_differs > runs / 2);
}

TEST_CASE("engines agree under periodic noise with the cycle engine in seconds, to 1e-12") {
  // As runs use it: Chen & Suda's LogGOPS in seconds (the 7 ns per-byte wire folded into L so
  // that the NIC never paces a send), 100 us detours every 1 ms, against the general engine in
  // ns on the same offsets (uniform x span, in either unit).
  const DetourPattern seconds({{0.0, 1.0e-4}}, 1.0e-3, "periodic");
  const DetourPattern ns({{0.0, 1.0e5}}, 1.0e6, "periodic");
  for (const Case& c : kCases)
    for (std::uint64_t key = 7; key <= 9; ++key) {
      INFO(name_of(c.algorithm) << " on " << c.n << " ranks, key " << key);
      CycleSetup setup;
      setup.algorithm = c.algorithm;
      setup.ranks = c.n;
      setup.cycles = 3;
      setup.work = 2.0e-5;
      setup.net = LogGops{1.007e-6, 1.0e-9, 0.0, 0.0, 0.0, 8};
      const CycleResult cycle = cycle_engines(setup, [&] { return PatternCpu(seconds, key, c.n); });
      const CycleSchedule cs = cycle_schedule(c.algorithm, c.n, 3, 20000, 1);
      PatternScheduleNoise noise(ns, TimeSemantics::kPreempt, key, c.n, 1);
      expect_close(cycle, simulate_schedule(cs.schedule, overheads_as_calcs(1007.0), noise));
    }
}

TEST_CASE("engines agree under Poisson and trace noise") {
  // Poisson detours: PoissonScheduleNoise and PoissonCpu read one stream per rank (replication
  // key, StreamPurpose::kPoissonDetours, rank). A trace is a pattern like periodic noise.
  const PoissonDetours poisson(2.0e-5, 4000.0, std::make_shared<ExponentialLaw>());  // per ns
  const DetourPattern trace({{0.0, 500.0}, {1200.0, 4200.0}, {2500.0, 3300.0}, {9000.0, 9150.0}},
                            12000.0, "trace");
  for (const Case& c : kCases)
    for (std::uint64_t key = 11; key <= 13; ++key) {
      INFO(name_of(c.algorithm) << " on " << c.n << " ranks, key " << key);
      const CycleSetup setup = setup_ns(c.algorithm, c.n, 3, 4000.0, 1007.0, 20.0);
      const CycleSchedule cs = cycle_schedule(c.algorithm, c.n, 3, 4000, 20);
      const ScheduleNet net = overheads_as_calcs(1007.0);
      const CycleResult by_poisson =
          cycle_engines(setup, [&] { return PoissonCpu(poisson, key, c.n); });
      PoissonScheduleNoise poisson_noise(poisson, key, c.n, 1);
      expect_bitwise(by_poisson, simulate_schedule(cs.schedule, net, poisson_noise));
      const CycleResult by_trace =
          cycle_engines(setup, [&] { return PatternCpu(trace, key, c.n); });
      PatternScheduleNoise trace_noise(trace, TimeSemantics::kPreempt, key, c.n, 1);
      expect_bitwise(by_trace, simulate_schedule(cs.schedule, net, trace_noise));
    }
}

TEST_CASE("engines agree under per-stage noise, through the cycle engines' own draws") {
  // Per-stage draws cannot be shared through the schedule engine's own policy: it keys a stage
  // by (replication, operation, what) and delays every calc and overhead, the cycle engines by
  // (replication, cycle, rank) and delay compute stages only. The adapter hands the general engine
  // the cycle engines' StageCpu itself. Pareto (a = 1.5, f = 0.2) on W = 4000 ns.
  const LawSpec pareto{"pareto", {{"f", 0.2}, {"a", 1.5}}, "", {}, "noise"};
  const StageNoise stage = make_stage_noise(pareto, 4000.0);  // scale in ns
  for (const Case& c : kCases)
    for (std::uint64_t key = 21; key <= 23; ++key) {
      INFO(name_of(c.algorithm) << " on " << c.n << " ranks, key " << key);
      const CycleSetup setup = setup_ns(c.algorithm, c.n, 4, 4000.0, 1007.0, 1.0);
      const CycleSchedule cs = cycle_schedule(c.algorithm, c.n, 4, 4000, 1);
      const CycleResult cycle = cycle_engines(setup, [&] { return StageCpu(stage, key); });
      StageCpu cpu(stage, key);
      CycleCpuNoise<StageCpu> noise(cpu, cs.compute_cycle);
      expect_bitwise(cycle, simulate_schedule(cs.schedule, overheads_as_calcs(1007.0), noise));
    }
}

TEST_CASE("engines differ under noise on the built-in schedules: a rank that starts in a detour") {
  // Dissemination on 2 ranks, o = 1, L = 1000, G = 0, W = 0; rank 0 is in a detour on
  // [0, 5000) ns. Cycle engine (and cycle_schedule): rank 0's send waits for the detour's end,
  // [5000, 5001]; its message reaches rank 1 at 6001, received [6001, 6002]. Rank 0 receives
  // rank 1's message (arrived 1001) at [5001, 5002].
  // LogGOPSim's rules (the built-in schedule, either semantics): rank 0's send starts at 0, the
  // message arrives at 0 + o + L = 1001 whatever the detour does; only rank 0's CPU is charged
  // (busy to 5001), then it receives at [5001, 5002]. Rank 1 is done at 1002.
  const std::vector<std::vector<Detour>> detours = {{{0.0, 5000.0}}, {}};
  ListedCpu cycle_cpu(detours);
  const CycleSetup setup = setup_ns(CycleAlgorithm::kDissemination, 2, 1, 0.0, 1000.0, 1.0);
  const CycleResult cycle = simulate_cycles_reference(setup, cycle_cpu);
  CHECK(cycle.last_finish == std::vector<double>{5002, 6002});
  const CycleSchedule cs = cycle_schedule(CycleAlgorithm::kDissemination, 2, 1, 0, 1);
  ListedCpu cpu(detours);
  CycleCpuNoise<ListedCpu> listed(cpu, cs.compute_cycle);
  expect_bitwise(cycle, simulate_schedule(cs.schedule, overheads_as_calcs(1000.0), listed));

  const DetourPattern pattern({{0.0, 5000.0}}, 1.0e6, "one detour");
  PhasedPeriodic phased(pattern, {0.0, 5.0e5});
  ScheduleNet net;
  net.L = 1000;
  net.o = 1;
  const ScheduleRun run = simulate_schedule(
      built_in(CycleAlgorithm::kDissemination, 2, 1, 0, ReceiveOrder::kInOrder), net, phased);
  CHECK(run.finish == std::vector<double>{5002, 1002});
}

TEST_CASE("preposted against in order, by hand: the preposted dissemination is no barrier") {
  // Dissemination on 8 ranks (rounds to r + 1, r + 2, r + 4), one cycle of W = 1000 ns, o = 1,
  // L = 1000, G = 0. Periodic detours of 100 us every 1 ms, at phases chosen by hand: rank 0 at
  // 500 ns, rank 5 at 103 us, the others at 500 us (after everything below).
  //  - Rank 0's compute meets its detour: 500 ns done, the rest after 100500, ends at 101000.
  //    Its round-0 message reaches rank 1 at 101000 + 1 + 1000 = 102001.
  //  - Ranks 1-7 compute to 1000 and send round 0; round 1 follows at 2002, round 2 at 3004 for
  //    those that have their data. Rank 1's round-1 message (from rank 7) arrives at 3003.
  //  - In order (and in the cycle engines), rank 1's round-2 send (to 5) waits for its round-1
  //    send, which waits for the round-0 message from rank 0: rank 1 receives it [102001, 102002],
  //    sends round 1 [102002, 102003] and round 2 [102003, 102004]. That message reaches rank 5
  //    at 103004, inside rank 5's detour [103000, 203000): received [203000, 203001]. Completion
  //    203001.
  //  - Preposted (Schedgen's dependencies: a round's send waits for the previous round's receive
  //    only), rank 1 sends round 2 as soon as it has rank 7's round-1 message: [3004, 3005], at
  //    rank 5 at 4005, received [4005, 4006]: rank 5 leaves the barrier at 4006, before rank 0
  //    has entered it (101000), and misses its own detour. The last rank is now rank 7, whose
  //    chain does run through rank 0 (0 -> 1 -> 3 -> 7): rank 3 receives rank 1's round-1
  //    message at 103003 and sends round 2 [103004, 103005], received by rank 7 [104005, 104006].
  //  Preposting itself changes nothing (a message's overhead is paid on arrival in either order):
  //  preposted receives with each send also waiting for the previous send give in-order times.
  const DetourPattern pattern({{0.0, 1.0e5}}, 1.0e6, "periodic");
  const std::vector<double> phases = {500.0, 5e5, 5e5, 5e5, 5e5, 103000.0, 5e5, 5e5};
  ScheduleNet net;
  net.L = 1000;
  net.o = 1;
  const auto completion = [&](const Schedule& s, std::vector<double>* finish = nullptr) {
    PhasedPeriodic noise(pattern, phases);
    const ScheduleRun run = simulate_schedule(s, net, noise);
    REQUIRE(run.complete);
    if (finish) *finish = run.finish;
    return *std::max_element(run.finish.begin(), run.finish.end());
  };
  std::vector<double> in_order_finish, preposted_finish;
  const double in_order =
      completion(built_in(CycleAlgorithm::kDissemination, 8, 1, 1000, ReceiveOrder::kInOrder),
                 &in_order_finish);
  const double preposted =
      completion(built_in(CycleAlgorithm::kDissemination, 8, 1, 1000, ReceiveOrder::kPreposted),
                 &preposted_finish);
  CHECK(in_order == 203001);
  CHECK(in_order_finish[5] == 203001);
  CHECK(preposted == 104006);
  CHECK(preposted_finish[5] == 4006);
  CHECK(preposted_finish[7] == 104006);

  // Preposted receives, but each send also waits for the previous one: the in-order times.
  std::vector<double> chained_finish;
  CHECK(completion(repeat_schedule(chained_preposted_dissemination(8), 1, 1000), &chained_finish) ==
        in_order);
  CHECK(chained_finish == in_order_finish);

  // The cycle engine, on the same detours: in order, and 1 ns later here (rank 1's round-1
  // message, arrived at 3003, is received after its round-1 send, not on arrival: its round-2
  // message reaches rank 5 at 103005, not 103004, received [203000, 203001] all the same).
  std::vector<std::vector<Detour>> detours;
  for (const double phase : phases)
    detours.push_back(
        {{phase - 1e6, phase - 9e5}, {phase, phase + 1e5}, {phase + 1e6, phase + 1.1e6}});
  ListedCpu cycle_cpu(detours);
  const CycleResult cycle = simulate_cycles_reference(
      setup_ns(CycleAlgorithm::kDissemination, 8, 1, 1000.0, 1000.0, 1.0), cycle_cpu);
  CHECK(cycle.cycle_end.back() == 203001);
}

TEST_CASE("preposting itself changes nothing: the dependencies of Schedgen's schedule do") {
  // Under LogGOPSim's rules a message's receive overhead is paid on arrival whether or not its
  // receive is posted, so posting every receive at the start changes no time as long as each
  // round's send still waits for the previous send: every rank's time equals the in-order
  // schedule's, under both semantics, on random offsets. Dropping that wait (Schedgen's
  // dissemination, "preposted") is what makes the difference, and a rank then leaves the barrier
  // having waited for only 1 + R(R+1)/2 ranks (R rounds): 56 of 1024.
  const DetourPattern pattern({{0.0, 1.0e5}}, 1.0e6, "periodic");
  ScheduleNet net;
  net.L = 1000;
  net.o = 1;
  net.G = 1;
  for (const std::uint32_t n : {100U, 1024U})
    for (const std::uint32_t cycles : {1U, 3U})
      for (const auto semantics : {TimeSemantics::kPreempt, TimeSemantics::kLogGOPSim})
        for (std::uint64_t key = 31; key <= 33; ++key) {
          INFO(n << " ranks, M = " << cycles << ", key " << key);
          const auto run = [&](const Schedule& one) {
            PatternScheduleNoise noise(pattern, semantics, key, n, 1);
            const ScheduleRun r = simulate_schedule(
                cycles == 1 ? one : repeat_schedule(one, cycles, 20000), net, noise);
            REQUIRE(r.complete);
            return r.finish;
          };
          CHECK(run(chained_preposted_dissemination(n)) ==
                run(built_in(CycleAlgorithm::kDissemination, n, 1, 0, ReceiveOrder::kInOrder)));
        }
  // How many ranks wait for one late rank: rank 0 computes 1 s before the barrier, the others
  // not at all; the ranks that finish after 1 s are those whose exit depends on rank 0.
  for (const auto& [order, waiting] :
       {std::pair{ReceiveOrder::kInOrder, 1024U}, std::pair{ReceiveOrder::kPreposted, 56U}}) {
    const Schedule one = built_in(CycleAlgorithm::kDissemination, 1024, 1, 0, order);
    ScheduleBuilder b;
    for (std::uint32_t r = 0; r < 1024; ++r) {
      std::optional<std::uint32_t> late;
      if (r == 0) late = b.add(Operation{OpKind::kCalc, 1000000000, 0, 0, 0, 0});
      const std::uint32_t base = b.ops_in_rank();
      const std::uint64_t first = one.first_op(r);
      for (std::uint32_t k = 0; k < one.ops_of(r); ++k) {
        const std::uint32_t op = b.add(one.operation(first + k));
        if (late && one.dependencies(first + k) == 0) b.depend(op, *late, false);
      }
      for (std::uint32_t k = 0; k < one.ops_of(r); ++k)
        one.for_each_dependent(r, first + k, [&](const Schedule::Dependent& d) {
          b.depend(base + d.local, base + k, d.started);
        });
      b.end_rank("rank");
    }
    const ScheduleRun run = run_schedule(b.finish(), net);
    REQUIRE(run.complete);
    CHECK(std::count_if(run.finish.begin(), run.finish.end(), [](double t) { return t >= 1e9; }) ==
          waiting);
  }
}
