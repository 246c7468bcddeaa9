#pragma once
// The declaration of one run-file key, made by the model that reads it: its name, type, meaning,
// unit, default, valid range and whether it defines the sampled model. Models read their keys
// through these declarations (core/param_reader.hpp), and list them for documentation and tests,
// so a key's meaning, range and unit live in one place, next to the code that uses it
// (docs/extending.md).
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/param_value.hpp"

namespace collnoise {

/// The values a number parameter accepts: an interval, closed unless an end is open.
struct Bounds {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false;
  bool hi_open = false;
  bool contains(double x) const {
    return (lo_open ? x > lo : x >= lo) && (hi_open ? x < hi : x <= hi);
  }
  /// "[0, 1e+06]", "(0, 1)".
  std::string describe() const;
};

/// The largest value any time parameter accepts: 10^6 seconds (11.6 days) per stage, detour,
/// period or cycle. Within it no arithmetic on simulated times can overflow (docs/run-files.md,
/// "Valid ranges").
inline constexpr double kMaxSeconds = 1.0e6;

enum class KeyType {
  kNumber,      ///< a finite double (integers accepted)
  kInteger,     ///< a 64-bit integer
  kText,        ///< a string
  kChoice,      ///< one of `choices`
  kFile,        ///< the path of a data file the model reads (keyed by its content)
  kBoolean,     ///< true or false
  kRankCount,   ///< an integer >= 1, or a string of digits beyond 2^63
  kNumberList,  ///< a list of finite numbers
  kTextList,    ///< a list of strings (a single string is a list of one)
};

struct KeySpec {
  std::string name;  ///< dotted ("collective.w"), or relative to the prefix it is read under
  KeyType type = KeyType::kNumber;
  std::string meaning;  ///< one line: what the value is
  /// "seconds", "bytes", "" for a pure number. "seconds", "seconds per byte" and "bytes" let
  /// the run file write the value with a unit ("2.5us", "0.4ns/B", "64KiB"; core/units.hpp).
  std::string unit;
  std::optional<ParamValue> fallback;  ///< the default; none: required unless `optional`
  Bounds bounds;                       ///< numbers and integers
  std::vector<std::string> choices;    ///< kChoice
  bool optional = false;               ///< may be absent without a default
  /// Whether the value defines the sampled model, and so its random streams. False for choices
  /// that change how, not what, is computed (an engine that gives the same bits, a sample
  /// count of an analysis): changing them leaves every stream in place (docs/models/streams.md).
  bool identity = true;
  /// Keys that give one quantity in different ways (a collective's size as collective.N,
  /// collective.log2_N or collective.levels) share a group name here: a [[case]] or [sweep] value
  /// of one of them replaces whichever of the group the run file gave before. Empty: none.
  std::string alternatives;
  /// Also written without its table in [sweep] and [[case]] ("N" for "collective.N").
  bool short_form = false;
  /// The value is an array of tables ([[noise.components]]): entry i's keys become keys of their
  /// own, "<name>[i].<key>" (a mixture's components). Never swept.
  bool table_array = false;
};

}  // namespace collnoise
