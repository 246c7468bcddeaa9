#include "core/units.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "core/shown_text.hpp"

namespace collnoise {
namespace {

// Both micro signs: U+00B5 (the keyboard's) and U+03BC (Greek mu) look alike; messages show one.
constexpr std::array<TimeUnit, 6> kTimeUnits{
    {{"s", 0}, {"ms", -3}, {"us", -6}, {"\u00b5s", -6, true}, {"\u03bcs", -6, true}, {"ns", -9}}};

struct SizeUnit {
  std::string_view name;
  int twos;  ///< bytes per unit = 2^twos 5^fives
  int fives;
};
constexpr std::array<SizeUnit, 7> kSizeUnits{{{"B", 0, 0},
                                              {"KiB", 10, 0},
                                              {"MiB", 20, 0},
                                              {"GiB", 30, 0},
                                              {"kB", 3, 3},
                                              {"MB", 6, 6},
                                              {"GB", 9, 9}}};

// Beyond this a written exponent is refused outright (no double, no size comes near it).
constexpr long long kMaxExponent = 100'000;

/// A number with a unit as written: "2.5e-3 us" is mantissa "2.5", digits "25", written
/// exponent -3, unit "us".
struct Written {
  bool negative = false;
  std::string_view mantissa;  ///< digits and point as written, without sign or exponent
  std::string digits;         ///< the mantissa's digits without the point
  long long exponent = 0;     ///< the written exponent
  long long fraction_digits = 0;
  std::string_view unit;  ///< empty when none
};

const SizeUnit* find_size_unit(std::string_view name) {
  for (const auto& u : kSizeUnits)
    if (u.name == name) return &u;
  return nullptr;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

[[noreturn]] void refuse(const std::string& key, std::string_view text, const std::string& why) {
  throw InputError(fmt::format("{} = \"{}\" {}", key, text, why));
}

std::string example(Dimension dimension) {
  switch (dimension) {
    case Dimension::kTimePerByte:
      return "\"0.4ns/B\"";
    case Dimension::kSize:
      return "\"64KiB\"";
    default:
      return "\"2.5us\"";
  }
}

// "<number>[ ]<unit>", the number as TOML writes a decimal: [+-]digits[.digits][(e|E)[+-]digits].
Written split(const std::string& key, std::string_view text, Dimension dimension) {
  const std::string_view s = trimmed(text);
  const auto malformed = [&] {
    refuse(key, text,
           fmt::format("is not a number with a unit (for example {}; units: {})",
                       example(dimension), accepted_units(dimension)));
  };
  Written w;
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) w.negative = s[i++] == '-';
  const std::size_t start = i;
  const auto take_digits = [&] {
    const std::size_t from = i;
    while (i < s.size() && is_digit(s[i])) w.digits += s[i++];
    return static_cast<long long>(i - from);
  };
  if (take_digits() == 0) malformed();
  if (i < s.size() && s[i] == '.') {
    ++i;
    w.fraction_digits = take_digits();
    if (w.fraction_digits == 0) malformed();
  }
  w.mantissa = s.substr(start, i - start);
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    const std::size_t digits_from = j;
    while (j < s.size() && is_digit(s[j])) ++j;
    if (j > digits_from) {  // otherwise the 'e' begins the unit (and is refused as one)
      std::string_view exponent = s.substr(i + 1, j - i - 1);
      if (exponent.front() == '+') exponent.remove_prefix(1);
      const auto [end, ec] =
          std::from_chars(exponent.data(), exponent.data() + exponent.size(), w.exponent);
      if (ec != std::errc() || w.exponent > kMaxExponent || w.exponent < -kMaxExponent)
        refuse(key, text, "is out of range: its exponent is too large");
      i = j;
    }
  }
  while (i < s.size() && is_blank(s[i])) ++i;
  w.unit = s.substr(i);
  if (w.unit.empty())
    refuse(key, text,
           fmt::format("has no unit: write a number without quotes for {}, or add a unit ({})",
                       dimension == Dimension::kSize          ? "bytes"
                       : dimension == Dimension::kTimePerByte ? "seconds per byte"
                                                              : "seconds",
                       accepted_units(dimension)));
  return w;
}

[[noreturn]] void refuse_unit(const std::string& key, std::string_view text, std::string_view unit,
                              Dimension dimension) {
  const bool time = find_time_unit(unit) != nullptr;
  const bool size = find_size_unit(unit) != nullptr;
  const char* wanted = dimension == Dimension::kSize          ? "a size in bytes"
                       : dimension == Dimension::kTimePerByte ? "a time per byte"
                                                              : "a time in seconds";
  if (dimension == Dimension::kTimePerByte && time)
    refuse(key, text,
           fmt::format("is a time, but {} is a time per byte: write \"{}/B\" (units: {})", key,
                       trimmed(text), accepted_units(dimension)));
  if ((time && dimension == Dimension::kSize) || (size && dimension != Dimension::kSize))
    refuse(key, text,
           fmt::format("is {}, but {} is {} (units: {})", time ? "a time" : "a size", key, wanted,
                       accepted_units(dimension)));
  refuse(
      key, text,
      fmt::format("has an unknown unit \"{}\": {} takes {}", unit, key, accepted_units(dimension)));
}

// Divides a decimal digit string by d in place when the division is exact.
bool divide_exactly(std::string& digits, unsigned d) {
  std::string quotient;
  unsigned remainder = 0;
  for (const char c : digits) {
    const unsigned current = remainder * 10 + static_cast<unsigned>(c - '0');
    if (!quotient.empty() || current / d != 0) quotient += static_cast<char>('0' + current / d);
    remainder = current % d;
  }
  if (remainder != 0) return false;
  digits = quotient.empty() ? "0" : quotient;
  return true;
}

// The decimal "<sign><mantissa>e<exponent>" rounded once to the nearest double; nullopt beyond
// the range of doubles. Every time unit's conversion ends here.
std::optional<double> rounded_once(bool negative, std::string_view mantissa, long long exponent) {
  const std::string decimal = fmt::format("{}{}e{}", negative ? "-" : "", mantissa, exponent);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(decimal.data(), decimal.data() + decimal.size(), value);
  if (ec != std::errc() || end != decimal.data() + decimal.size()) return std::nullopt;
  return value;
}

// The time units as messages list them: "s, ms, us (or µs), ns", each followed by `per`.
std::string listed_time_units(std::string_view per) {
  std::string out;
  for (std::size_t i = 0; i < kTimeUnits.size(); ++i) {
    const TimeUnit& u = kTimeUnits[i];
    if (u.alias) {
      if (!kTimeUnits[i - 1].alias) out += fmt::format(" (or {}{})", u.name, per);
      continue;
    }
    out += fmt::format("{}{}{}", out.empty() ? "" : ", ", u.name, per);
  }
  return out;
}

}  // namespace

