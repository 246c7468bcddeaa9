#include "engine/cycles/cycle_reference.hpp"

#include <algorithm>
#include <deque>
#include <queue>
#include <vector>

#include "core/stop_request.hpp"

namespace collnoise {
namespace {

struct Message {
  std::uint64_t cycle = 0;
  int round = 0;
  bool redundant = false;
  double arrival = 0.0;
};

// The order in which a rank handles messages that are ready together.
bool handled_before(const Message& a, const Message& b) {
  if (a.arrival != b.arrival) return a.arrival < b.arrival;
  if (a.round != b.round) return a.round < b.round;
  return !a.redundant && b.redundant;
}

struct Send {
  std::uint64_t cycle = 0;
  int round = 0;
  bool redundant = false;
  std::uint64_t dest = 0;
};

enum class Op { kIdle, kCompute, kSend, kReceive, kOwedReceive };

struct RankState {
  std::uint64_t cycle = 0;     // the cycle in progress (M when all are done)
  std::uint64_t finished = 0;  // collectives finished: later messages of those are discarded
  bool compute_due = true;
  bool in_collective = false;
  int round = 0;
  std::vector<char> sent;  // ordinary sends issued in this cycle, by round
  std::deque<Send> sends;
  std::vector<Message> buffer;       // messages of unfinished cycles, arrived or on the way
  std::deque<double> owed_receives;  // arrivals to pay for after finishing
  Op op = Op::kIdle;
  Message receiving;
  bool receiving_usable = false;
  double busy_until = 0.0;
  double nic_free = 0.0;
};

struct Event {
  double time;
  std::uint64_t seq;
  std::uint64_t rank;
  bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
};

template <class Cpu>
class ReferenceSimulator {
 public:
  ReferenceSimulator(const CycleSetup& setup, Cpu& cpu)
      : setup_(setup),
        costs_(setup.net),
        cpu_(cpu),
        rounds_(rounds_of(setup)),
        ranks_(setup.ranks) {
    for (auto& r : ranks_) r.sent.assign(static_cast<std::size_t>(rounds_), 0);
    result_.cycle_end.assign(setup.cycles, 0.0);
    result_.last_finish.assign(setup.ranks, 0.0);
  }

  CycleResult run() {
    for (std::uint64_t i = 0; i < setup_.ranks; ++i) schedule(0.0, i);
    for (std::uint64_t handled = 0; !events_.empty(); ++handled) {
      if ((handled & 0xffff) == 0) throw_if_stop_requested();
      const Event e = events_.top();
      events_.pop();
      step(e.rank, e.time);
    }
    return result_;
  }

 private:
  void schedule(double time, std::uint64_t rank) { events_.push({time, seq_++, rank}); }

  std::uint64_t partner(std::uint64_t i, int round) const {
    const std::uint64_t bit = std::uint64_t{1} << round;
    if (setup_.algorithm == CycleAlgorithm::kDissemination) return (i + bit) % setup_.ranks;
    return i ^ bit;
  }

  void step(std::uint64_t i, double t) {
    RankState& r = ranks_[i];
    if (r.op != Op::kIdle) {
      if (r.busy_until > t) return;  // woken by an arrival while busy
      const double end = r.busy_until;
      const Op done = r.op;
      r.op = Op::kIdle;
      complete(i, done, end);
    }
    decide(i, t);
  }

  void occupy(std::uint64_t i, Op op, double end) {
    RankState& r = ranks_[i];
    r.op = op;
    r.busy_until = end;
    schedule(end, i);
  }

  void deliver(std::uint64_t dest, const Message& m) {
    RankState& d = ranks_[dest];
    if (m.cycle < d.finished) return;  // the destination finished that collective before
    d.buffer.push_back(m);
    schedule(m.arrival, dest);
  }

  void decide(std::uint64_t i, double t) {
    RankState& r = ranks_[i];
    const double overhead = costs_.overhead;
    if (!r.sends.empty()) {
      const Send s = r.sends.front();
      r.sends.pop_front();
      const double start = send_start(costs_, t, r.nic_free);
      const double end = cpu_.op(i, start, overhead);
      deliver(s.dest, {s.cycle, s.round, s.redundant, arrival_time(costs_, end)});
      occupy(i, Op::kSend, end);
      return;
    }
    if (!r.owed_receives.empty()) {
      r.owed_receives.pop_front();  // arrived before the rank finished, so before t
      occupy(i, Op::kOwedReceive, cpu_.op(i, t, overhead));
      return;
    }
    if (r.compute_due && r.cycle < setup_.cycles) {
      r.compute_due = false;
      occupy(i, Op::kCompute, cpu_.compute(i, r.cycle, t, setup_.work));
      return;
    }
    if (!r.in_collective) return;
    std::size_t best = r.buffer.size();
    for (std::size_t k = 0; k < r.buffer.size(); ++k) {
      const Message& m = r.buffer[k];
      if (m.cycle != r.cycle || m.arrival > t || !(usable(r, m) || m.round < r.round)) continue;
      if (best == r.buffer.size() || handled_before(m, r.buffer[best])) best = k;
    }
    if (best == r.buffer.size()) return;  // idle until the next arrival
    r.receiving = r.buffer[best];
    r.receiving_usable = usable(r, r.receiving);
    r.buffer.erase(r.buffer.begin() + static_cast<std::ptrdiff_t>(best));
    occupy(i, Op::kReceive, cpu_.op(i, t, overhead));
  }

