#include "engine/cycles/cycle_engine.hpp"

#include <omp.h>
#include <algorithm>
#include <limits>
#include <memory>
#include <span>
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

// The tasks of a pass over rounds [r0, r1): in them, ranks that differ only in bits r0 .. r1-1
// form independent groups. A task takes `lanes` consecutive ranks (whole cache lines) times all
// 2^(r1-r0) values of those bits, a few dozen KiB that stay in cache while it runs the pass's
// rounds.
struct PassShape {
  PassShape(int first_round, int end_round, std::size_t lanes_wanted)
      : r0(first_round),
        r1(end_round),
        lanes(std::min<std::size_t>(lanes_wanted, std::size_t{1} << first_round)),
        lane_groups((std::size_t{1} << first_round) / lanes),
        half(std::size_t{1} << (end_round - first_round - 1)) {}

  /// The lowest rank of task k.
  std::size_t base(std::size_t k) const {
    return ((k / lane_groups) << r1) | ((k % lane_groups) * lanes);
  }
  /// The first task inside the aligned range of 2^bits ranks from `first` (r1 <= bits).
  std::size_t first_task(std::size_t first) const { return (first >> r1) * lane_groups; }
  /// The number of tasks of an aligned range of 2^bits ranks.
  std::size_t tasks(int bits) const { return (std::size_t{1} << (bits - r1)) * lane_groups; }
  /// The ranks of task k, each once.
  template <class Fn>
  void for_each_rank(std::size_t k, Fn&& fn) const {
    const std::size_t b = base(k);
    for (std::size_t h = 0; h < 2 * half; ++h)
      for (std::size_t lane = 0; lane < lanes; ++lane) fn(b + (h << r0) + lane);
  }