std::span<const TimeUnit> time_units() {
  return kTimeUnits;
}

const TimeUnit* find_time_unit(std::string_view name) {
  for (const auto& u : kTimeUnits)
    if (u.name == name) return &u;
  return nullptr;
}

const TimeUnit& time_unit(std::string_view name, std::string_view what) {
  if (const TimeUnit* u = find_time_unit(name)) return *u;
  throw InputError(fmt::format("{} {} is not a time unit ({})", what, quoted_text(name),
                               accepted_units(Dimension::kTime)));
}

std::optional<double> decimal_in_seconds(std::string_view number, const TimeUnit& unit) {
  // [+-] (digits [. [digits]] | . digits) [(e|E) [+-] digits], the whole text.
  std::size_t i = 0;
  const bool negative = i < number.size() && number[i] == '-';
  if (i < number.size() && (number[i] == '+' || number[i] == '-')) ++i;
  const auto skip_digits = [&] {
    const std::size_t from = i;
    while (i < number.size() && is_digit(number[i])) ++i;
    return i - from;
  };
  const std::size_t mantissa_from = i;
  std::size_t digits = skip_digits();
  if (i < number.size() && number[i] == '.') {
    ++i;
    digits += skip_digits();
  }
  if (digits == 0) return std::nullopt;
  // ".5" and "5." written as from_chars reads them: "0.5", "5".
  std::string_view as_written = number.substr(mantissa_from, i - mantissa_from);
  if (as_written.back() == '.') as_written.remove_suffix(1);
  const std::string mantissa =
      fmt::format("{}{}", as_written.front() == '.' ? "0" : "", as_written);
  long long exponent = 0;
  if (i < number.size() && (number[i] == 'e' || number[i] == 'E')) {
    std::string_view exponent_text = number.substr(i + 1);
    if (!exponent_text.empty() && exponent_text.front() == '+') exponent_text.remove_prefix(1);
    const auto [end, ec] = std::from_chars(exponent_text.data(),
                                           exponent_text.data() + exponent_text.size(), exponent);
    if (ec != std::errc() || end != exponent_text.data() + exponent_text.size() ||
        exponent > kMaxExponent || exponent < -kMaxExponent)
      return std::nullopt;
    i = number.size();
  }
  if (i != number.size()) return std::nullopt;
  return rounded_once(negative, mantissa, exponent + unit.power_of_ten);
}

