#pragma once
// The composition of a sample's critical path (docs/models/critical-path.md): how much of it was
// computation, overhead, gap, wire, noise and rendezvous wait, and its noise by step bucket,
// without keeping the path itself. Attribution over many samples needs only that.
//
// The recorder is an engine observer (engine/schedules/engine/engine_observer.hpp) that propagates
// forward, as critical_path.hpp does, but carries sums instead of segments: each CPU and NIC of
// each rank, and each message in flight, holds a composition (the exact sum of each category
// along the path that ends at its time, and the path's noise by bucket) plus the last one to
// three spans of the operation that set it, which are added only when an operation starts from
// it. Compositions are shared by reference count (a send's CPU, NIC and message start from the
// same one) and changed in place when one holder is left, so memory is a composition or two per
// rank whatever the number of operations; a NIC that can no longer bind (its rank has one CPU,
// freed no earlier than it) lets go of its composition.
//
// Asked to (sensitivities from the path), it also sums each LogGOPS parameter's time along the
// path: the o's, g's and the bytes' (s-1)G and (s-1)O on it (the L's are the wire category's),
// and a CPU's or NIC's carrier names, in its padding, how its first span splits into the
// message's o or g and its bytes' part (a code into a small table of the o's and g's the run
// charged). A run without computations and rendezvous waits keeps them in the place of those two
// categories, in 96 bytes still; others in 32 bytes more (128, two cache lines still).
//
// Runs on a shared network (network.contention) have a seventh category, the network's
// (critical_path.hpp), in 128 bytes a composition: its sum does not fit beside the six in 96.
// Runs without one keep the six in 96 bytes, as before the category was added.
//
// Memory traffic sets the cost (the engine's look-ahead fetches what an event reads, but the
// lines add up): a composition is 96 bytes, two cache lines, its noise by bucket in an array
// apart that only compositions with noise on their path have (shared by reference count, copied
// when one holder adds noise); a rank's first CPU and NICs are one cache line, and the messages in
// flight to it (32 bytes each, two of them) the next; more wait in a queue of theirs.
//
// The binding constraint and the tie rules are critical_path.hpp's, and the sums are added in the
// same order with the same arithmetic (path_sums.hpp): both recorders give the same bits
// (tests/engine/schedules/paths/test_path_composition.cpp).
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <utility>
#include <vector>

#include "core/flat_index_map.hpp"
#include "engine/schedules/engine/engine_observer.hpp"
#include "engine/schedules/paths/critical_path.hpp"
#include "engine/schedules/paths/path_sums.hpp"

namespace collnoise {

class PathCompositionRecorder {
 public:
  static constexpr bool kActive = true;

  /// `bucket`: the step bucket of an operation (empty: all in bucket 0), below `buckets`
  /// (1 to kPathBuckets). With `times` other than kNone, it also sums each parameter's time
  /// along the path (CriticalPath::parameter_ns); it throws InputError if a run charges more
  /// than kMostCharges distinct o and g values then. `network`: the run has a shared network
  /// (the network category kept; precondition: `times` is kNone then, as path sensitivities
  /// are refused with contention).
  PathCompositionRecorder(StepBucket bucket, std::size_t buckets,
                          ParameterTimesLayout times = ParameterTimesLayout::kNone,
                          bool network = false);
  static constexpr std::size_t kMostCharges = (1U << 14) - 2;
  /// With kCompact: whether the run had a computation or a rendezvous, which that layout has no
  /// room for. Its result is then not the path's: record the run again with kFull.
  bool needs_full() const { return needs_full_; }

  void begin(std::uint32_t ranks, std::uint32_t cpus, std::uint32_t nics);
  void calc(const CalcSeen& c);
  void send(const SendSeen& s);
  void message(const MessageSeen& m);
  void receive(const ReceiveSeen&) {}
  void rendezvous(const RendezvousSeen& r);
  /// The engine's look-ahead: fetch what an event soon to come reads (far: a rank's carriers and
  /// a message's entry; near: the compositions they name), as the engine fetches its own state.
  void fetch_far(const AheadSeen& a);
  void fetch_near(const AheadSeen& a);

