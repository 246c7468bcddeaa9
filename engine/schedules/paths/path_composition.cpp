#include "engine/schedules/paths/path_composition.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "core/errors.hpp"

namespace collnoise {
namespace {

// A composition's bytes: its end time, its references, its noise array, each category's sum
// (path_sums::PathSum: the his, then the los), 88 of its 96; the parameter times after them
// (kFull, at byte 96), or after the four categories kCompact keeps (at 64). A noise array's:
// its references, then a float a bucket.
constexpr std::size_t kRefsByte = 8;
constexpr std::size_t kArrayByte = 12;
constexpr std::size_t kHiByte = 16;
constexpr std::size_t kLineWords = 64 / sizeof(double);
std::size_t bucket_byte(std::size_t b) {
  return sizeof(std::uint32_t) + b * sizeof(float);
}

// Words hold integers and floats by their bytes (memcpy: no aliasing of a double as another
// type).
template <class T>
T load(const double* w, std::size_t byte) {
  T x;
  std::memcpy(&x, reinterpret_cast<const unsigned char*>(w) + byte, sizeof(T));
  return x;
}
template <class T>
void store(double* w, std::size_t byte, T x) {
  std::memcpy(reinterpret_cast<unsigned char*>(w) + byte, &x, sizeof(T));
}

void prefetch_lines(const double* w, std::size_t words) {
  for (std::size_t i = 0; i < words; i += kLineWords) __builtin_prefetch(w + i, 1);
}

}  // namespace

PathCompositionRecorder::PathCompositionRecorder(StepBucket bucket, std::size_t buckets,
                                                 ParameterTimesLayout times, bool network)
    : bucket_(std::move(bucket)),
      buckets_(std::clamp<std::size_t>(buckets, 1, kPathBuckets)),
      layout_(times),
      timed_(times != ParameterTimesLayout::kNone),
      stride_(times == ParameterTimesLayout::kFull || network ? kFullStride : kStride) {
  static_assert(sizeof(Carrier) == 24 && sizeof(NicCarrier) == 16);
  static_assert(sizeof(NarrowFlight) == 32 && kPathBuckets <= (1U << (32 - kNodeBits)));
  static_assert(sizeof(RankCarriers) == 128 && offsetof(RankCarriers, inbox) == 64);
  static_assert(sizeof(WaitingFlight) % sizeof(double) == 0 &&
                alignof(WaitingFlight) <= alignof(double));
  if (network && timed_)
    throw std::logic_error("path composition: parameter times on a shared network");
  // The categories kept, their his then their los; then the parameter times (o, g, G, O).
  const bool compact = times == ParameterTimesLayout::kCompact;
  std::size_t kept = 0;
  for (std::size_t c = 0; c < path_categories(network); ++c)
    if (!compact || (c != static_cast<std::size_t>(PathCategory::kCalc) &&
                     c != static_cast<std::size_t>(PathCategory::kRendezvous)))
      hi_byte_[c] = static_cast<std::uint8_t>(kHiByte + kept++ * sizeof(double));
  const std::size_t lo = kHiByte + kept * sizeof(double);
  kept = 0;
  for (std::size_t c = 0; c < kPathCategories; ++c)
    if (hi_byte_[c] != 0) lo_byte_[c] = static_cast<std::uint8_t>(lo + kept++ * sizeof(float));
  const std::size_t sums_end = lo + kept * sizeof(float);
  if (sums_end > stride_ * sizeof(double))
    throw std::logic_error("path composition: the categories do not fit");
  times_word_ = compact ? (sums_end + sizeof(double) - 1) / sizeof(double) : kStride;
  if (timed_ && times_word_ + kLogGPParameters - 1 > stride_)
    throw std::logic_error("path composition: the parameter times do not fit");
}

path_sums::PathSum PathCompositionRecorder::sum_in(const double* w, std::size_t c) const {
  if (hi_byte_[c] == 0) return {};
  return {load<double>(w, hi_byte_[c]), load<float>(w, lo_byte_[c])};
}

void PathCompositionRecorder::put_sum(double* w, std::size_t c, const path_sums::PathSum& s) const {
  store<double>(w, hi_byte_[c], s.hi);
  store<float>(w, lo_byte_[c], s.lo);
}

void PathCompositionRecorder::Pool::reset(std::size_t words) {
  stride = words;
  for (chunk_bits = 0; (stride * sizeof(double)) << chunk_bits < (std::size_t{1} << 25);)
    ++chunk_bits;
  chunk_mask = (1U << chunk_bits) - 1;
  chunks.clear();
  bases.clear();
  first_free = ~0U;
  allocated = 0;
}

void PathCompositionRecorder::Pool::release(std::uint32_t n) {
  store<std::uint32_t>(at(n), 0, first_free);
  first_free = n;
}

std::uint32_t PathCompositionRecorder::Pool::take() {
  if (first_free != ~0U) {
    const std::uint32_t n = first_free;
    first_free = load<std::uint32_t>(at(n), 0);
    return n;
  }
  const std::uint32_t n = allocated++;
  if ((n >> chunk_bits) == chunks.size()) {
    // Left uninitialized: pages are touched (and count as memory) only when used.
    chunks.push_back(std::make_unique_for_overwrite<double[]>(
        (std::size_t{1} << chunk_bits) * stride + kLineWords));
    const auto at = reinterpret_cast<std::uintptr_t>(chunks.back().get());
    bases.push_back(chunks.back().get() + (64 - at % 64) % 64 / sizeof(double));
  }
  return n;
}

void PathCompositionRecorder::begin(std::uint32_t ranks, std::uint32_t cpus, std::uint32_t nics) {
  compositions_.reset(stride_);
  fixed_.clear();
  needs_full_ = false;
  arrays_.reset((bucket_byte(buckets_) + sizeof(double) - 1) / sizeof(double));
  waiting_.reset(sizeof(WaitingFlight) / sizeof(double));
  wide_flights_.clear();
  std::fill_n(arrays_.at(arrays_.take()), arrays_.stride, 0.0);  // kNoNoise
  const std::uint32_t zero = allocate();  // kZero: the empty path, ending at 0, never freed
  std::fill_n(words(zero), stride_, 0.0);
  cpus_per_rank_ = cpus;
  nics_per_rank_ = nics;
  ranks_.assign(ranks, RankCarriers{});
  more_cpus_.assign(std::size_t{ranks} * (cpus - 1), Carrier{});
  more_sends_.assign(std::size_t{ranks} * (nics - 1), NicCarrier{});
  more_receives_.assign(std::size_t{ranks} * (nics - 1), NicCarrier{});
  noise_ = {};
  unmatched_ = 0;
}

double PathCompositionRecorder::bytes_per_rank(std::size_t buckets, ParameterTimesLayout times,
                                               bool network) {
  // Measured on recursive doubling at 2^18 and 2^20 ranks: at most 1.1 (periodic noise) to 1.25
  // (exponential noise on every operation) compositions a rank, 1.5 in the noiseless run (of
  // one bucket: no noise array); a noise array a rank under noise on every operation, 0.08 under
  // periodic noise; a line of carriers and one of inbox (the table holds few: recursive
  // doubling's messages wait in their receivers' inboxes). Counted here: 1.2 compositions and
  // arrays a rank (about 350 bytes with 20 buckets; the 2^20 periodic run added 252 MB, 240
  // bytes a rank).
  const double array = static_cast<double>((bucket_byte(buckets) + 7) / 8 * 8);
  const double stride = times == ParameterTimesLayout::kFull || network ? kFullStride : kStride;
  return 1.2 * (stride * sizeof(double) + array) + sizeof(RankCarriers);
}

std::uint32_t PathCompositionRecorder::allocate() {
  const std::uint32_t n = compositions_.take();
  store<std::uint32_t>(words(n), kRefsByte, 1);
  return n;
}

void PathCompositionRecorder::hold(std::uint32_t n) {
  if (n == kNone || n == kZero) return;
  double* w = words(n);
  store<std::uint32_t>(w, kRefsByte, load<std::uint32_t>(w, kRefsByte) + 1);
}

void PathCompositionRecorder::drop(std::uint32_t n) {
  if (n == kNone || n == kZero) return;
  double* w = words(n);
  const auto refs = load<std::uint32_t>(w, kRefsByte) - 1;
  store<std::uint32_t>(w, kRefsByte, refs);
  if (refs != 0) return;
  drop_array(load<std::uint32_t>(w, kArrayByte));
  compositions_.release(n);
}

template <class Noise>
void PathCompositionRecorder::extend(double* w, std::initializer_list<Span> spans,
                                     Noise&& noise) const {
  double from = w[0];
  for (const Span& s : spans) {
    if (s.to == from) continue;  // a span of no length adds nothing
    const auto c = static_cast<std::size_t>(s.category);
    // (A category the layout does not keep: the run has needs_full_ set.)
    if (hi_byte_[c] != 0) {
      path_sums::PathSum sum = sum_in(w, c);
      path_sums::add_span(sum, from, s.to);
      put_sum(w, c, sum);
    }
    if (s.category == PathCategory::kNoise) noise(from, s.to);
    from = s.to;
  }
  w[0] = from;
}

std::uint32_t PathCompositionRecorder::compose(std::uint32_t node,
                                               std::initializer_list<Span> spans,
                                               std::uint8_t bucket, bool consume, Charge charge) {
  if (node == kNone) {  // a released NIC never binds: the recorder and the engine disagree
    ++unmatched_;
    node = kZero;
  }
  if (std::prev(spans.end())->to == words(node)[0]) {  // nothing to add
    if (!consume) hold(node);
    return node;
  }
  std::uint32_t n = node;
  if (!consume || node == kZero || load<std::uint32_t>(words(node), kRefsByte) != 1) {
    n = allocate();
    double* to = words(n);
    const double* from = words(node);
    to[0] = from[0];
    const auto array = load<std::uint32_t>(from, kArrayByte);
    if (array != kNoNoise) {
      double* a = arrays_.at(array);
      store<std::uint32_t>(a, 0, load<std::uint32_t>(a, 0) + 1);
    }
    store<std::uint32_t>(to, kArrayByte, array);
    std::copy(from + kHiByte / sizeof(double), from + stride_, to + kHiByte / sizeof(double));
    if (consume) drop(node);
  }
  double* w = words(n);
  if (timed_ && charge.code != 0) add_charge(w, spans.begin()->to - w[0], charge);
  extend(w, spans, [&](double a, double b) { add_noise(w, bucket, a, b); });
  return n;
}

void PathCompositionRecorder::add_charge(double* w, double length, Charge charge) const {
  // The times of o, g, G and O, in LogGPParameter's order after L.
  const auto time = [&](LogGPParameter p) -> double& { return w[times_word_ + index_of(p) - 1]; };
  if (charge.code == kWholeSpan) {
    time(charge.fixed) += length;
    return;
  }
  const double fixed = std::min(fixed_[(charge.code >> 2) - 1], length);
  time(charge.fixed) += fixed;
  if (const unsigned rest = charge.code & 3U; rest != 0)
    time(rest == 1 ? LogGPParameter::kBigO : LogGPParameter::kBigG) += length - fixed;
}

std::uint16_t PathCompositionRecorder::charge_of(double fixed, BytesCharge bytes) {
  if (!timed_) return 0;
  // Few values: a run's o and g, one a protocol regime and class of pairs.
  auto at = std::find(fixed_.begin(), fixed_.end(), fixed);
  if (at == fixed_.end()) {
    if (fixed_.size() == kMostCharges)
      throw InputError(fmt::format(
          "sensitivity.method = \"path\": the run charges more than {} distinct values of o and "
          "g, more than a path's sums can name; use sensitivity.method = \"differences\"",
          kMostCharges));
    at = fixed_.insert(fixed_.end(), fixed);
  }
  const unsigned rest = bytes == BytesCharge::kO ? 1U : bytes == BytesCharge::kG ? 2U : 0U;
  return static_cast<std::uint16_t>((at - fixed_.begin() + 1) << 2 | rest);
}

void PathCompositionRecorder::drop_array(std::uint32_t a) {
  if (a == kNoNoise) return;
  double* w = arrays_.at(a);
  const auto refs = load<std::uint32_t>(w, 0) - 1;
  store<std::uint32_t>(w, 0, refs);
  if (refs == 0) arrays_.release(a);
}

void PathCompositionRecorder::add_noise(double* w, std::uint8_t bucket, double from, double to) {
  std::uint32_t a = load<std::uint32_t>(w, kArrayByte);
  double* x = arrays_.at(a);
  if (a == kNoNoise || load<std::uint32_t>(x, 0) != 1) {  // shared: this composition's own copy
    const std::uint32_t copy = arrays_.take();
    double* y = arrays_.at(copy);
    std::copy(x, x + arrays_.stride, y);
    store<std::uint32_t>(y, 0, 1);
    drop_array(a);
    store<std::uint32_t>(w, kArrayByte, a = copy);
    x = y;
  }
  auto value = load<float>(x, bucket_byte(bucket));
  path_sums::add_bucket(value, from, to);
  store<float>(x, bucket_byte(bucket), value);
}

void PathCompositionRecorder::insert_flight(std::uint64_t op, std::uint32_t receiver,
                                            const Flight& f) {
  if (op < FlatIndexMap<NarrowFlight>::kEmpty && f.node < (1U << kNodeBits)) {
    const NarrowFlight narrow{f.leave, f.wire_end, f.arrival,
                              f.node | (std::uint32_t{f.bucket} << kNodeBits),
                              static_cast<std::uint32_t>(op)};
    for (NarrowFlight& slot : ranks_[receiver].inbox)
      if (slot.key == FlatIndexMap<NarrowFlight>::kEmpty) {
        slot = narrow;
        return;
      }
    // At the end of the receiver's queue.
    const std::uint32_t n = waiting_.take();
    new (waiting_at(n)) WaitingFlight{narrow, kNoFlight};
    RankCarriers& r = ranks_[receiver];
    if (r.last_waiting == kNoFlight)
      r.first_waiting = n;
    else
      waiting_at(r.last_waiting)->next = n;
    r.last_waiting = n;
  } else {
    wide_flights_.insert({op, f});
  }
}

PathCompositionRecorder::NarrowFlight* PathCompositionRecorder::in_inbox(std::uint32_t receiver,
                                                                         std::uint64_t op) {
  for (NarrowFlight& slot : ranks_[receiver].inbox)
    if (slot.key == op) return &slot;  // (an empty slot's key is no operation below 2^32 - 1)
  return nullptr;
}

bool PathCompositionRecorder::find_flight(std::uint64_t op, std::uint32_t receiver, Flight& f,
                                          bool take) {
  const auto narrow = [&](const NarrowFlight& n) {
    f = Flight{n.leave, n.wire_end, n.arrival, n.node_bucket & ((1U << kNodeBits) - 1),
               static_cast<std::uint8_t>(n.node_bucket >> kNodeBits)};
  };
  if (op < FlatIndexMap<NarrowFlight>::kEmpty) {
    if (NarrowFlight* n = in_inbox(receiver, op); n != nullptr) {
      narrow(*n);
      if (take) n->key = FlatIndexMap<NarrowFlight>::kEmpty;
      return true;
    }
    if (NarrowFlight n; find_waiting(static_cast<std::uint32_t>(op), receiver, n, take)) {
      narrow(n);
      return true;
    }
  }
  if (wide_flights_.size() == 0) return false;
  WideFlight* w = wide_flights_.find(op);
  if (w == nullptr) return false;
  f = w->flight;
  if (take) wide_flights_.erase(w);
  return true;
}

bool PathCompositionRecorder::find_waiting(std::uint32_t op, std::uint32_t receiver,
                                           NarrowFlight& f, bool take) {
  RankCarriers& r = ranks_[receiver];
  std::uint32_t before = kNoFlight;
  for (std::uint32_t n = r.first_waiting; n != kNoFlight; before = n, n = waiting_at(n)->next) {
    WaitingFlight* w = waiting_at(n);
    if (w->flight.key != op) continue;
    f = w->flight;
    if (!take) return true;
    (before == kNoFlight ? r.first_waiting : waiting_at(before)->next) = w->next;
    if (r.last_waiting == n) r.last_waiting = before;
    waiting_.release(n);
    return true;
  }
  return false;
}

void PathCompositionRecorder::set(Carrier& slot, std::uint32_t node, PathCategory first, double mid,
                                  double end, std::uint8_t bucket, std::uint16_t charge) {
  drop(slot.node);
  hold(node);
  slot = Carrier{mid, end, node, first, bucket, charge};
}

void PathCompositionRecorder::set(NicCarrier& slot, std::uint32_t node, PathCategory first,
                                  double end, std::uint16_t charge) {
  drop(slot.node);
  hold(node);
  slot = NicCarrier{end, node, first, charge};
}

void PathCompositionRecorder::release_idle_nics(std::uint32_t host) {
  // With one CPU a rank, every operation waits for it: a NIC free no later than the CPU binds no
  // operation again (at equal times the CPU binds first), unless a rendezvous moves it.
  if (cpus_per_rank_ != 1) return;
  const double cpu_end = ranks_[host].cpu.end;
  for (std::uint8_t i = 0; i < nics_per_rank_; ++i)
    for (NicCarrier* nic : {&send_nic(host, i), &receive_nic(host, i)})
      if (nic->node != kNone && nic->end <= cpu_end) {
        drop(nic->node);
        nic->node = kNone;
      }
}

template <class A, class B>
std::uint32_t PathCompositionRecorder::start_from(A& binding, B& other) {
  drop(other.node);
  other.node = kNone;  // both are set again by the operation
  const std::uint32_t from = compose(binding, true);
  binding.node = kNone;  // its hold passed to `from`
  return from;
}

void PathCompositionRecorder::calc(const CalcSeen& c) {
  if (layout_ == ParameterTimesLayout::kCompact) needs_full_ = true;
  Carrier& slot = cpu(c.host, c.cpu);
  path_sums::binding(c.start, {slot.end}, unmatched_);
  const std::uint32_t from = compose(slot, true);
  slot.node = kNone;
  const double work = c.start + c.length;
  if (c.end != work) noise_.add(c.end - work);
  set(slot, from, PathCategory::kCalc, work, c.end,
      step_bucket_of(bucket_, {c.host, c.index, true, 0, 0}, slot.bucket));
  drop(from);
  release_idle_nics(c.host);
}

void PathCompositionRecorder::send(const SendSeen& s) {
  Carrier& cpu_slot = cpu(s.host, s.cpu);
  NicCarrier& nic_slot = send_nic(s.host, s.nic);
  const bool on_cpu = path_sums::binding(s.start, {cpu_slot.end, nic_slot.end}, unmatched_) == 0;
  const std::uint32_t from =
      on_cpu ? start_from(cpu_slot, nic_slot) : start_from(nic_slot, cpu_slot);
  const std::uint8_t bucket = step_bucket_of(bucket_, {s.host, s.index, false, s.peer, s.tag}, 0);
  // The noise charged, in the order critical_path.cpp adds it: the message's, then the CPU's.
  if (s.arrival != s.wire_end) noise_.add(s.arrival - s.wire_end);
  const double work = s.start + s.overhead;
  if (s.cpu_end != work) noise_.add(s.cpu_end - work);
  hold(from);
  insert_flight(s.op, s.peer, Flight{s.start + s.o, s.wire_end, s.arrival, from, bucket});
  set(nic_slot, from, PathCategory::kGap, s.nic_end, charge_of(s.g, s.nic_bytes));
  set(cpu_slot, from, PathCategory::kOverhead, work, s.cpu_end, bucket,
      charge_of(s.o, BytesCharge::kO));
  drop(from);
  release_idle_nics(s.host);
}

void PathCompositionRecorder::message(const MessageSeen& m) {
  // An eager message is done with (taken out of the table); a rendezvous one is kept until its
  // receive takes it (on a network: taken out, and put back as the network let it go).
  const bool networked = m.left > 0.0;
  Flight flight{};
  const bool found = find_flight(m.send, m.host, flight, m.eager || networked);
  const double emerged = std::max(m.emerged, flight.arrival);
  const double left = std::max(m.left, emerged);
  Carrier& cpu_slot = cpu(m.host, m.cpu);
  NicCarrier& nic_slot = receive_nic(m.host, m.nic);
  // critical_path.cpp's order: the arrival, the CPU, the NIC, the network's release.
  const std::size_t pick =
      path_sums::binding(m.start, {flight.arrival, cpu_slot.end, nic_slot.end, left}, unmatched_);
  const bool done = m.eager && found;
  const bool kept = networked && found && !m.eager;
  if (kept) {
    // Its path up to `left` from now on (its hold passes to the table).
    flight = Flight{left, left, left, compose(flight, emerged, left, true), flight.bucket};
    insert_flight(m.send, m.host, flight);
  }
  std::uint32_t from;
  if (pick == 0 || pick == 3) {
    drop(cpu_slot.node), drop(nic_slot.node);
    cpu_slot.node = nic_slot.node = kNone;
    from = networked && !kept ? compose(flight, emerged, left, done) : compose(flight, done);
  } else {
    from = pick == 1 ? start_from(cpu_slot, nic_slot) : start_from(nic_slot, cpu_slot);
    if (done) drop(flight.node);
  }
  const double work = m.start + m.overhead;
  if (m.cpu_end != work) noise_.add(m.cpu_end - work);
  set(nic_slot, from, PathCategory::kGap, m.nic_end, charge_of(m.g, m.nic_bytes));
  set(cpu_slot, from, PathCategory::kOverhead, work, m.cpu_end, flight.bucket,
      charge_of(m.o, m.cpu_bytes));
  drop(from);
  release_idle_nics(m.host);
}

void PathCompositionRecorder::rendezvous(const RendezvousSeen& r) {
  if (layout_ == ParameterTimesLayout::kCompact) needs_full_ = true;
  Flight flight{};
  if (!find_flight(r.send, r.receiver, flight, true)) {
    ++unmatched_;
    return;
  }
  const std::uint32_t arrived = compose(flight, true);
  // The sender's CPU and NIC continue from the message's path where they were free earlier.
  Carrier& cpu_slot = cpu(r.sender, r.cpu);
  if (cpu_slot.end < r.time)
    set(cpu_slot, arrived, PathCategory::kRendezvous, r.time, r.time, flight.bucket);
  NicCarrier& nic_slot = send_nic(r.sender, r.nic);
  if (nic_slot.end < r.time) set(nic_slot, arrived, PathCategory::kRendezvous, r.time);
  drop(arrived);
  release_idle_nics(r.sender);
}

void PathCompositionRecorder::fetch_far(const AheadSeen& a) {
  // The rank's carriers, and the inbox an entry is read from (a message's: its receiver's) or
  // written to (a send's: its peer's).
  const RankCarriers* r = &ranks_[a.host];
  __builtin_prefetch(r, 1);
  if (a.message)
    __builtin_prefetch(r->inbox, 1);
  else
    __builtin_prefetch(ranks_[a.peer].inbox, 1);
}

void PathCompositionRecorder::fetch_near(const AheadSeen& a) {
  // Whole, the composition the event most likely starts from (a message's, if it arrives after
  // the CPU frees, else the CPU's); of the other, the line with its reference count. (A free
  // composition a copy writes was freed recently: still in the cache.)
  const RankCarriers& r = ranks_[a.host];
  const NarrowFlight* f = a.message ? in_inbox(a.host, a.op) : nullptr;
  const bool from_message = f != nullptr && f->arrival >= r.cpu.end;
  if (r.cpu.node != kNone) prefetch_lines(words(r.cpu.node), from_message ? 1 : stride_);
  if (f != nullptr)
    prefetch_lines(words(f->node_bucket & ((1U << kNodeBits) - 1)), from_message ? stride_ : 1);
}

CriticalPath PathCompositionRecorder::result(std::span<const double> finish) const {
  CriticalPath path = path_ending_at(finish, noise_.value(), unmatched_);
  if (finish.empty()) return path;
  // The path ends at the last rank's CPU that ends last: its composition and last spans.
  const std::uint32_t last = path.last_ranks.front();
  Carrier end{};
  for (std::uint8_t c = 0; c < cpus_per_rank_; ++c)
    if (const Carrier& x = cpu_at(last, c); x.end == path.completion) {
      end = x;
      break;
    }
  const double* from = words(end.node == kNone ? kZero : end.node);
  std::array<double, kFullStride> w{};
  std::copy(from, from + stride_, w.begin());
  if (timed_ && end.charge != 0)
    add_charge(w.data(), end.mid - w[0], {end.charge, LogGPParameter::kSmallO});
  std::array<float, kPathBuckets> buckets{};
  const double* array = arrays_.at(load<std::uint32_t>(w.data(), kArrayByte));
  for (std::size_t b = 0; b < buckets_; ++b) buckets[b] = load<float>(array, bucket_byte(b));
  extend(w.data(), {{end.first, end.mid}, {PathCategory::kNoise, end.end}},
         [&](double a, double b) { path_sums::add_bucket(buckets[end.bucket], a, b); });
  for (std::size_t c = 0; c < kPathCategories; ++c)
    path.time[c] = path_sums::value_of(sum_in(w.data(), c));
  for (std::size_t b = 0; b < buckets_; ++b) path.noise_by_bucket[b] = buckets[b];
  if (timed_) {
    ParameterTimes& t = path.parameter_ns.emplace();
    t[index_of(LogGPParameter::kL)] = path.time[static_cast<std::size_t>(PathCategory::kWire)];
    for (std::size_t p = 1; p < kLogGPParameters; ++p) t[p] = w[times_word_ + p - 1];
  }
  return path;
}

}  // namespace collnoise
