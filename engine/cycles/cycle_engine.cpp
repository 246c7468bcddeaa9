#include "engine/cycles/cycle_engine.hpp"

#include <omp.h>
#include <algorithm>
#include <limits>
#include <memory>
#include <vector>

#include "core/stop_request.hpp"
#include "engine/cycles/drop_pool.hpp"

namespace collnoise {
namespace {

using Index = std::int64_t;  // OpenMP loop counters

// Rank i of pair p in round r: p with a zero bit inserted at position r.
std::uint64_t pair_low(std::uint64_t p, int r) {
  const std::uint64_t low = (std::uint64_t{1} << r) - 1;
  return ((p & ~low) << 1) | (p & low);
}

// The quad of round r >= 1: q with zero bits inserted at positions 0 and r.
std::uint64_t quad_base(std::uint64_t q, int r) {
  return pair_low(q, r - 1) << 1;
}

// A redundant-butterfly rank: everything a round touches, in one 48-byte record, so a quad's
// four ranks cost two short runs of cache lines instead of a dozen streams.
struct RedundantRank {
  double t = 0.0;    // CPU free time
  double nic = 0.0;  // NIC free time
  double out = 0.0;  // arrival of the rank's next ordinary message at its partner (then: finish)
  RankDrops drops;
};
static_assert(sizeof(RedundantRank) == 48);

template <class Cpu>
class CycleEngine {
 public:
  CycleEngine(const CycleSetup& setup, Cpu& cpu, int threads, const CycleRecording& recording,
              const CycleTuning& tuning)
      : setup_(setup),
        tuning_(tuning),
        costs_(setup.net),
        cpu_(cpu),
        threads_(std::max(threads, 1)),
        rounds_(rounds_of(setup)),
        n_(setup.ranks),
        recording_(recording) {}

  CycleResult run() {
    if (setup_.algorithm == CycleAlgorithm::kRedundantButterfly && rounds_ > 0)
      return run_redundant();
    t_.assign(n_, 0.0);
    nic_.assign(n_, 0.0);
    if (setup_.algorithm == CycleAlgorithm::kDissemination) out_.assign(n_, 0.0);
    CycleResult result;
    for (std::uint64_t c = 0; c < setup_.cycles; ++c) {
      throw_if_stop_requested();
      if (setup_.algorithm == CycleAlgorithm::kDissemination) {
        compute_sweep(c, [&](std::size_t i) -> double& { return t_[i]; });
        dissemination_rounds();
      } else {
        butterfly_cycle(c);
      }
      // Nothing is owed after the last receive: t_ holds the finishing times.
      result.cycle_end.push_back(latest([&](std::size_t i) { return t_[i]; }));
    }
    record(
        result, [&](std::size_t i) { return t_[i]; }, [&] { return std::move(t_); });
    return result;
  }

 private:
  template <class Time>
  void compute_sweep(std::uint64_t cycle, Time&& time) {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (Index k = 0; k < static_cast<Index>(n_); ++k) {
      const auto i = static_cast<std::size_t>(k);
      double& t = time(i);
      t = cpu_.compute(i, cycle, t, setup_.work);
    }
  }

  template <class Finish>
  double latest(Finish&& finish) const {
    double m = -std::numeric_limits<double>::infinity();
#pragma omp parallel for num_threads(threads_) reduction(max : m) schedule(static)
    for (Index k = 0; k < static_cast<Index>(n_); ++k)
      m = std::max(m, finish(static_cast<std::size_t>(k)));
    return m;
  }

  // The last cycle's finishing times: counted into the histogram (per thread, then merged:
  // integer counts, so the order does not matter) and kept whole when asked.
  template <class Finish, class Take>
  void record(CycleResult& result, Finish&& finish, Take&& take) {
    if (Histogram* h = recording_.last_finish_histogram) {
#pragma omp parallel num_threads(threads_)
      {
        Histogram local = *h;
        local.clear();
#pragma omp for schedule(static)
        for (Index k = 0; k < static_cast<Index>(n_); ++k)
          local.add(finish(static_cast<std::size_t>(k)));
#pragma omp critical(collnoise_finish_histogram)
        h->merge(local);
      }
    }
    if (recording_.keep_last_finish) result.last_finish = take();
  }

  // A send on rank i's CPU starting no earlier than t (and no earlier than its NIC allows);
  // returns the end of its overhead.
  [[gnu::always_inline]] double send(std::size_t i, double t, double& nic) {
    return cpu_.op(i, send_start(costs_, t, nic), costs_.overhead);
  }
  [[gnu::always_inline]] double receive(std::size_t i, double t, double arrival) {
    return cpu_.op(i, std::max(t, arrival), costs_.overhead);
  }

