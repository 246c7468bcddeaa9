#include "engine/schedules/paths/critical_path.hpp"

#include <algorithm>
#include <cmath>

#include "engine/schedules/paths/path_sums.hpp"

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
    case PathCategory::kNetwork:
      return "network";
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
  cpu_steps_.assign(std::size_t{ranks} * cpus, 0);
  send_nics_.assign(std::size_t{ranks} * nics, kRoot);
  receive_nics_.assign(std::size_t{ranks} * nics, kRoot);
  noise_ = {};
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
  std::array<double, 4> ends{};
  std::size_t n = 0;
  for (const std::uint32_t c : candidates) ends[n++] = nodes_[c].end;
  return *(candidates.begin() + path_sums::binding(t, std::span(ends.data(), n), unmatched_));
}

void CriticalPathRecorder::add_noise(double amount) {
  noise_.add(amount);
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
  std::uint8_t& step = cpu_step(c.host, c.cpu);
  step = step_bucket_of(bucket_, {c.host, c.index, true, 0, 0}, step);
  assign(slot, occupy(from, PathCategory::kCalc, PathLane::kCpu, c.start, c.length, c.end, c.host,
                      c.index, step));
}

void CriticalPathRecorder::send(const SendSeen& s) {
  std::uint32_t& cpu_slot = cpu(s.host, s.cpu);
  std::uint32_t& nic_slot = send_nic(s.host, s.nic);
  const std::uint32_t from = binding(s.start, {cpu_slot, nic_slot});
  const std::uint8_t bucket = step_bucket_of(bucket_, {s.host, s.index, false, s.peer, s.tag}, 0);
  cpu_step(s.host, s.cpu) = bucket;
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

std::uint32_t CriticalPathRecorder::through_network(std::uint32_t arrived, const MessageSeen& m,
                                                    std::uint32_t rank, std::uint32_t index,
                                                    std::uint8_t bucket) {
  // Its first byte crossing the route's own latencies is wire, its time in the network after
  // that the network's (segments of no length add nothing: without a network both are 0).
  const std::uint32_t out =
      m.emerged > nodes_[arrived].end
          ? extend(arrived, PathCategory::kWire, PathLane::kWire, m.emerged, rank, index, bucket)
          : arrived;
  if (!(m.left > nodes_[out].end)) return out;
  return extend(out, PathCategory::kNetwork, PathLane::kWire, m.left, rank, index, bucket);
}

void CriticalPathRecorder::message(const MessageSeen& m) {
  const auto in_flight = flight_.find(m.send);
  const Flight flight =
      in_flight != flight_.end() ? in_flight->second : Flight{kRoot, 0, std::uint8_t{0}};
  const std::uint32_t arrived = flight.node;
  const std::uint32_t index = flight.index;
  const std::uint8_t bucket = flight.bucket;
  // The message as the network let it go (its arrival without one), held while it is read.
  const std::uint32_t out = through_network(arrived, m, m.origin, index, bucket);
  hold(out);
  std::uint32_t& cpu_slot = cpu(m.host, m.cpu);
  std::uint32_t& nic_slot = receive_nic(m.host, m.nic);
  // The message's arrival first, then the CPU, the NIC, and the network's release last.
  const std::uint32_t from = binding(m.start, {arrived, cpu_slot, nic_slot, out});
  cpu_step(m.host, m.cpu) = bucket;
  hold(from);  // the slots below may drop their holds on it
  assign(nic_slot,
         extend(from, PathCategory::kGap, PathLane::kReceiveNic, m.nic_end, m.host, index, bucket));
  assign(cpu_slot, occupy(from, PathCategory::kOverhead, PathLane::kCpu, m.start, m.overhead,
                          m.cpu_end, m.host, index, bucket));
  release(from);
  if (in_flight != flight_.end()) {
    release(arrived);
    if (m.eager) {
      // An eager message is done with.
      flight_.erase(in_flight);
    } else {
      // A rendezvous one is kept until its receive takes it, from where the network let it go.
      in_flight->second.node = out;
      hold(out);
    }
  }
  release(out);
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
  if (nodes_[cpu(r.sender, r.cpu)].end < r.time) {
    assign(cpu(r.sender, r.cpu), done);
    cpu_step(r.sender, r.cpu) = flight.bucket;
  }
  if (nodes_[send_nic(r.sender, r.nic)].end < r.time) assign(send_nic(r.sender, r.nic), done);
  release(done);
}

CriticalPath path_ending_at(std::span<const double> finish, double noise_total,
                            std::uint64_t unmatched) {
  CriticalPath path;
  path.unmatched = unmatched;
  path.noise_total = noise_total;
  if (finish.empty()) return path;
  path.completion = *std::max_element(finish.begin(), finish.end());
  path.last_ranks = path_sums::ranks_finishing_at(finish, path.completion);
  return path;
}

CriticalPath CriticalPathRecorder::result(std::span<const double> finish) const {
  CriticalPath path = path_ending_at(finish, noise_.value(), unmatched_);
  if (finish.empty()) return path;
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
  std::vector<std::uint32_t> chain;
  for (; node != kRoot; node = nodes_[node].parent) chain.push_back(node);
  // Sums in time order, as path_composition.cpp adds them, for the same bits.
  std::array<path_sums::PathSum, kPathCategories> exact{};
  std::array<float, kPathBuckets> by_bucket{};
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const Node& n = nodes_[*it];
    const double start = nodes_[n.parent].end;
    path_sums::add_span(exact[static_cast<std::size_t>(n.category)], start, n.end);
    if (n.category == PathCategory::kNoise)
      path_sums::add_bucket(by_bucket[n.bucket], start, n.end);
    if (keep_segments_)
      path.segments.push_back(PathSegment{n.rank, n.lane, n.category, n.index, start, n.end});
  }
  for (std::size_t c = 0; c < kPathCategories; ++c) path.time[c] = path_sums::value_of(exact[c]);
  for (std::size_t b = 0; b < kPathBuckets; ++b) path.noise_by_bucket[b] = by_bucket[b];
  return path;
}

}  // namespace collnoise