  int r0, r1;
  std::size_t lanes, lane_groups, half;
};

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
    if (setup_.algorithm == CycleAlgorithm::kDissemination) return run_dissemination();
    if (setup_.algorithm == CycleAlgorithm::kRedundantButterfly && rounds_ > 0)
      return run_redundant();
    t_.assign(n_, 0.0);
    nic_.assign(n_, 0.0);
    CycleResult result;
    // Nothing is owed after the last receive: t_ holds the finishing times.
    const auto finish = [&](std::size_t i) { return t_[i]; };
    result.cycle_end = run_cycles(
        tuning_.lane_ranks,
        [&](std::uint64_t cycle, std::size_t first, int bits, int) {
          butterfly_part(cycle, first, bits);
          return std::uint64_t{0};
        },
        [&](const PassShape& pass, std::size_t task, int, double& latest) {
          butterfly_task(pass, task);
          pass.for_each_rank(task, [&](std::size_t i) { latest = std::max(latest, t_[i]); });
          return std::uint64_t{0};
        },
        finish, result.adoptions);
    record(result, finish, [&] { return std::move(t_); });
    return result;
  }

 private:
  static constexpr double kNever = -std::numeric_limits<double>::infinity();

  // How the ranks are shared among threads: `parts` aligned ranges of 2^part_bits ranks each.
  // Rounds below part_bits stay inside a part, so a part runs a whole cycle's compute and those
  // rounds on one thread; the rounds above join the parts in one pass. A cycle thus costs two
  // barriers, whatever N, instead of one a round or a pass.
  struct Split {
    int part_bits;
    std::size_t parts;
  };
  // Whether threads share the ranks (CycleTuning::parallel_from_ranks).
  bool shared() const {
    const std::size_t from = tuning_.parallel_from_ranks;
    const bool cheap = setup_.algorithm != CycleAlgorithm::kRedundantButterfly;
    return threads_ > 1 && (cheap ? n_ / 4 >= from : n_ >= from);
  }

  Split split() const {
    if (!shared() || rounds_ < 2) return {rounds_, 1};
    // About four parts a thread, so that a thread slowed down by another process hands parts
    // over; at most a pass's rounds above them, so that joining them is one sweep.
    int joint_rounds = 0;
    while ((std::size_t{1} << joint_rounds) < 4 * static_cast<std::size_t>(threads_) &&
           joint_rounds < tuning_.pass_bits && joint_rounds < rounds_ - 1)
      ++joint_rounds;
    return {rounds_ - joint_rounds, std::size_t{1} << joint_rounds};
  }

  // Runs every cycle and returns each cycle's latest finishing time. part(cycle, first, bits,
  // thread) runs a cycle's compute and rounds below `bits` on the ranks [first, first + 2^bits)
  // (all of them when one thread runs the engine); joint(pass, task, thread, latest) runs the
  // higher rounds on one task of `pass` and raises `latest` to its ranks' finishing times. Both
  // return adoptions. Which thread runs which part or task does not change any result.
  template <class Part, class Joint, class Finish>
  std::vector<double> run_cycles(std::size_t joint_lanes, Part&& part, Joint&& joint,
                                 Finish&& finish, std::uint64_t& adoptions) {
    const Split split = this->split();
    const std::uint64_t cycles = setup_.cycles;
    if (split.parts == 1) {
      std::vector<double> ends(cycles, kNever);
      for (std::uint64_t c = 0; c < cycles; ++c) {
        throw_if_stop_requested();
        adoptions += part(c, 0, rounds_, 0);
        throw_if_stop_requested();
        for (std::size_t i = 0; i < n_; ++i) ends[c] = std::max(ends[c], finish(i));
      }
      return ends;
    }
    const PassShape pass(split.part_bits, rounds_, joint_lanes);
    const auto tasks = static_cast<Index>(pass.tasks(rounds_));
    const auto parts = static_cast<Index>(split.parts);
    const Index chunk = std::max<Index>(1, tasks / (8 * threads_));
    // Each thread's latest finishing time per cycle, merged below (a maximum: any order).
    std::vector<double> latest(static_cast<std::size_t>(threads_) * cycles, kNever);
    std::uint64_t count = 0;
#pragma omp parallel num_threads(threads_) reduction(+ : count)
    {
      const int thread = omp_get_thread_num();
      for (std::uint64_t c = 0; c < cycles; ++c) {
        // A stop request skips the remaining work; the cycle is abandoned below.
#pragma omp for schedule(dynamic, 1)
        for (Index p = 0; p < parts; ++p)
          if (!stop_requested())
            count +=
                part(c, static_cast<std::size_t>(p) << split.part_bits, split.part_bits, thread);
        if (pool_) pool_->give_back(thread);
        double mine = kNever;
#pragma omp for schedule(dynamic, chunk)
        for (Index k = 0; k < tasks; ++k)
          if (!stop_requested()) count += joint(pass, static_cast<std::size_t>(k), thread, mine);
        if (pool_) pool_->give_back(thread);
        latest[static_cast<std::size_t>(thread) * cycles + c] = mine;
      }
    }
    throw_if_stop_requested();
    adoptions += count;
    return latest_by_cycle(latest, cycles);
  }

  // Each cycle's latest finishing time from every thread's (`latest`: a thread's cycles one
  // after the other); a maximum, so the threads' order does not matter.
  static std::vector<double> latest_by_cycle(std::span<const double> latest, std::uint64_t cycles) {
    std::vector<double> ends(cycles, kNever);
    for (std::size_t t = 0; t < latest.size(); t += cycles)
      for (std::uint64_t c = 0; c < cycles; ++c) ends[c] = std::max(ends[c], latest[t + c]);
    return ends;
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

  // Cycle `cycle` of the aligned ranks [first, first + 2^bits): compute, then rounds 0 .. bits-1.
  // Rounds below the block size stay inside aligned blocks of ranks: each block does its compute
  // and those rounds while it sits in cache. Higher rounds run in passes of up to pass_bits
  // rounds, one sweep over memory a pass instead of one a round. Each rank's operations keep
  // their order.
  void butterfly_part(std::uint64_t cycle, std::size_t first, int bits) {
    const int low = std::min(bits, tuning_.block_bits);
    const std::size_t block = std::size_t{1} << low;
    const std::size_t end = first + (std::size_t{1} << bits);
    for (std::size_t base = first; base < end; base += block) {
      if (stop_requested()) return;  // the cycle is abandoned by the caller
      for (std::size_t i = base; i < base + block; ++i)
        t_[i] = cpu_.compute(i, cycle, t_[i], setup_.work);
      for (int r = 0; r < low; ++r)
        for (std::size_t p = 0; p < block / 2; ++p) {
          const std::size_t i = base + pair_low(p, r);
          butterfly_pair(i, i | (std::size_t{1} << r));
        }
    }
    for (int r0 = low; r0 < bits; r0 += tuning_.pass_bits) {
      const PassShape pass(r0, std::min(bits, r0 + tuning_.pass_bits), tuning_.lane_ranks);
      const std::size_t from = pass.first_task(first);
      for (std::size_t k = from; k < from + pass.tasks(bits); ++k) {
        if (stop_requested()) return;
        butterfly_task(pass, k);
      }
    }
  }

  // The rounds of a pass on one of its tasks.
  void butterfly_task(const PassShape& pass, std::size_t k) {
    const std::size_t base = pass.base(k);
    for (int r = pass.r0; r < pass.r1; ++r)
      for (std::size_t h = 0; h < pass.half; ++h) {
        const std::size_t i = base | (pair_low(h, r - pass.r0) << pass.r0);
        for (std::size_t lane = 0; lane < pass.lanes; ++lane)
          butterfly_pair(i + lane, (i + lane) | (std::size_t{1} << r));
      }
  }

  // Dissemination: per round, a send sweep that records each message's arrival, then a receive
  // sweep; one parallel region for the whole run (a small N runs on one thread), the compute
  // fused with the first send sweep.
  CycleResult run_dissemination() {
    t_.assign(n_, 0.0);
    nic_.assign(n_, 0.0);
    out_.assign(n_, 0.0);
    const std::uint64_t cycles = setup_.cycles;
    const int threads = shared() ? threads_ : 1;
    std::vector<double> latest(static_cast<std::size_t>(threads) * cycles, kNever);
    const auto n = static_cast<Index>(n_);
#pragma omp parallel num_threads(threads)
    {
      const int thread = omp_get_thread_num();
      for (std::uint64_t c = 0; c < cycles; ++c) {
        double mine = kNever;
        const bool stop = stop_requested();  // skips the work; the run is abandoned below
        if (rounds_ == 0) {
#pragma omp for schedule(static)
          for (Index k = 0; k < n; ++k) {
            const auto i = static_cast<std::size_t>(k);
            if (!stop) t_[i] = cpu_.compute(i, c, t_[i], setup_.work);
            mine = std::max(mine, t_[i]);
          }
        }
        for (int r = 0; r < rounds_; ++r) {
          const std::size_t shift = std::size_t{1} << r;
#pragma omp for schedule(static)
          for (Index k = 0; k < n; ++k) {
            if (stop) continue;
            const auto i = static_cast<std::size_t>(k);
            if (r == 0) t_[i] = cpu_.compute(i, c, t_[i], setup_.work);
            t_[i] = send(i, t_[i], nic_[i]);
            const std::size_t dest = i + shift < n_ ? i + shift : i + shift - n_;
            out_[dest] = arrival_time(costs_, t_[i]);  // arrival at the destination
          }
#pragma omp for schedule(static)
          for (Index k = 0; k < n; ++k) {
            const auto i = static_cast<std::size_t>(k);
            if (!stop) t_[i] = receive(i, t_[i], out_[i]);
            if (r + 1 == rounds_) mine = std::max(mine, t_[i]);
          }
        }
        latest[static_cast<std::size_t>(thread) * cycles + c] = mine;
      }
    }
    throw_if_stop_requested();
    CycleResult result;
    result.cycle_end = latest_by_cycle(latest, cycles);
    record(
        result, [&](std::size_t i) { return t_[i]; }, [&] { return std::move(t_); });
    return result;
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
    const auto finish = [&](std::size_t i) { return state_[i].out; };
    // A pass's lanes hold whole quads' mates (bit 0).
    result.cycle_end = run_cycles(
        std::max<std::size_t>(tuning_.lane_ranks, 2),
        [&](std::uint64_t cycle, std::size_t first, int bits, int thread) {
          return redundant_part(cycle, first, bits, thread);
        },
        [&](const PassShape& pass, std::size_t task, int thread, double& latest) {
          const std::uint64_t adoptions = redundant_task(pass, task, thread);
          pass.for_each_rank(task, [&](std::size_t i) { latest = std::max(latest, finish(i)); });
          return adoptions;
        },
        finish, result.adoptions);
    record(result, finish, [&] {
      std::vector<double> last(n_);
      for (std::size_t i = 0; i < n_; ++i) last[i] = state_[i].out;
      return last;
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

  // Cycle `cycle` of the aligned ranks [first, first + 2^bits), bits >= 1: compute and round 0
  // fused, rounds below the block size block by block, higher ones in passes whose lanes hold
  // both mates of each quad. Returns the adoptions.
  std::uint64_t redundant_part(std::uint64_t cycle, std::size_t first, int bits, int thread) {
    std::uint64_t adoptions = 0;
    const int low = std::min(bits, tuning_.block_bits);
    const std::size_t block = std::size_t{1} << low;
    const std::size_t end = first + (std::size_t{1} << bits);
    for (std::size_t base = first; base < end; base += block) {
      if (stop_requested()) return adoptions;  // the cycle is abandoned by the caller
      for (std::size_t a = base; a < base + block; a += 2) {  // compute, then round 0
        state_[a].t = cpu_.compute(a, cycle, state_[a].t, setup_.work);
        state_[a + 1].t = cpu_.compute(a + 1, cycle, state_[a + 1].t, setup_.work);
        redundant_round0(a, thread);
      }
      for (int r = 1; r < low; ++r)
        for (std::size_t q = 0; q < block / 4; ++q)
          adoptions += redundant_quad(r, base + quad_base(q, r), thread);
    }
    for (int r0 = low; r0 < bits; r0 += tuning_.pass_bits) {
      const PassShape pass(r0, std::min(bits, r0 + tuning_.pass_bits),
                           std::max<std::size_t>(tuning_.lane_ranks, 2));
      const std::size_t from = pass.first_task(first);
      for (std::size_t k = from; k < from + pass.tasks(bits); ++k) {
        if (stop_requested()) return adoptions;
        adoptions += redundant_task(pass, k, thread);
      }
    }
    return adoptions;
  }

  // The rounds of a pass (r0 >= 1, lanes even) on one of its tasks: every quad of each round.
  std::uint64_t redundant_task(const PassShape& pass, std::size_t k, int thread) {
    std::uint64_t adoptions = 0;
    const std::size_t base = pass.base(k);
    for (int r = pass.r0; r < pass.r1; ++r)
      for (std::size_t h = 0; h < pass.half; ++h) {
        const std::size_t i = base | (pair_low(h, r - pass.r0) << pass.r0);
        for (std::size_t lane = 0; lane < pass.lanes; lane += 2)
          adoptions += redundant_quad(r, i + lane, thread);
      }
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