  void butterfly_pair(std::size_t i, std::size_t j) {
    const double ei = send(i, t_[i], nic_[i]);
    const double ej = send(j, t_[j], nic_[j]);
    t_[i] = receive(i, ei, arrival_time(costs_, ej));
    t_[j] = receive(j, ej, arrival_time(costs_, ei));
  }

  // Rounds below the block size stay inside aligned blocks of ranks: each block does its compute
  // and those rounds while it sits in cache. Each rank's operations keep their order.
  int blocked_rounds() const {
    return std::min(rounds_, tuning_.block_bits);
  }

  void butterfly_cycle(std::uint64_t cycle) {
    const int low = blocked_rounds();
    const std::size_t block = std::size_t{1} << low;
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (Index b = 0; b < static_cast<Index>(n_ / block); ++b) {
      if (stop_requested()) continue;  // the cycle is abandoned below
      const std::size_t base = static_cast<std::size_t>(b) * block;
      for (std::size_t i = base; i < base + block; ++i)
        t_[i] = cpu_.compute(i, cycle, t_[i], setup_.work);
      for (int r = 0; r < low; ++r)
        for (std::size_t p = 0; p < block / 2; ++p) {
          const std::size_t i = base + pair_low(p, r);
          butterfly_pair(i, i | (std::size_t{1} << r));
        }
    }
    throw_if_stop_requested();
    for (int r0 = low; r0 < rounds_; r0 += tuning_.pass_bits) {
      butterfly_pass(r0, std::min(rounds_, r0 + tuning_.pass_bits));
      throw_if_stop_requested();
    }
  }

  // Rounds [r0, r1) in one sweep over memory instead of one each: in them, ranks that differ
  // only in bits r0 .. r1-1 form independent groups. A task takes lane_ranks consecutive ranks
  // (whole cache lines) times all 2^(r1-r0) values of those bits, a few dozen KiB that stay in
  // cache while it runs the pass's rounds. Each rank's operations keep their order.
  void butterfly_pass(int r0, int r1) {
    const std::size_t lanes = std::min<std::size_t>(tuning_.lane_ranks, std::size_t{1} << r0);
    const std::size_t lane_groups = (std::size_t{1} << r0) / lanes;
    const std::size_t tasks = (n_ >> r1) * lane_groups;
    const std::size_t half = std::size_t{1} << (r1 - r0 - 1);
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (Index task = 0; task < static_cast<Index>(tasks); ++task) {
      if (stop_requested()) continue;  // the caller abandons the cycle
      const auto k = static_cast<std::size_t>(task);
      const std::size_t base = ((k / lane_groups) << r1) | ((k % lane_groups) * lanes);
      for (int r = r0; r < r1; ++r)
        for (std::size_t h = 0; h < half; ++h) {
          const std::size_t i = base | (pair_low(h, r - r0) << r0);
          for (std::size_t lane = 0; lane < lanes; ++lane)
            butterfly_pair(i + lane, (i + lane) | (std::size_t{1} << r));
        }
    }
  }

  void dissemination_rounds() {
    for (int r = 0; r < rounds_; ++r) {
      throw_if_stop_requested();
      const std::size_t shift = std::size_t{1} << r;
#pragma omp parallel for num_threads(threads_) schedule(static)
      for (Index k = 0; k < static_cast<Index>(n_); ++k) {
        const auto i = static_cast<std::size_t>(k);
        t_[i] = send(i, t_[i], nic_[i]);
        const std::size_t dest = i + shift < n_ ? i + shift : i + shift - n_;
        out_[dest] = arrival_time(costs_, t_[i]);  // arrival at the destination
      }
#pragma omp parallel for num_threads(threads_) schedule(static)
      for (Index k = 0; k < static_cast<Index>(n_); ++k) {
        const auto i = static_cast<std::size_t>(k);
        t_[i] = receive(i, t_[i], out_[i]);
      }
    }
  }

  // --- redundant butterfly --------------------------------------------------------------------

  // Receives, in arrival order, the queued drops that arrived by `usable` (ties: the drop, of an
  // earlier round, first), then the usable message itself; returns the round's completion time.
  [[gnu::always_inline]] double complete_round(std::size_t i, RedundantRank& s, double usable,
                                               int thread) {
    double t = s.t;
    while (s.drops.front() <= usable) {  // +infinity when empty
      t = receive(i, t, s.drops.front());
      pool_->pop_front(i, s.drops, thread);
    }
    return receive(i, t, usable);
  }

