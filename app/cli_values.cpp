#include "app/cli_values.hpp"

#include <fmt/format.h>

#include <charconv>
#include <limits>

#include "core/errors.hpp"
#include "core/memory_limit.hpp"

namespace collnoise {
namespace {

// Why `text` is not a whole number in [lo, hi], or empty if it is one.
std::string whole_number_fault(const std::string& text, std::uint64_t lo, std::uint64_t hi) {
  if (text.empty())
    return fmt::format("an empty value is not a number: give one in [{}, {}]", lo, hi);
  if (text.front() == '-')
    return fmt::format("{} is negative: give a whole number in [{}, {}]", text, lo, hi);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range)
    return fmt::format("{} is too large: give a whole number in [{}, {}]", text, lo, hi);
  if (error != std::errc() || end != text.data() + text.size() || value < lo || value > hi)
    return fmt::format("{} is invalid: give a whole number in [{}, {}]", text, lo, hi);
  return {};
}

}  // namespace

CLI::Validator whole_number_in(std::uint64_t lo, std::uint64_t hi) {
  return CLI::Validator([=](std::string& text) { return whole_number_fault(text, lo, hi); },
                        fmt::format("INT in [{}, {}]", lo, hi));
}

CLI::Validator number_in(double lo, double hi) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        if (text.empty())
          return fmt::format("an empty value is not a number: give one in [{:g}, {:g}]", lo, hi);
        double value = 0.0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error != std::errc() || end != text.data() + text.size() ||
            !(value >= lo && value <= hi))
          return fmt::format("{} is invalid: give a number in [{:g}, {:g}]", text, lo, hi);
        return {};
      },
      fmt::format("NUMBER in [{:g}, {:g}]", lo, hi));
}

CLI::Validator non_empty() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text.empty() ? "an empty value is not allowed (an unset shell variable?)" : "";
      },
      "NON-EMPTY");
}

void add_max_memory_option(CLI::App& cmd, double& gib, const std::string& what) {
  cmd.add_option("--max-memory-gib", gib,
                 fmt::format("refuse {} estimated to need more (default: 80% of the machine's "
                             "memory)",
                             what))
      ->check(number_in(1e-6, 1e12));
}

void set_memory_limit_gib(double gib) {
  set_memory_limit(gib * 1024.0 * 1024.0 * 1024.0);
}

std::uint64_t parse_u64(const std::string& text, const char* option) {
  const std::string fault = whole_number_fault(text, 0, std::numeric_limits<std::uint64_t>::max());
  if (!fault.empty()) throw InputError(fmt::format("{} {}", option, fault));
  std::uint64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

}  // namespace collnoise
