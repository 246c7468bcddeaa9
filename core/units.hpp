#pragma once
// Values with units in run files (docs/run-files.md, "Values with units"). A time key takes a
// number of seconds or a string with a unit ("2.5us", "100 ns", "6.67ms"); a size key a number
// of bytes or a string with a unit ("64KiB"). Every key declares its unit (KeySpec::unit), and
// the parameter reader converts through here, so no model reads units itself.
//
// A time is converted as its decimal written in seconds would be: "2.5us" is the decimal 2.5e-6
// rounded once to the nearest double, the same double as the number 2.5e-6 in the run file
// (not 2.5 * 1e-6, which may differ in the last bit). Both spellings give the same bits, the
// same stream identity and so the same random streams. A size is exact: an integer number of
// bytes ("1.5KiB" is 1536; "1.5B" is refused).
//
// The time units are declared here once, for every reader of times: run-file values, detour
// traces (noise.unit), Netgauge latency and LogGP files (microseconds), measured times and
// compare's --unit. Each converts a number written in a unit the same way, by
// decimal_in_seconds(): the same text gives the same bits in every reader.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace collnoise {

/// What a key's unit lets a run file write as a string with a unit.
enum class Dimension {
  kNone,         ///< no unit accepted (a pure number, or a unit we do not convert)
  kTime,         ///< "seconds": s, ms, us (or µs), ns
  kTimePerByte,  ///< "seconds per byte": a time unit per byte, "0.4ns/B"
  kSize,         ///< "bytes": B, KiB, MiB, GiB (powers of 1024), kB, MB, GB (powers of 1000)
};

/// A time unit: a name as written and its power of ten (seconds per unit = 10^power_of_ten).
struct TimeUnit {
  std::string_view name;  ///< "us"
  int power_of_ten = 0;   ///< -6
  bool alias = false;     ///< another spelling of the unit before it in the table ("µs")
};

/// The time units, the one table every reader uses: s, ms, us, ns, and the micro sign's two
/// code points (U+00B5, U+03BC) as spellings of us.
std::span<const TimeUnit> time_units();

/// The unit written `name` ("ns", "µs"), or nullptr when the table has none.
const TimeUnit* find_time_unit(std::string_view name);

/// The unit written `name`; InputError "<what> '<name>' is not a time unit (s, ms, us (or µs),
/// ns)" otherwise.
const TimeUnit& time_unit(std::string_view name, std::string_view what);

/// A number written in `unit` ("2.5", "-1e-3", "7", "+.5", "1.E2"), in seconds: the decimal
/// with its exponent shifted by the unit's power of ten, rounded once by std::from_chars. So
/// "2.5" in us is the double nearest 2.5e-6, the double the run-file value "2.5us" and the
/// number 2.5e-6 give (2.5 * 1e-6 rounds twice and misses it by one bit). nullopt when the text
/// is not a decimal (empty, hexadecimal, inf, nan, trailing text) or its value in seconds lies
/// beyond the range of doubles (overflow or underflow); readers refuse or fall back on
/// value_in_seconds() as their formats say.
std::optional<double> decimal_in_seconds(std::string_view number, const TimeUnit& unit);

/// A double in `unit`, in seconds, for a reader that holds a number and not its text (a sum of
/// two values it read, a hexadecimal float, Netgauge's -nan): the shortest decimal that reads
/// back as `value` (std::to_chars) converted by decimal_in_seconds(). A value read from a
/// decimal of at most 15 significant digits converts exactly as its text does. 0, infinities
/// and NaN are returned as they are; beyond the range of doubles, value times 10^power.
double value_in_seconds(double value, const TimeUnit& unit);

/// The dimension of a key declared with `unit` (KeySpec::unit: "seconds", "bytes", ...).
Dimension dimension_of_unit(std::string_view unit);

/// The units accepted for `dimension`, for messages and documentation ("s, ms, us (or µs), ns").
std::string accepted_units(Dimension dimension);

/// `text` ("2.5us", "100 ns", "0.4 ns/B") in seconds (kTime) or seconds per byte
/// (kTimePerByte): the double nearest the decimal value, correctly rounded once. Optional space
/// between the number and the unit; the number is written as in TOML (sign, digits, optional
/// fraction and exponent). InputError naming `key` and the text for a malformed number, a
/// missing, unknown or wrong-dimension unit, or a value beyond the range of doubles.
double seconds_from_text(const std::string& key, std::string_view text, Dimension dimension);

/// `text` ("64KiB", "1.5 MB", "8 B") in bytes, exactly. InputError naming `key` and the text
/// for a malformed number, a missing, unknown or time unit, a value that is not a whole number
/// of bytes, or one beyond 2^63 - 1 bytes. Negative values are returned (bounds refuse them).
std::int64_t bytes_from_text(const std::string& key, std::string_view text);

}  // namespace collnoise