  // The sends a completion at time f issues: the next round's ordinary message (its arrival goes
  // to out), then the redundant copy (whose arrival at the mate is returned).
  [[gnu::always_inline]] double send_after_completion(std::size_t i, RedundantRank& s, double f,
                                                      bool next, bool redundant) {
    double t = f;
    double redundant_arrival = 0.0;
    if (next) {
      t = send(i, t, s.nic);
      s.out = arrival_time(costs_, t);
    }
    if (redundant) {
      t = send(i, t, s.nic);
      redundant_arrival = arrival_time(costs_, t);
    }
    s.t = t;
    return redundant_arrival;
  }

  // After the last round: owed receives of messages that arrived by the finish time f are paid,
  // later ones are discarded. out records f.
  void finish(std::size_t i, RedundantRank& s, double f, int thread) {
    double t = s.t;
    while (s.drops.front() <= f) {
      t = receive(i, t, s.drops.front());
      pool_->pop_front(i, s.drops, thread);
    }
    pool_->clear(i, s.drops, thread);
    s.t = t;
    s.out = f;
  }

  // Round r >= 1 of mates (a, b) whose ordinary round-r messages arrive at in_a and in_b.
  // Returns 1 when one of them adopts the other's result.
  [[gnu::always_inline]] int redundant_pair(int r, std::size_t a, std::size_t b, double in_a,
                                            double in_b, int thread) {
    const bool next = r + 1 < rounds_;
    // The earlier arrival completes by exchange for sure: the mate's redundant copy leaves only
    // after the mate's own (later) message has been received.
    const bool a_first = in_a <= in_b;
    const std::size_t first = a_first ? a : b;
    const std::size_t second = a_first ? b : a;
    const double in_first = a_first ? in_a : in_b;
    const double in_second = a_first ? in_b : in_a;
    RedundantRank& s1 = state_[first];
    RedundantRank& s2 = state_[second];
    const double f_first = complete_round(first, s1, in_first, thread);
    const double red_first = send_after_completion(first, s1, f_first, next, true);
    const bool adopts = red_first < in_second;
    double f_second = 0.0;
    if (adopts) {  // the ordinary message is dropped later
      f_second = complete_round(second, s2, red_first, thread);
      send_after_completion(second, s2, f_second, next, false);
      pool_->insert_late(second, s2.drops, in_second, thread);
    } else {
      f_second = complete_round(second, s2, in_second, thread);
      const double red_second = send_after_completion(second, s2, f_second, next, true);
      pool_->insert_mate_copy(first, s1.drops, red_second, thread);
      pool_->insert_mate_copy(second, s2.drops, red_first, thread);
    }
    if (!next) {
      finish(first, s1, f_first, thread);
      finish(second, s2, f_second, thread);
    }
    return adopts ? 1 : 0;
  }

  CycleResult run_redundant() {
    state_.assign(n_, RedundantRank{});
    pool_ = std::make_unique<DropPool>(n_, threads_);
    CycleResult result;
    for (std::uint64_t c = 0; c < setup_.cycles; ++c) {
      result.adoptions += redundant_cycle(c);
      throw_if_stop_requested();
      result.cycle_end.push_back(latest([&](std::size_t i) { return state_[i].out; }));
    }
    record(
        result, [&](std::size_t i) { return state_[i].out; },
        [&] {
          std::vector<double> finish(n_);
          for (std::size_t i = 0; i < n_; ++i) finish[i] = state_[i].out;
          return finish;
        });
    return result;
  }

  // Round 0: mates exchange with each other; no redundant copies yet. The drop lists are empty
  // at every cycle start: the last round settles them all.
  void redundant_round0(std::size_t a, int thread) {
    const bool next = rounds_ > 1;
    const std::size_t b = a + 1;
    RedundantRank& sa = state_[a];
    RedundantRank& sb = state_[b];
    const double ea = send(a, sa.t, sa.nic);
    const double eb = send(b, sb.t, sb.nic);
    const double fa = receive(a, ea, arrival_time(costs_, eb));
    const double fb = receive(b, eb, arrival_time(costs_, ea));
    send_after_completion(a, sa, fa, next, false);
    send_after_completion(b, sb, fb, next, false);
    if (!next) {
      finish(a, sa, fa, thread);
      finish(b, sb, fb, thread);
    }
  }