  /// The composition of the path that ends at the latest of `finish` (every rank's finishing
  /// time, ns, as the run returned them); its `segments` stay empty.
  CriticalPath result(std::span<const double> finish) const;

  /// Compositions held at most during the run.
  std::size_t peak_compositions() const { return compositions_.allocated; }
  /// Noise-by-bucket arrays held at most.
  std::size_t peak_noise_arrays() const { return arrays_.allocated; }
  /// Bytes it holds per rank at most, about, with `buckets` step buckets (for estimates).
  static double bytes_per_rank(std::size_t buckets,
                               ParameterTimesLayout times = ParameterTimesLayout::kNone,
                               bool network = false);

 private:
  static constexpr std::uint32_t kZero = 0;    // the empty path at time 0, never freed
  static constexpr std::uint32_t kNone = ~0U;  // a NIC that can no longer bind
  // The path to a CPU's free time: composition `node` (which ends where the operation started),
  // then `first` up to `mid`, then noise up to `end`.
  // `charge`: how `first` splits into parameters (0: into none).
  struct Carrier {
    double mid = 0.0, end = 0.0;
    std::uint32_t node = kZero;
    PathCategory first = PathCategory::kCalc;
    std::uint8_t bucket = 0;
    std::uint16_t charge = 0;
  };
  // A NIC's: composition `node`, then `first` (gap, or a rendezvous wait) up to `end`.
  struct NicCarrier {
    double end = 0.0;
    std::uint32_t node = kZero;
    PathCategory first = PathCategory::kGap;
    std::uint16_t charge = 0;
  };
  // How the first span of a composed path splits into parameters: a code (0: none; kWholeSpan:
  // all of it is `fixed`'s; else (i + 1) << 2 | r: the table's i-th value is `fixed`'s, the rest
  // is O's (r = 1), G's (r = 2) or drawn bytes' time, no parameter's (r = 0)).
  struct Charge {
    std::uint16_t code = 0;
    LogGPParameter fixed = LogGPParameter::kSmallO;
  };
  static constexpr std::uint16_t kWholeSpan = 1;

  // A message: its send's composition, then overhead up to `leave`, wire up to `wire_end`, noise
  // up to `arrival` (of step bucket `bucket`).
  struct Flight {
    double leave = 0.0, wire_end = 0.0, arrival = 0.0;
    std::uint32_t node = kZero;
    std::uint8_t bucket = 0;
  };
  // A message in flight as the inboxes and queues of most runs keep it, in 32 bytes: its key (the
  // send's global index) in the place of the padding, its bucket in the composition's top bits.
  // Runs beyond 2^32 operations or 2^26 compositions keep theirs in a table of 64-bit keys.
  static constexpr unsigned kNodeBits = 26;
  struct NarrowFlight {
    double leave = 0.0, wire_end = 0.0, arrival = 0.0;
    std::uint32_t node_bucket = 0, key = FlatIndexMap<NarrowFlight>::kEmpty;
  };
  // A rank's first CPU and NICs in one cache line (further ones, which few schedules name, apart),
  // and in the next the messages in flight to it, two at most: a message is then found where its
  // receiver's carriers are, the line beside the one its event reads anyway. More wait in a
  // queue of the rank's own (first and last, in the carriers' line) in a pool: a rank in a long
  // detour collects a message from each later round's partner, and takes them in about the order
  // they came (recursive doubling at 2^20 ranks under periodic detours: 200 000 at a time).
  static constexpr std::size_t kInbox = 2;
  static constexpr std::uint32_t kNoFlight = ~0U;
  struct alignas(64) RankCarriers {
    Carrier cpu;
    NicCarrier send, receive;
    std::uint32_t first_waiting = kNoFlight, last_waiting = kNoFlight;
    alignas(64) NarrowFlight inbox[kInbox];
  };
  // A message of a rank's queue: its flight and the next one's place in the pool.
  struct WaitingFlight {
    NarrowFlight flight;
    std::uint32_t next = kNoFlight;
  };
  struct WideFlight {
    std::uint64_t key;
    Flight flight;
  };
  struct Span {
    PathCategory category;
    double to;
  };

