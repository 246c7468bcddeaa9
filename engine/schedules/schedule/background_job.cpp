#include "engine/schedules/schedule/background_job.hpp"

#include <fmt/format.h>

#include <variant>

#include "core/errors.hpp"

namespace collnoise {
namespace {

// Appends rank view `v` to `b`, every named peer moved by `offset`.
template <class View>
void append_moved(ScheduleBuilder& b, const View& v, std::uint32_t offset) {
  for (std::uint64_t op = v.first(); op < v.first() + v.count(); ++op) {
    Operation o = v.operation(op);
    if (o.kind != OpKind::kCalc && o.peer != kAnyPeer) o.peer += offset;
    b.add(o);
  }
  for (std::uint64_t op = v.first(); op < v.first() + v.count(); ++op)
    v.for_each_dependent(op, [&](const Schedule::Dependent& d) {
      b.depend(d.local, static_cast<std::uint32_t>(op - v.first()), d.started);
    });
  b.end_rank("a background job's rank");
}

}  // namespace

Schedule with_background_job(const AnySchedule& collective, const Schedule& job) {
  const std::uint32_t p = ranks_of(collective);
  if (std::uint64_t{p} + job.ranks() > (std::uint64_t{1} << 30))
    throw InputError(fmt::format(
        "a collective of {} ranks beside a background job of {}: the engine takes at most 2^30", p,
        job.ranks()));
  ScheduleBuilder b;
  b.reserve(operations_of(collective) + job.operations());
  std::visit(
      [&](const auto& s) {
        for (std::uint32_t r = 0; r < p; ++r) b.append_rank(s.view(r));
      },
      collective);
  for (std::uint32_t q = 0; q < job.ranks(); ++q) append_moved(b, job.view(q), p);
  return b.finish_timing(p);
}

}  // namespace collnoise
