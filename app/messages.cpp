#include "app/messages.hpp"

#include <fmt/format.h>

#include "core/process_group.hpp"

namespace collnoise {
namespace {

void say(const char* prefix, const std::string& message) {
  if (!ProcessGroup::world().is_root()) return;
  fmt::print(stderr, "collnoise: {}{}\n", prefix, one_line(message));
}

}  // namespace

std::string one_line(std::string message) {
  for (char& c : message)
    if (c == '\n' || c == '\r') c = ' ';
  return message;
}

void print_note(const std::string& message) {
  say("note: ", message);
}

void print_warning(const std::string& message) {
  say("warning: ", message);
}

void print_message(const std::string& message) {
  say("", message);
}

h5::ReadOptions read_options(bool verify) {
  return {verify ? h5::Verify::kYes : h5::Verify::kNo, print_note};
}

}  // namespace collnoise
