#include "engine/schedules/schedule/rank_classes.hpp"

#include <xxhash.h>

#include <algorithm>

#include "core/stop_poll.hpp"

namespace collnoise {
namespace {

// A peer may follow from the rank as an offset ((rank + offset) mod N) or be the same rank for
// every member of a class (a root); a class keeps both readings of each peer while its members
// agree on them.
constexpr std::uint8_t kByOffset = 1, kFixed = 2;

// Class programs may take this many operations before the collector weighs them against the
// operations seen (the first ranks of a regular schedule open most of its classes).
constexpr std::uint64_t kFreeClassOperations = std::uint64_t{1} << 20;

bool has_peer(const Operation& o) {
  return o.kind != OpKind::kCalc && o.peer != kAnyPeer;
}

std::uint32_t offset_of(std::uint32_t peer, std::uint32_t rank, std::uint32_t n) {
  return static_cast<std::uint32_t>((std::uint64_t{peer} + n - rank) % n);
}

// A rank's program without its peers, as words: what two members of a class share exactly.
void shape_of(const Schedule::RankView& v, std::vector<std::uint64_t>& words) {
  words.clear();
  words.push_back(v.count());
  for (std::uint64_t op = v.first(); op < v.first() + v.count(); ++op) {
    const Operation o = v.operation(op);
    words.push_back(static_cast<std::uint64_t>(o.kind) | std::uint64_t{o.cpu} << 8 |
                    std::uint64_t{o.nic} << 16 | std::uint64_t{o.peer == kAnyPeer} << 24);
    words.push_back(o.size);
    words.push_back(o.tag);
    words.push_back(v.dependencies(op));
    v.for_each_dependent(op, [&](const Schedule::Dependent& d) {
      words.push_back(std::uint64_t{d.local} << 1 | (d.started ? 1U : 0U));
    });
  }
}

std::uint64_t hash_of(const std::vector<std::uint64_t>& words) {
  return XXH3_64bits(words.data(), words.size() * sizeof(std::uint64_t));
}

}  // namespace

RankClassCollector::RankClassCollector(std::uint32_t ranks, std::uint32_t max_classes)
    : ranks_(ranks), max_classes_(max_classes) {}

RankClassCollector::Class RankClassCollector::open(const Schedule::RankView& v, std::uint32_t rank,
                                                   const std::vector<std::uint64_t>& shape) const {
  ScheduleBuilder b;
  b.append_rank(v);
  Class c{b.finish(), shape, std::vector<std::uint32_t>(v.count(), 0),
          std::vector<std::uint8_t>(v.count(), 0)};
  for (std::uint32_t k = 0; k < v.count(); ++k) {
    const Operation o = v.operation(v.first() + k);
    if (!has_peer(o)) continue;
    c.offset[k] = offset_of(o.peer, rank, ranks_);
    c.readings[k] = kByOffset | kFixed;
  }
  return c;
}

// Whether `rank` reads its peers as the class does; if so the class keeps only the readings
// both share.
bool RankClassCollector::join(Class& c, const Schedule::RankView& v, std::uint32_t rank) {
  narrowed_.assign(c.readings.size(), 0);
  for (std::uint32_t k = 0; k < v.count(); ++k) {
    const Operation o = v.operation(v.first() + k);
    if (!has_peer(o)) continue;
    std::uint8_t r = 0;
    if ((c.readings[k] & kByOffset) && offset_of(o.peer, rank, ranks_) == c.offset[k])
      r |= kByOffset;
    if ((c.readings[k] & kFixed) && o.peer == c.program.peer(k)) r |= kFixed;
    if (r == 0) return false;
    narrowed_[k] = r;
  }
  c.readings.swap(narrowed_);
  return true;
}

bool RankClassCollector::add(const Schedule::RankView& v) {
  if (failed_ || class_of_.size() == ranks_) return false;
  const auto rank = static_cast<std::uint32_t>(class_of_.size());
  shape_of(v, words_);
  std::vector<std::uint32_t>& same = by_shape_[hash_of(words_)];
  for (const std::uint32_t c : same)
    if (classes_[c].shape == words_ && join(classes_[c], v, rank)) {
      class_of_.push_back(c);
      operations_ += v.count();
      return true;
    }
  operations_ += v.count();
  class_operations_ += v.count();
  if (classes_.size() == max_classes_ ||
      class_operations_ > std::max(kFreeClassOperations, operations_ / 2)) {
    failed_ = true;
    return false;
  }
  same.push_back(static_cast<std::uint32_t>(classes_.size()));
  class_of_.push_back(static_cast<std::uint32_t>(classes_.size()));
  classes_.push_back(open(v, rank, words_));
  return true;
}

// The peer operation k of a member has: by its offset where every member agrees on one (both
// readings agree for every member where both are left).
std::uint32_t RankClassCollector::peer_of(const Class& c, std::uint32_t k,
                                          std::uint32_t rank) const {
  if (c.readings[k] & kByOffset)
    return static_cast<std::uint32_t>((std::uint64_t{rank} + c.offset[k]) % ranks_);
  return c.program.peer(k);
}

void RankClassCollector::replay(ScheduleBuilder& b) const {
  StopPoll poll;  // every rank read so far: seconds at millions of ranks
  for (std::uint32_t r = 0; r < class_of_.size(); ++r) {
    const Class& c = classes_[class_of_[r]];
    const Schedule::RankView v = c.program.view(0);
    poll.tick(v.count() + std::uint64_t{1});
    for (std::uint32_t k = 0; k < v.count(); ++k) {
      Operation o = v.operation(k);
      if (has_peer(o)) o.peer = peer_of(c, k, r);
      b.add(o);
    }
    for (std::uint32_t k = 0; k < v.count(); ++k)
      v.for_each_dependent(k,
                           [&](const Schedule::Dependent& d) { b.depend(d.local, k, d.started); });
    b.end_rank("a replayed rank");
  }
}

std::optional<GeneratedSchedule> RankClassCollector::finish() const {
  if (failed_ || class_of_.size() != ranks_ || ranks_ == 0 || class_operations_ * 4 > operations_)
    return std::nullopt;
  std::vector<GeneratedSchedule::RankClass> programs;
  programs.reserve(classes_.size());
  for (const Class& c : classes_) {
    GeneratedSchedule::RankClass out{c.program, {}};
    for (std::uint32_t k = 0; k < c.readings.size(); ++k) {
      PeerRule rule;  // a calc's, or a receive from any rank: the peer as it stands
      rule.value = c.program.peer(k);
      if (c.readings[k] & kByOffset) {
        rule.mode = PeerRule::Mode::kAdd;
        rule.value = c.offset[k];
      }
      out.peers.push_back(rule);
    }
    programs.push_back(std::move(out));
  }
  // Runs of one class where the layout has few of them (most collectives: one run); else the
  // table.
  std::vector<GeneratedSchedule::RankRun> runs;
  for (std::uint32_t r = 0; r < ranks_ && runs.size() <= 64; ++r) {
    if (!runs.empty() && runs.back().first_class == class_of_[r])
      ++runs.back().end;
    else
      runs.push_back({r, r + 1, class_of_[r], 1});
  }
  if (runs.size() <= 64) return GeneratedSchedule(ranks_, RankFold{}, std::move(programs), runs);
  return GeneratedSchedule(ranks_, std::move(programs), class_of_);
}

std::optional<GeneratedSchedule> rank_classes(const Schedule& s, std::uint32_t max_classes) {
  RankClassCollector collector(s.ranks(), max_classes);
  StopPoll poll;
  for (std::uint32_t r = 0; r < s.ranks(); ++r) {
    poll.tick(s.ops_of(r) + std::uint64_t{1});
    if (!collector.add(s.view(r))) return std::nullopt;
  }
  return collector.finish();
}

}  // namespace collnoise
