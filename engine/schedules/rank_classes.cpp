#include "engine/schedules/rank_classes.hpp"

#include <xxhash.h>

#include <unordered_map>
#include <vector>

namespace collnoise {
namespace {

// A peer may follow from the rank as an offset ((rank + offset) mod N) or be the same rank for
// every member of a class (a root); a class keeps both readings of each peer while its members
// agree on them.
constexpr std::uint8_t kByOffset = 1, kFixed = 2;

struct Candidate {
  std::uint32_t representative;
  std::vector<std::uint32_t> offset;   ///< per operation: (peer - rank) mod N of its members
  std::vector<std::uint8_t> readings;  ///< per operation: kByOffset | kFixed, as still possible
};

bool has_peer(const Operation& o) {
  return o.kind != OpKind::kCalc && o.peer != kAnyPeer;
}

std::uint32_t offset_of(std::uint32_t peer, std::uint32_t rank, std::uint32_t n) {
  return static_cast<std::uint32_t>((std::uint64_t{peer} + n - rank) % n);
}

// A rank's program without its peers: what two members of a class share exactly.
std::uint64_t shape_hash(const Schedule::RankView& v, std::vector<std::uint64_t>& words) {
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
  return XXH3_64bits(words.data(), words.size() * sizeof(std::uint64_t));
}

bool same_shape(const Schedule::RankView& a, const Schedule::RankView& b,
                std::vector<Schedule::Dependent>& da) {
  if (a.count() != b.count()) return false;
  for (std::uint32_t k = 0; k < a.count(); ++k) {
    const std::uint64_t x = a.first() + k, y = b.first() + k;
    const Operation p = a.operation(x), q = b.operation(y);
    if (p.kind != q.kind || p.size != q.size || p.tag != q.tag || p.cpu != q.cpu ||
        p.nic != q.nic || (p.peer == kAnyPeer) != (q.peer == kAnyPeer) ||
        a.dependencies(x) != b.dependencies(y))
      return false;
    da.clear();
    a.for_each_dependent(x, [&](const Schedule::Dependent& d) { da.push_back(d); });
    std::size_t i = 0;
    bool same = true;
    b.for_each_dependent(y, [&](const Schedule::Dependent& d) {
      same = same && i < da.size() && da[i].local == d.local && da[i].started == d.started;
      ++i;
    });
    if (!same || i != da.size()) return false;
  }
  return true;
}

// Whether `rank` reads its peers as the class does; if so the class keeps only the readings
// both share.
bool join(Candidate& c, const Schedule::RankView& v, std::uint32_t rank, std::uint32_t n,
          const Schedule& s) {
  const Schedule::RankView rep = s.view(c.representative);
  std::vector<std::uint8_t> narrowed(c.readings.size());
  for (std::uint32_t k = 0; k < v.count(); ++k) {
    const Operation o = v.operation(v.first() + k);
    if (!has_peer(o)) continue;
    std::uint8_t r = 0;
    if ((c.readings[k] & kByOffset) && offset_of(o.peer, rank, n) == c.offset[k]) r |= kByOffset;
    if ((c.readings[k] & kFixed) && o.peer == rep.peer(rep.first() + k)) r |= kFixed;
    if (r == 0) return false;
    narrowed[k] = r;
  }
  c.readings = std::move(narrowed);
  return true;
}

Candidate found_class(const Schedule::RankView& v, std::uint32_t rank, std::uint32_t n) {
  Candidate c{rank, std::vector<std::uint32_t>(v.count(), 0),
              std::vector<std::uint8_t>(v.count(), 0)};
  for (std::uint32_t k = 0; k < v.count(); ++k) {
    const Operation o = v.operation(v.first() + k);
    if (!has_peer(o)) continue;
    c.offset[k] = offset_of(o.peer, rank, n);
    c.readings[k] = kByOffset | kFixed;
  }
  return c;
}

// The class's program (a one-rank schedule: its peers are the rules') and its peer rules.
GeneratedSchedule::RankClass program_of(const Candidate& c, const Schedule& s) {
  const Schedule::RankView v = s.view(c.representative);
  ScheduleBuilder b;
  GeneratedSchedule::RankClass out;
  for (std::uint32_t k = 0; k < v.count(); ++k) {
    Operation o = v.operation(v.first() + k);
    PeerRule rule;  // a calc's, or a receive from any rank: the peer as it stands
    rule.value = o.peer;
    if (has_peer(o) && (c.readings[k] & kByOffset)) {
      rule.mode = PeerRule::Mode::kAdd;
      rule.value = c.offset[k];
    }
    out.peers.push_back(rule);
    o.peer = 0;
    b.add(o);
  }
  for (std::uint32_t k = 0; k < v.count(); ++k)
    v.for_each_dependent(v.first() + k,
                         [&](const Schedule::Dependent& d) { b.depend(d.local, k, d.started); });
  b.end_rank("a rank class");
  out.program = b.finish();
  return out;
}

}  // namespace

std::optional<GeneratedSchedule> rank_classes(const Schedule& s, std::uint32_t max_classes) {
  const std::uint32_t n = s.ranks();
  if (n == 0) return std::nullopt;
  std::vector<Candidate> classes;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> by_shape;
  std::vector<std::uint32_t> class_of(n);
  std::vector<std::uint64_t> words;
  std::vector<Schedule::Dependent> dependents;
  std::uint64_t class_ops = 0;
  for (std::uint32_t r = 0; r < n; ++r) {
    const Schedule::RankView v = s.view(r);
    std::vector<std::uint32_t>& same = by_shape[shape_hash(v, words)];
    std::uint32_t found = ~std::uint32_t{0};
    for (const std::uint32_t c : same)
      if (same_shape(s.view(classes[c].representative), v, dependents) &&
          join(classes[c], v, r, n, s)) {
        found = c;
        break;
      }
    if (found == ~std::uint32_t{0}) {
      if (classes.size() == max_classes) return std::nullopt;
      found = static_cast<std::uint32_t>(classes.size());
      classes.push_back(found_class(v, r, n));
      same.push_back(found);
      class_ops += v.count();
      // Worth it only while the programs stay small beside the schedule.
      if (class_ops * 4 > s.operations()) return std::nullopt;
    }
    class_of[r] = found;
  }
  std::vector<GeneratedSchedule::RankClass> programs;
  programs.reserve(classes.size());
  for (const Candidate& c : classes) programs.push_back(program_of(c, s));
  // Runs of one class where the layout has few of them (most collectives: one run); else the
  // table.
  std::vector<GeneratedSchedule::RankRun> runs;
  for (std::uint32_t r = 0; r < n && runs.size() <= 64; ++r) {
    if (!runs.empty() && runs.back().first_class == class_of[r])
      ++runs.back().end;
    else
      runs.push_back({r, r + 1, class_of[r], 1});
  }
  if (runs.size() <= 64) return GeneratedSchedule(n, RankFold{}, std::move(programs), runs);
  return GeneratedSchedule(n, std::move(programs), std::move(class_of));
}

}  // namespace collnoise