  std::uint64_t redundant_quad(int r, std::size_t a, int thread) {
    const std::size_t c = a | (std::size_t{1} << r);
    // Round-r arrivals, read before this quad overwrites them with round r+1's.
    const double in_a = state_[c].out, in_b = state_[c + 1].out;
    const double in_c = state_[a].out, in_d = state_[a + 1].out;
    return static_cast<std::uint64_t>(redundant_pair(r, a, a + 1, in_a, in_b, thread) +
                                      redundant_pair(r, c, c + 1, in_c, in_d, thread));
  }

  std::uint64_t redundant_cycle(std::uint64_t cycle) {
    std::uint64_t adoptions = 0;
    const int low = blocked_rounds();
    const std::size_t block = std::size_t{1} << low;
#pragma omp parallel num_threads(threads_) reduction(+ : adoptions)
    {
      const int thread = omp_get_thread_num();
      bool abandoned = false;
#pragma omp for schedule(static)
      for (Index b = 0; b < static_cast<Index>(n_ / block); ++b) {
        if (stop_requested()) continue;  // the caller abandons the cycle
        const std::size_t base = static_cast<std::size_t>(b) * block;
        for (std::size_t a = base; a < base + block; a += 2) {  // compute, then round 0
          state_[a].t = cpu_.compute(a, cycle, state_[a].t, setup_.work);
          state_[a + 1].t = cpu_.compute(a + 1, cycle, state_[a + 1].t, setup_.work);
          redundant_round0(a, thread);
        }
        for (int r = 1; r < low; ++r)
          for (std::size_t q = 0; q < block / 4; ++q)
            adoptions += redundant_quad(r, base + quad_base(q, r), thread);
      }
      for (int r = low; r < rounds_; ++r) {
#pragma omp single
        pool_->rebalance();
#pragma omp for schedule(static)
        for (Index q = 0; q < static_cast<Index>(n_ / 4); ++q) {
          if ((q & 0xfff) == 0) abandoned = abandoned || stop_requested();
          if (abandoned) continue;  // the caller abandons the cycle
          adoptions += redundant_quad(r, quad_base(static_cast<std::uint64_t>(q), r), thread);
        }
      }
    }
    throw_if_stop_requested();
    return adoptions;
  }

  const CycleSetup& setup_;
  CycleTuning tuning_;
  MessageCosts costs_;
  Cpu& cpu_;
  int threads_;
  int rounds_;
  std::size_t n_;
  CycleRecording recording_;
  std::vector<double> t_;    // CPU free time
  std::vector<double> nic_;  // NIC free time
  std::vector<double> out_;  // dissemination: arrival of the message each rank receives
  std::vector<RedundantRank> state_;
  std::unique_ptr<DropPool> pool_;
};

}  // namespace

template <class Cpu>
CycleResult simulate_cycles(const CycleSetup& setup, Cpu& cpu, int threads,
                            const CycleRecording& recording, const CycleTuning& tuning) {
  return CycleEngine<Cpu>(setup, cpu, threads, recording, tuning).run();
}

template CycleResult simulate_cycles(const CycleSetup&, QuietCpu&, int, const CycleRecording&,
                                     const CycleTuning&);
template CycleResult simulate_cycles(const CycleSetup&, ListedCpu&, int, const CycleRecording&,
                                     const CycleTuning&);
template CycleResult simulate_cycles(const CycleSetup&, PatternCpu&, int, const CycleRecording&,
                                     const CycleTuning&);
template CycleResult simulate_cycles(const CycleSetup&, PoissonCpu&, int, const CycleRecording&,
                                     const CycleTuning&);
template CycleResult simulate_cycles(const CycleSetup&, StageCpu&, int, const CycleRecording&,
                                     const CycleTuning&);
template CycleResult simulate_cycles(const CycleSetup&, QuietOps<QuietCpu>&, int,
                                     const CycleRecording&, const CycleTuning&);
template CycleResult simulate_cycles(const CycleSetup&, QuietOps<PatternCpu>&, int,
                                     const CycleRecording&, const CycleTuning&);
template CycleResult simulate_cycles(const CycleSetup&, QuietOps<PoissonCpu>&, int,
                                     const CycleRecording&, const CycleTuning&);
template CycleResult simulate_cycles(const CycleSetup&, QuietOps<StageCpu>&, int,
                                     const CycleRecording&, const CycleTuning&);

}  // namespace collnoise
