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
#include <cstdint>
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