double value_in_seconds(double value, const TimeUnit& unit) {
  if (value == 0.0 || !std::isfinite(value)) return value;
  std::array<char, 64> text{};
  const auto [end, ec] = std::to_chars(text.data(), text.data() + text.size(), value);
  const auto seconds = decimal_in_seconds(std::string_view(text.data(), end), unit);
  return seconds ? *seconds : value * std::pow(10.0, unit.power_of_ten);
}

Dimension dimension_of_unit(std::string_view unit) {
  if (unit == "seconds") return Dimension::kTime;
  if (unit == "seconds per byte") return Dimension::kTimePerByte;
  if (unit == "bytes") return Dimension::kSize;
  return Dimension::kNone;
}

std::string accepted_units(Dimension dimension) {
  switch (dimension) {
    case Dimension::kTime:
      return listed_time_units("");
    case Dimension::kTimePerByte:
      return listed_time_units("/B");
    case Dimension::kSize:
      return "B, KiB, MiB, GiB, kB, MB, GB";
    default:
      return "none";
  }
}

double seconds_from_text(const std::string& key, std::string_view text, Dimension dimension) {
  const Written w = split(key, text, dimension);
  std::string_view unit = w.unit;
  if (dimension == Dimension::kTimePerByte) {
    if (!unit.ends_with("/B")) refuse_unit(key, text, unit, dimension);
    unit.remove_suffix(2);
  }
  const TimeUnit* time = find_time_unit(unit);
  if (!time) refuse_unit(key, text, w.unit, dimension);
  // The decimal in seconds, rounded once: "2.5us" is read as "2.5e-6", exactly as the number
  // 2.5e-6 is (multiplying by 1e-6 would round twice); decimal_in_seconds() ends the same way.
  const auto seconds = rounded_once(w.negative, w.mantissa, w.exponent + time->power_of_ten);
  if (!seconds) refuse(key, text, "is out of range: beyond what a double holds");
  return *seconds;
}

std::int64_t bytes_from_text(const std::string& key, std::string_view text) {
  const Written w = split(key, text, Dimension::kSize);
  const SizeUnit* size = find_size_unit(w.unit);
  if (!size) refuse_unit(key, text, w.unit, Dimension::kSize);
  // digits * 10^exponent * 2^twos * 5^fives, in integers: 10 = 2 * 5, so a negative power of ten
  // takes its twos and fives from the unit first, then from the digits, or is no whole number.
  std::string digits = w.digits;
  const auto first = digits.find_first_not_of('0');
  if (first == std::string::npos) return 0;
  digits.erase(0, first);
  long long exponent = w.exponent - w.fraction_digits;
  while (digits.back() == '0') {
    digits.pop_back();
    ++exponent;
  }
  long long twos = size->twos;
  long long fives = size->fives;
  if (exponent >= 0) {
    twos += exponent;
    fives += exponent;
  }
  for (long long n = exponent; n < 0; ++n) {
    const bool whole = (twos > 0 ? (--twos, true) : divide_exactly(digits, 2)) &&
                       (fives > 0 ? (--fives, true) : divide_exactly(digits, 5));
    if (!whole) refuse(key, text, "is not a whole number of bytes");
  }
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  const auto too_large = [&] { refuse(key, text, "is out of range: beyond 2^63 - 1 bytes"); };
  std::uint64_t bytes = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), bytes);
  if (ec != std::errc() || bytes > kMax) too_large();
  for (; twos > 0; --twos) {
    if (bytes > kMax / 2) too_large();
    bytes *= 2;
  }
  for (; fives > 0; --fives) {
    if (bytes > kMax / 5) too_large();
    bytes *= 5;
  }
  const auto value = static_cast<std::int64_t>(bytes);
  return w.negative ? -value : value;
}

}  // namespace collnoise
