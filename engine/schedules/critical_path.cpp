#include "engine/schedules/critical_path.hpp"

#include <algorithm>
#include <cmath>

namespace collnoise {

std::string_view path_category_name(PathCategory c) {
  switch (c) {
    case PathCategory::kCalc:
      return "calc";
    case PathCategory::kOverhead:
      return "overhead";
    case PathCategory::kGap:
      return "gap";
    case PathCategory::kWire:
      return "wire";
    case PathCategory::kNoise:
      return "noise";
    case PathCategory::kRendezvous:
      return "rendezvous";
  }
  return "?";
}

CriticalPathRecorder::CriticalPathRecorder(StepBucket bucket, bool keep_segments)
    : bucket_(std::move(bucket)), keep_segments_(keep_segments) {}

void CriticalPathRecorder::begin(std::uint32_t ranks, std::uint32_t cpus, std::uint32_t nics) {
  nodes_.clear();
  free_.clear();
  flight_.clear();
  // The root: time zero, held for ever (never counted, never freed).
  nodes_.push_back(Node{0.0, kRoot, 1, 0, 0, PathCategory::kCalc, PathLane::kCpu, 0});
  cpus_per_rank_ = cpus;
  nics_per_rank_ = nics;
  cpus_.assign(std::size_t{ranks} * cpus, kRoot);
  send_nics_.assign(std::size_t{ranks} * nics, kRoot);
  receive_nics_.assign(std::size_t{ranks} * nics, kRoot);
  noise_sum_ = noise_carry_ = 0.0;
  unmatched_ = 0;
}

std::uint32_t CriticalPathRecorder::extend(std::uint32_t from, PathCategory category, PathLane lane,
                                           double end, std::uint32_t rank, std::uint64_t index,
                                           std::uint8_t bucket) {
  // A segment of no length adds nothing: the path stays where it was.
  if (end == nodes_[from].end) return from;
  hold(from);
  const Node node{end, from, 0, rank, static_cast<std::uint32_t>(index), category, lane, bucket};
  if (!free_.empty()) {
    const std::uint32_t at = free_.back();
    free_.pop_back();
    nodes_[at] = node;
    return at;
  }
  nodes_.push_back(node);
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

void CriticalPathRecorder::release(std::uint32_t node) {
  // Freeing a node drops its hold on the one before it: walk back while the counts reach zero.
  while (node != kRoot && --nodes_[node].refs == 0) {
    free_.push_back(node);
    node = nodes_[node].parent;
  }
}

void CriticalPathRecorder::assign(std::uint32_t& slot, std::uint32_t node) {
  hold(node);
  release(slot);
  slot = node;
}

std::uint32_t CriticalPathRecorder::binding(double t,
                                            std::initializer_list<std::uint32_t> candidates) {
  std::uint32_t latest = kRoot;
  for (const std::uint32_t c : candidates) {
    if (nodes_[c].end == t) return c;
    if (nodes_[c].end < t && nodes_[c].end > nodes_[latest].end) latest = c;
  }
  ++unmatched_;
  return latest;
}

void CriticalPathRecorder::add_noise(double amount) {
  const double sum = noise_sum_ + amount;
  noise_carry_ += std::abs(noise_sum_) >= std::abs(amount) ? (noise_sum_ - sum) + amount
                                                           : (amount - sum) + noise_sum_;
  noise_sum_ = sum;
}

std::uint32_t CriticalPathRecorder::occupy(std::uint32_t from, PathCategory category, PathLane lane,
                                           double start, double length, double end,
                                           std::uint32_t rank, std::uint64_t index,
                                           std::uint8_t bucket) {
  const std::uint32_t work = extend(from, category, lane, start + length, rank, index, bucket);
  return noise_after(work, lane, end, rank, index, bucket);
}

std::uint32_t CriticalPathRecorder::noise_after(std::uint32_t work, PathLane lane, double end,
                                                std::uint32_t rank, std::uint64_t index,
                                                std::uint8_t bucket) {
  const double work_end = nodes_[work].end;
  if (end == work_end) return work;
  add_noise(end - work_end);
  return extend(work, PathCategory::kNoise, lane, end, rank, index, bucket);
}

void CriticalPathRecorder::calc(const CalcSeen& c) {
  std::uint32_t& slot = cpu(c.host, c.cpu);
  const std::uint32_t from = binding(c.start, {slot});
  assign(slot, occupy(from, PathCategory::kCalc, PathLane::kCpu, c.start, c.length, c.end, c.host,
                      c.index, bucket_of(c.host, c.index)));
}

void CriticalPathRecorder::send(const SendSeen& s) {
  std::uint32_t& cpu_slot = cpu(s.host, s.cpu);
  std::uint32_t& nic_slot = send_nic(s.host, s.nic);
  const std::uint32_t from = binding(s.start, {cpu_slot, nic_slot});
  const std::uint8_t bucket = bucket_of(s.host, s.index);
  // The message leaves after o: the CPU's overhead segment is shared when it is o itself.
  const std::uint32_t leave =
      extend(from, PathCategory::kOverhead, PathLane::kCpu, s.start + s.o, s.host, s.index, bucket);
  hold(leave);
  const std::uint32_t wire =
      extend(leave, PathCategory::kWire, PathLane::kWire, s.wire_end, s.host, s.index, bucket);
  std::uint32_t arrived = wire;
  if (s.arrival != s.wire_end) {
    add_noise(s.arrival - s.wire_end);
    arrived =
        extend(wire, PathCategory::kNoise, PathLane::kWire, s.arrival, s.host, s.index, bucket);
  }
  hold(arrived);
  flight_[s.op] = Flight{arrived, static_cast<std::uint32_t>(s.index), bucket};
  const std::uint32_t busy =
      s.overhead == s.o ? noise_after(leave, PathLane::kCpu, s.cpu_end, s.host, s.index, bucket)
                        : occupy(from, PathCategory::kOverhead, PathLane::kCpu, s.start, s.overhead,
                                 s.cpu_end, s.host, s.index, bucket);
  const std::uint32_t gap =
      extend(from, PathCategory::kGap, PathLane::kSendNic, s.nic_end, s.host, s.index, bucket);
  assign(nic_slot, gap);  // before the CPU: `from` may be either slot's node
  assign(cpu_slot, busy);
  release(leave);
}

void CriticalPathRecorder::message(const MessageSeen& m) {
  const auto in_flight = flight_.find(m.send);
  const Flight flight =
      in_flight != flight_.end() ? in_flight->second : Flight{kRoot, 0, std::uint8_t{0}};
  const std::uint32_t arrived = flight.node;
  std::uint32_t& cpu_slot = cpu(m.host, m.cpu);
  std::uint32_t& nic_slot = receive_nic(m.host, m.nic);
  const std::uint32_t from = binding(m.start, {arrived, cpu_slot, nic_slot});
  const std::uint8_t bucket = flight.bucket;
  const std::uint32_t index = flight.index;
  hold(from);  // the slots below may drop their holds on it
  assign(nic_slot,
         extend(from, PathCategory::kGap, PathLane::kReceiveNic, m.nic_end, m.host, index, bucket));
  assign(cpu_slot, occupy(from, PathCategory::kOverhead, PathLane::kCpu, m.start, m.overhead,
                          m.cpu_end, m.host, index, bucket));
  release(from);
  // An eager message is done with; a rendezvous one is kept until its receive takes it.
  if (m.eager && in_flight != flight_.end()) {
    release(arrived);
    flight_.erase(in_flight);
  }
}

void CriticalPathRecorder::rendezvous(const RendezvousSeen& r) {
  const auto in_flight = flight_.find(r.send);
  if (in_flight == flight_.end()) {
    ++unmatched_;
    return;
  }
  const Flight flight = in_flight->second;
  const std::uint32_t arrived = flight.node;
  flight_.erase(in_flight);
  const std::uint32_t done = extend(arrived, PathCategory::kRendezvous, PathLane::kCpu, r.time,
                                    r.sender, flight.index, flight.bucket);
  hold(done);
  release(arrived);
  for (std::uint32_t* slot : {&cpu(r.sender, r.cpu), &send_nic(r.sender, r.nic)})
    if (nodes_[*slot].end < r.time) assign(*slot, done);
  release(done);
}

namespace {

/// a + b as an exact pair (Knuth's TwoSum).
struct Exact {
  double hi = 0.0, lo = 0.0;
};
Exact two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}
void accumulate(Exact& total, double hi, double lo) {
  const Exact s = two_sum(total.hi, hi);
  const Exact t = two_sum(s.lo, total.lo + lo);
  total = two_sum(s.hi, t.hi);
  total.lo += t.lo;
}

}  // namespace

CriticalPath CriticalPathRecorder::result(std::span<const double> finish) const {
  CriticalPath path;
  path.unmatched = unmatched_;
  path.noise_total = noise_sum_ + noise_carry_;
  if (finish.empty()) return path;
  path.completion = *std::max_element(finish.begin(), finish.end());
  for (std::uint32_t r = 0; r < finish.size(); ++r)
    if (finish[r] == path.completion) path.last_ranks.push_back(r);
  // The path ends at the last rank's CPU that ends last.
  const std::uint32_t last = path.last_ranks.front();
  std::uint32_t node = kRoot;
  for (std::uint32_t c = 0; c < cpus_per_rank_; ++c) {
    const std::uint32_t n = cpus_[std::size_t{last} * cpus_per_rank_ + c];
    if (nodes_[n].end == path.completion) {
      node = n;
      break;
    }
  }
  std::array<Exact, kPathCategories> exact{};
  std::array<Exact, kPathBuckets> by_bucket{};
  for (; node != kRoot; node = nodes_[node].parent) {
    const Node& n = nodes_[node];
    const Node& before = nodes_[n.parent];
    // The segment's length exactly: end - start as a pair (both are doubles).
    const Exact d = two_sum(n.end, -before.end);
    accumulate(exact[static_cast<std::size_t>(n.category)], d.hi, d.lo);
    if (n.category == PathCategory::kNoise) accumulate(by_bucket[n.bucket], d.hi, d.lo);
    if (keep_segments_)
      path.segments.push_back(PathSegment{n.rank, n.lane, n.category, n.index, before.end, n.end});
  }
  for (std::size_t c = 0; c < kPathCategories; ++c) path.time[c] = exact[c].hi + exact[c].lo;
  for (std::size_t b = 0; b < kPathBuckets; ++b)
    path.noise_by_bucket[b] = by_bucket[b].hi + by_bucket[b].lo;
  std::reverse(path.segments.begin(), path.segments.end());
  return path;
}

}  // namespace collnoise
