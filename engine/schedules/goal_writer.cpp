#include "engine/schedules/goal_writer.hpp"

#include <fmt/format.h>

#include <string>

#include "core/stop_request.hpp"

namespace collnoise {
namespace {

std::string wildcard_or(std::uint32_t value, std::uint32_t any) {
  return value == any ? std::string("-1") : std::to_string(value);
}

void write_operation(std::string& out, const Schedule& s, std::uint64_t op, std::uint32_t local) {
  const Operation o = s.operation(op);
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

}  // namespace

void write_goal(const Schedule& schedule, std::ostream& out) {
  std::string text = fmt::format("num_ranks {}\n", schedule.ranks());
  for (std::uint32_t r = 0; r < schedule.ranks(); ++r) {
    if ((r & 0xfff) == 0) throw_if_stop_requested();
    text += fmt::format("\nrank {} {{\n", r);
    const std::uint64_t first = schedule.first_op(r);
    for (std::uint32_t k = 0; k < schedule.ops_of(r); ++k)
      write_operation(text, schedule, first + k, k);
    for (std::uint32_t k = 0; k < schedule.ops_of(r); ++k)
      schedule.for_each_dependent(r, first + k, [&](const Schedule::Dependent& d) {
        text += fmt::format("l{} {} l{}\n", d.local, d.started ? "irequires" : "requires", k);
      });
    text += "}\n";
    if (text.size() > (std::size_t{1} << 22)) {
      out << text;
      text.clear();
    }
  }
  out << text;
}

}  // namespace collnoise
