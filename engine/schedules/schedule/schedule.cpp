#include "engine/schedules/schedule/schedule.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/errors.hpp"
#include "core/memory_limit.hpp"
#include "core/stop_poll.hpp"

namespace collnoise {

Operation Schedule::operation(std::uint64_t op) const {
  const Record& r = ops_[op];
  return {r.kind, r.size, r.peer, r.tag, r.cpu, r.nic};
}

std::uint64_t Schedule::memory_bytes() const {
  const auto bytes = [](const auto& v) {
    return static_cast<std::uint64_t>(v.capacity() * sizeof(v[0]));
  };
  return bytes(starts_) + bytes(ops_) + bytes(dep_count_) + bytes(edge_);
}

std::uint64_t Schedule::ready_at_start() const {
  return static_cast<std::uint64_t>(std::count(dep_count_.begin(), dep_count_.end(), 0U));
}

std::uint64_t ScheduleBuilder::memory_bytes() const {
  const auto bytes = [](const auto& v) {
    return static_cast<std::uint64_t>(v.capacity() * sizeof(v[0]));
  };
  return s_.memory_bytes() + bytes(pending_edges_) + bytes(remaining_) + bytes(begin_) +
         bytes(ready_) + bytes(sorted_);
}

double ScheduleBuilder::largest_array_bytes() const {
  const auto bytes = [](const auto& v) { return static_cast<double>(v.capacity() * sizeof(v[0])); };
  return std::max({bytes(s_.ops_), bytes(s_.edge_), bytes(s_.dep_count_), bytes(s_.starts_),
                   bytes(pending_edges_)});
}

void ScheduleBuilder::reserve(std::uint64_t operations) {
  const auto n = static_cast<std::size_t>(operations);
  s_.ops_.reserve(n);
  s_.dep_count_.reserve(n);
  s_.edge_.reserve(n);
}

std::uint32_t ScheduleBuilder::add(const Operation& op) {
  if (pending_ops_ >= Schedule::kLocalMask)
    throw InputError(
        fmt::format("rank {} has more than {} operations", ranks_done(), Schedule::kLocalMask));
  s_.ops_.push_back(Schedule::Record{op.size, op.peer, op.tag, 0, op.kind, op.cpu, op.nic});
  s_.dep_count_.push_back(0);
  s_.max_cpu_ = std::max(s_.max_cpu_, op.cpu);
  s_.max_nic_ = std::max(s_.max_nic_, op.nic);
  return static_cast<std::uint32_t>(pending_ops_++);
}

void ScheduleBuilder::depend(std::uint32_t later, std::uint32_t earlier, bool started) {
  pending_edges_.emplace_back(earlier, later | (started ? Schedule::kStartedBit : 0U));
  ++s_.dep_count_[s_.starts_.back().op + later];
}

std::optional<std::string> ScheduleBuilder::close_rank() {
  const std::uint64_t first = s_.starts_.back().op;
  const auto n = static_cast<std::uint32_t>(pending_ops_);
  // Dependents of each operation in the order they were declared: a counting sort by the
  // earlier operation (stable; linear, and no allocation once the buffers have grown).
  begin_.assign(std::size_t{n} + 1, 0);
  for (const auto& [earlier, later] : pending_edges_) ++begin_[earlier + 1];
  for (std::uint32_t k = 0; k < n; ++k) begin_[k + 1] += begin_[k];
  sorted_.resize(pending_edges_.size());
  ready_.assign(begin_.begin(), begin_.end() - 1);  // the next free place of each operation
  for (const auto& [earlier, later] : pending_edges_) sorted_[ready_[earlier]++] = later;
  // A cycle leaves operations that can never start (Kahn's algorithm over the rank).
  remaining_.assign(s_.dep_count_.begin() + static_cast<std::ptrdiff_t>(first),
                    s_.dep_count_.begin() + static_cast<std::ptrdiff_t>(first + n));
  ready_.clear();
  for (std::uint32_t k = 0; k < n; ++k)
    if (remaining_[k] == 0) ready_.push_back(k);
  std::uint32_t released = 0;
  while (!ready_.empty()) {
    const std::uint32_t k = ready_.back();
    ready_.pop_back();
    ++released;
    for (std::uint32_t e = begin_[k]; e < begin_[k + 1]; ++e) {
      const std::uint32_t later = sorted_[e] & Schedule::kLocalMask;
      if (--remaining_[later] == 0) ready_.push_back(later);
    }
  }
  if (released != n) {
    std::vector<std::uint32_t> stuck;
    for (std::uint32_t k = 0; k < n && stuck.size() < 8; ++k)
      if (remaining_[k] != 0) stuck.push_back(k);
    return fmt::format(
        "the dependencies form a cycle: {} operations can never start (the first: operations {} "
        "of the rank, counted from 0)",
        n - released, fmt::join(stuck, ", "));
  }
  for (std::uint32_t k = 0; k < n; ++k) s_.ops_[first + k].edge_end = begin_[k + 1];
  s_.edge_.insert(s_.edge_.end(), sorted_.begin(), sorted_.end());
  s_.starts_.push_back(Schedule::RankStart{first + n, s_.edge_.size()});
  pending_ops_ = 0;
  pending_edges_.clear();
  return std::nullopt;
}

void ScheduleBuilder::drop_last_rank() {
  if (ranks_done() == 0 || pending_ops_ != 0 || !pending_edges_.empty())
    throw RuntimeFailure("a schedule's last rank was dropped while none was ended");
  s_.starts_.pop_back();
  const Schedule::RankStart& start = s_.starts_.back();
  s_.ops_.resize(start.op);
  s_.dep_count_.resize(start.op);
  s_.edge_.resize(start.edge);
}

Schedule ScheduleBuilder::finish() {
  if (pending_ops_ != 0 || !pending_edges_.empty())
    throw RuntimeFailure("a schedule was finished inside a rank");
  Schedule out = std::move(s_);
  s_ = Schedule{};
  // Give back slack above an eighth (shrinking copies the array, worth it only then).
  const auto trim = [](auto& v) {
    if (v.capacity() - v.size() > v.size() / 8) v.shrink_to_fit();
  };
  trim(out.ops_);
  trim(out.dep_count_);
  trim(out.edge_);
  return out;
}

Schedule ScheduleBuilder::finish_timing(std::uint32_t timed) {
  if (timed == 0 || timed > ranks_done())
    throw RuntimeFailure("a schedule's timed ranks are not among its ranks");
  Schedule out = finish();
  out.timed_ranks_ = timed;
  return out;
}

double repeated_schedule_bytes(double ranks, double operations, double dependencies, double joins,
                               std::uint32_t cycles, bool with_compute) {
  // 28 bytes a record and its count, 4 a dependency (schedule.hpp), 16 a rank's start.
  const double c = cycles;
  const double ops = c * (operations + (with_compute ? ranks : 0.0));
  const double edges = c * dependencies + (c - 1.0) * joins + (with_compute ? joins : 0.0);
  return 28.0 * ops + 4.0 * edges + 16.0 * ranks;
}

Schedule repeat_schedule(const Schedule& one, std::uint32_t cycles, std::uint64_t compute_ns) {
  {
    // Refused before it is built if it cannot fit: its joins grow as a rank's first operations
    // times its last ones (the root of a linear scatter: (N - 1)^2 per cycle).
    StopPoll poll;
    double joins = 0.0, dependencies = 0.0;
    for (std::uint32_t r = 0; r < one.ranks(); ++r) {
      poll.tick(one.ops_of(r) + std::uint64_t{1});
      joins += cycle_join_dependencies(one.view(r), compute_ns > 0);
    }
    for (std::uint64_t op = 0; op < one.operations(); ++op) dependencies += one.dependencies(op);
    const double bytes = repeated_schedule_bytes(one.ranks(), static_cast<double>(one.operations()),
                                                 dependencies, joins, cycles, compute_ns > 0);
    check_memory_limit(static_cast<double>(one.memory_bytes()) + bytes,
                       fmt::format("repeating a schedule of {} ranks {} times ({:.3g} dependencies "
                                   "between cycles)",
                                   one.ranks(), cycles, (cycles - 1.0) * joins));
  }
  StopPoll poll;
  ScheduleBuilder b;
  for (std::uint32_t r = 0; r < one.ranks(); ++r) {
    poll.tick(std::uint64_t{one.ops_of(r)} * cycles + 1);
    const std::uint64_t first = one.first_op(r);
    const std::uint32_t n = one.ops_of(r);
    // The operations of a cycle nothing else in it waits for: the next cycle waits for them.
    std::vector<std::uint32_t> sinks;
    for (std::uint32_t k = 0; k < n; ++k) {
      bool has_dependents = false;
      one.for_each_dependent(r, first + k,
                             [&](const Schedule::Dependent&) { has_dependents = true; });
      if (!has_dependents) sinks.push_back(k);
    }
    std::vector<std::uint32_t> previous;  // local indices of the previous cycle's sinks
    for (std::uint32_t c = 0; c < cycles; ++c) {
      std::vector<std::uint32_t> gate = previous;
      if (compute_ns > 0) {
        const std::uint32_t calc = b.add(Operation{OpKind::kCalc, compute_ns, 0, 0, 0, 0});
        for (const std::uint32_t p : previous) b.depend(calc, p, false);
        gate = {calc};
      }
      const std::uint32_t base = b.ops_in_rank();
      for (std::uint32_t k = 0; k < n; ++k) b.add(one.operation(first + k));
      for (std::uint32_t k = 0; k < n; ++k)
        one.for_each_dependent(r, first + k, [&](const Schedule::Dependent& d) {
          b.depend(base + d.local, base + k, d.started);
        });
      for (std::uint32_t k = 0; k < n; ++k)
        if (one.dependencies(first + k) == 0) {
          poll.tick(gate.size() + 1);
          for (const std::uint32_t g : gate) b.depend(base + k, g, false);
        }
      previous.clear();
      for (const std::uint32_t k : sinks) previous.push_back(base + k);
    }
    b.end_rank([r] { return fmt::format("rank {}", r); });
  }
  return b.finish();
}

std::string operation_text(const Operation& o) {
  const auto peer = [](std::uint32_t p) {
    return p == kAnyPeer ? std::string("any") : std::to_string(p);
  };
  const std::string tag = o.tag == kAnyTag ? std::string("any") : std::to_string(o.tag);
  switch (o.kind) {
    case OpKind::kSend:
      return fmt::format("send to {} ({} b), tag {}", peer(o.peer), o.size, tag);
    case OpKind::kRecv:
      return fmt::format("recv from {} ({} b), tag {}", peer(o.peer), o.size, tag);
    case OpKind::kCalc:
      break;
  }
  return fmt::format("calc {} ns", o.size);
}

}  // namespace collnoise
