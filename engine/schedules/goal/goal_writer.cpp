#include "engine/schedules/goal/goal_writer.hpp"

#include <fmt/format.h>

#include <string>

#include "core/stop_poll.hpp"

namespace collnoise {
namespace {

std::string wildcard_or(std::uint32_t value, std::uint32_t any) {
  return value == any ? std::string("-1") : std::to_string(value);
}

template <class View>
void write_operation(std::string& out, const View& v, std::uint64_t op, std::uint32_t local) {
  const Operation o = v.operation(op);
  switch (o.kind) {
    case OpKind::kCalc:
      out += fmt::format("l{}: calc {}", local, o.size);
      if (o.cpu != 0) out += fmt::format(" cpu {}", o.cpu);
      break;
    case OpKind::kSend:
    case OpKind::kRecv:
      out +=
          fmt::format("l{}: {} {}b {} {} tag {}", local, o.kind == OpKind::kSend ? "send" : "recv",
                      o.size, o.kind == OpKind::kSend ? "to" : "from",
                      wildcard_or(o.peer, kAnyPeer), wildcard_or(o.tag, kAnyTag));
      if (o.cpu != 0 || o.nic != 0) out += fmt::format(" cpu {}", o.cpu);
      if (o.nic != 0) out += fmt::format(" nic {}", o.nic);
      break;
  }
  out += '\n';
}

template <class Sched>
void write_any_goal(const Sched& schedule, std::ostream& out) {
  // Polled per operation: one rank may hold millions (a linear gather's root).
  StopPoll poll;
  std::string text = fmt::format("num_ranks {}\n", schedule.ranks());
  for (std::uint32_t r = 0; r < schedule.ranks(); ++r) {
    const auto v = schedule.view(r);
    text += fmt::format("\nrank {} {{\n", r);
    const std::uint64_t first = v.first();
    for (std::uint32_t k = 0; k < v.count(); ++k) {
      poll.tick();
      write_operation(text, v, first + k, k);
    }
    for (std::uint32_t k = 0; k < v.count(); ++k)
      v.for_each_dependent(first + k, [&](const Schedule::Dependent& d) {
        text += fmt::format("l{} {} l{}\n", d.local, d.started ? "irequires" : "requires", k);
      });
    text += "}\n";
    poll.tick();
    if (text.size() > (std::size_t{1} << 22)) {
      out << text;
      text.clear();
    }
  }
  out << text;
}

}  // namespace

void write_goal(const Schedule& schedule, std::ostream& out) {
  write_any_goal(schedule, out);
}

void write_goal(const GeneratedSchedule& schedule, std::ostream& out) {
  write_any_goal(schedule, out);
}

}  // namespace collnoise