  // Blocks of `stride` doubles in chunks that never move, reused through a free list kept in the
  // free blocks themselves (a freed block's first 4 bytes name the next free one: no memory of
  // its own, and the last freed is taken first). A chunk is over 32 MiB, so that the C library
  // maps it apart from its heap (and unmaps it when freed) whatever it was asked before: its
  // pages count as memory only when used, and none are left to the heap between runs.
  struct Pool {
    std::size_t stride = 1;
    unsigned chunk_bits = 0;
    std::uint32_t chunk_mask = 0;
    std::vector<std::unique_ptr<double[]>> chunks;
    std::vector<double*> bases;  // each chunk's first line
    std::uint32_t allocated = 0;
    std::uint32_t first_free = ~0U;
    double* at(std::uint32_t n) const {
      return bases[n >> chunk_bits] + std::size_t{n & chunk_mask} * stride;
    }
    std::uint32_t take();
    /// Block `n` is free again (its contents are not read before it is taken).
    void release(std::uint32_t n);
    void reset(std::size_t words);
  };

  // ---- Compositions: [end, references, noise array, (hi, lo) per category], 96 bytes (two cache
  // lines whatever the offset); with parameter times, the o's, g's, G's and O's after the four
  // categories other than computation and rendezvous (kCompact, 96 bytes) or after all six
  // (kFull, 128); on a shared network the seven categories in 128 ----
  static constexpr std::size_t kStride = 12;
  static constexpr std::size_t kFullStride = 16;
  double* words(std::uint32_t n) const { return compositions_.at(n); }
  /// Category `c`'s sum in composition `w` (a category the layout does not keep: zero).
  path_sums::PathSum sum_in(const double* w, std::size_t c) const;
  void put_sum(double* w, std::size_t c, const path_sums::PathSum& s) const;
  std::uint32_t allocate();
  void hold(std::uint32_t n);
  void drop(std::uint32_t n);
  /// Adds `spans` (in time order, each from the previous end) to the sums at `w`, and calls
  /// `noise(from, to)` for each noise span of some length.
  template <class Noise>
  void extend(double* w, std::initializer_list<Span> spans, Noise&& noise) const;
  /// A composition for the path of `node` then `spans`, held once for the caller. `consume`: the
  /// caller's hold on `node` passes to the result (changed in place when it was the only one).
  /// `charge`: how the first span splits into parameters (with parameter times).
  std::uint32_t compose(std::uint32_t node, std::initializer_list<Span> spans, std::uint8_t bucket,
                        bool consume, Charge charge);
  std::uint32_t compose(const Carrier& c, bool consume) {
    return compose(c.node, {{c.first, c.mid}, {PathCategory::kNoise, c.end}}, c.bucket, consume,
                   {c.charge, LogGPParameter::kSmallO});
  }
  std::uint32_t compose(const NicCarrier& c, bool consume) {
    return compose(c.node, {{c.first, c.end}}, 0, consume, {c.charge, LogGPParameter::kSmallG});
  }
  std::uint32_t compose(const Flight& f, bool consume) {
    // A message's overhead span is its send's o.
    return compose(f.node,
                   {{PathCategory::kOverhead, f.leave},
                    {PathCategory::kWire, f.wire_end},
                    {PathCategory::kNoise, f.arrival}},
                   f.bucket, consume, {kWholeSpan, LogGPParameter::kSmallO});
  }
  /// The same on a shared network, up to when it let the message go: wire up to `emerged`
  /// (its first byte out of the route's links), network up to `left` (both no earlier than
  /// the arrival), as critical_path.cpp adds them.
  std::uint32_t compose(const Flight& f, double emerged, double left, bool consume) {
    return compose(f.node,
                   {{PathCategory::kOverhead, f.leave},
                    {PathCategory::kWire, f.wire_end},
                    {PathCategory::kNoise, f.arrival},
                    {PathCategory::kWire, emerged},
                    {PathCategory::kNetwork, left}},
                   f.bucket, consume, {kWholeSpan, LogGPParameter::kSmallO});
  }
  /// Adds a first span of `length` ns, split by `charge`, to the parameter times at `w`.
  void add_charge(double* w, double length, Charge charge) const;
  /// The code of a span that is `fixed` ns of o or g, then bytes charged by `bytes` (0 without
  /// parameter times).
  std::uint16_t charge_of(double fixed, BytesCharge bytes);