  static bool usable(const RankState& r, const Message& m) {
    return m.redundant ? m.round >= r.round : m.round == r.round;
  }

  void issue_ordinary(std::uint64_t i, int round) {
    RankState& r = ranks_[i];
    r.sends.push_back({r.cycle, round, false, partner(i, round)});
    r.sent[static_cast<std::size_t>(round)] = 1;
  }

  void complete(std::uint64_t i, Op done, double end) {
    RankState& r = ranks_[i];
    if (done == Op::kCompute) {
      r.in_collective = true;
      r.round = 0;
      std::fill(r.sent.begin(), r.sent.end(), 0);
      if (rounds_ == 0)
        finish(i, end);
      else
        issue_ordinary(i, 0);
      return;
    }
    if (done != Op::kReceive || !r.receiving_usable) return;  // sends and dropped messages
    const int q = r.receiving.round;
    if (!r.receiving.redundant) {  // round q completed by the rank's own exchange
      if (q + 1 < rounds_) issue_ordinary(i, q + 1);
      if (setup_.algorithm == CycleAlgorithm::kRedundantButterfly && q >= 1)
        r.sends.push_back({r.cycle, q, true, i ^ 1});
      r.round = q + 1;
    } else {  // adoption of the mate's result through round q
      ++result_.adoptions;
      for (int u = 0; u <= q; ++u)
        if (!r.sent[static_cast<std::size_t>(u)]) issue_ordinary(i, u);
      r.round = q + 1;
      if (r.round < rounds_ && !r.sent[static_cast<std::size_t>(r.round)])
        issue_ordinary(i, r.round);
    }
    if (r.round == rounds_) finish(i, end);
  }

  void finish(std::uint64_t i, double end) {
    RankState& r = ranks_[i];
    r.in_collective = false;
    auto& cycle_end = result_.cycle_end[r.cycle];
    cycle_end = std::max(cycle_end, end);
    if (r.cycle + 1 == setup_.cycles) result_.last_finish[i] = end;
    // Messages of this collective that arrived by now are still paid for; later ones are not.
    std::vector<Message> owed;
    std::vector<Message> kept;
    for (const Message& m : r.buffer) {
      if (m.cycle != r.cycle)
        kept.push_back(m);
      else if (m.arrival <= end)
        owed.push_back(m);
    }
    std::sort(owed.begin(), owed.end(), handled_before);
    for (const Message& m : owed) r.owed_receives.push_back(m.arrival);
    r.buffer = std::move(kept);
    r.finished = r.cycle + 1;
    r.cycle += 1;
    r.compute_due = r.cycle < setup_.cycles;
  }

  const CycleSetup& setup_;
  MessageCosts costs_;
  Cpu& cpu_;
  int rounds_;
  std::vector<RankState> ranks_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::uint64_t seq_ = 0;
  CycleResult result_;
};

}  // namespace

template <class Cpu>
CycleResult simulate_cycles_reference(const CycleSetup& setup, Cpu& cpu,
                                      const CycleRecording& recording) {
  CycleResult result = ReferenceSimulator<Cpu>(setup, cpu).run();
  if (recording.last_finish_histogram)
    for (double f : result.last_finish) recording.last_finish_histogram->add(f);
  if (!recording.keep_last_finish) result.last_finish = {};
  return result;
}

template CycleResult simulate_cycles_reference(const CycleSetup&, QuietCpu&, const CycleRecording&);
template CycleResult simulate_cycles_reference(const CycleSetup&, ListedCpu&,
                                               const CycleRecording&);
template CycleResult simulate_cycles_reference(const CycleSetup&, PatternCpu&,
                                               const CycleRecording&);
template CycleResult simulate_cycles_reference(const CycleSetup&, PoissonCpu&,
                                               const CycleRecording&);
template CycleResult simulate_cycles_reference(const CycleSetup&, StageCpu&, const CycleRecording&);
template CycleResult simulate_cycles_reference(const CycleSetup&, QuietOps<QuietCpu>&,
                                               const CycleRecording&);
template CycleResult simulate_cycles_reference(const CycleSetup&, QuietOps<PatternCpu>&,
                                               const CycleRecording&);
template CycleResult simulate_cycles_reference(const CycleSetup&, QuietOps<PoissonCpu>&,
                                               const CycleRecording&);
template CycleResult simulate_cycles_reference(const CycleSetup&, QuietOps<StageCpu>&,
                                               const CycleRecording&);

}  // namespace collnoise
