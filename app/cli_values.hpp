#pragma once
// Validators for the command line's values, shared by every command. CLI11 alone would take "-1"
// for an unsigned option as 2^64 - 1, saturate larger numbers, let "nan" through a range and
// take an empty value (an unset shell variable) as 0 or as "not given": each of these is refused
// here with its own text, and CLI11 names the option.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace collnoise {

/// A whole number in [lo, hi], written in decimal and nothing else. A negative number and an
/// empty value are refused with their own text.
CLI::Validator whole_number_in(std::uint64_t lo, std::uint64_t hi);

/// A finite number in [lo, hi] ("nan" is refused: no comparison holds for it).
CLI::Validator number_in(double lo, double hi);

/// Any value but the empty one: an empty path or list (an unset shell variable) is refused, not
/// taken as "not given".
CLI::Validator non_empty();

/// Adds `--max-memory-gib` to `cmd` (a number of GiB in [1e-6, 1e12]; 0, the default, leaves 80%
/// of the machine's memory): "refuse <what> estimated to need more".
void add_max_memory_option(CLI::App& cmd, double& gib, const std::string& what);

/// Sets the command's memory limit (core/memory_limit.hpp) from `--max-memory-gib`; 0: the
/// default.
void set_memory_limit_gib(double gib);

/// An unsigned 64-bit integer written in decimal, nothing else; InputError naming `option`.
std::uint64_t parse_u64(const std::string& text, const char* option);

}  // namespace collnoise