  // ---- The noise by bucket: an array of single-precision sums apart from the composition
  // ([references, a float a bucket]), shared by reference count and copied when one holder adds
  // noise: only compositions with noise on their path have one (periodic noise: few) ----
  static constexpr std::uint32_t kNoNoise = 0;  // all zero, never freed
  void drop_array(std::uint32_t a);
  /// Adds the noise of [from, to] to bucket `bucket` of composition `w` (held once).
  void add_noise(double* w, std::uint8_t bucket, double from, double to);

  // ---- Messages in flight: in the receiver's inbox, else in its queue (a pool of WaitingFlight;
  // runs beyond 2^32 operations or 2^26 compositions: in a table of 64-bit keys) ----
  WaitingFlight* waiting_at(std::uint32_t n) const {
    return std::launder(reinterpret_cast<WaitingFlight*>(waiting_.at(n)));
  }
  /// Takes send `op`'s message out of `receiver`'s queue into `f` (found: true), if `take`.
  bool find_waiting(std::uint32_t op, std::uint32_t receiver, NarrowFlight& f, bool take);
  void insert_flight(std::uint64_t op, std::uint32_t receiver, const Flight& f);
  /// The flight of send `op` to `receiver` (found: true), taken out when `take`.
  bool find_flight(std::uint64_t op, std::uint32_t receiver, Flight& f, bool take);
  /// The slot of send `op` in `receiver`'s inbox, or nullptr.
  NarrowFlight* in_inbox(std::uint32_t receiver, std::uint64_t op);

  /// Sets a CPU's or NIC's carrier to start from `node` (held once more).
  void set(Carrier& slot, std::uint32_t node, PathCategory first, double mid, double end,
           std::uint8_t bucket, std::uint16_t charge = 0);
  void set(NicCarrier& slot, std::uint32_t node, PathCategory first, double end,
           std::uint16_t charge = 0);
  /// Lets go of the compositions of `host`'s NICs that can no longer bind (one CPU a rank).
  void release_idle_nics(std::uint32_t host);
  /// Starts an operation of `binding` on a CPU and NIC pair: drops the other's hold first (so
  /// that a composition both held changes in place) and returns the binding one's composition.
  template <class A, class B>
  std::uint32_t start_from(A& binding, B& other);

  const Carrier& cpu_at(std::uint32_t rank, std::uint8_t i) const {
    return i == 0 ? ranks_[rank].cpu : more_cpus_[std::size_t{rank} * (cpus_per_rank_ - 1) + i - 1];
  }
  Carrier& cpu(std::uint32_t rank, std::uint8_t i) {
    return const_cast<Carrier&>(std::as_const(*this).cpu_at(rank, i));
  }
  NicCarrier& send_nic(std::uint32_t rank, std::uint8_t i) {
    return i == 0 ? ranks_[rank].send
                  : more_sends_[std::size_t{rank} * (nics_per_rank_ - 1) + i - 1];
  }
  NicCarrier& receive_nic(std::uint32_t rank, std::uint8_t i) {
    return i == 0 ? ranks_[rank].receive
                  : more_receives_[std::size_t{rank} * (nics_per_rank_ - 1) + i - 1];
  }

  StepBucket bucket_;
  std::size_t buckets_;
  ParameterTimesLayout layout_;
  bool timed_;
  bool needs_full_ = false;
  std::size_t stride_;
  // Each category's (hi, lo) bytes in a composition (0: not kept), and the parameter times' word.
  std::array<std::uint8_t, kPathCategories> hi_byte_{}, lo_byte_{};
  std::size_t times_word_ = 0;
  std::vector<double> fixed_;  // the o's and g's charges name
  Pool compositions_, arrays_;
  std::vector<RankCarriers> ranks_;
  std::vector<Carrier> more_cpus_;
  std::vector<NicCarrier> more_sends_, more_receives_;
  std::uint32_t cpus_per_rank_ = 1, nics_per_rank_ = 1;
  Pool waiting_;  // WaitingFlight, when an inbox is full
  FlatIndexMap<WideFlight> wide_flights_;
  path_sums::CompensatedSum noise_;
  std::uint64_t unmatched_ = 0;
};

}  // namespace collnoise
