#pragma once
// Typed, checked access to one point's parameters. A model reads the keys it knows (with
// defaults where the run file may omit them); what it read, defaults included, becomes the
// point's parameter record and the input of its stream key, and a key nobody read is an error
// naming it. So each model's accepted keys live in its own code, next to their meaning.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/param_value.hpp"

namespace collnoise {

/// The values a number parameter accepts: an interval, closed unless an end is open.
struct Bounds {
  double lo;
  double hi;
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

class ParamReader {
 public:
  explicit ParamReader(ParamMap given) : given_(std::move(given)) {}

  bool has(const std::string& key) const { return given_.contains(key); }

  /// A number (integers accepted); InputError naming the key if missing or of another type.
  double number(const std::string& key);
  double number_or(const std::string& key, double fallback);
  std::optional<double> optional_number(const std::string& key);
  /// A number that must be finite and >= 0 (or > 0 when `strictly_positive`), in `unit`.
  double nonnegative(const std::string& key, std::optional<double> fallback, const char* unit,
                     bool strictly_positive = false);

  /// A number within `bounds` (in `unit`, for the message), or the fallback when absent (a
  /// missing key without fallback is an error). InputError naming the key, the value and the
  /// accepted range otherwise.
  double number_in(const std::string& key, std::optional<double> fallback, Bounds bounds,
                   const char* unit);

  std::int64_t integer(const std::string& key);
  std::int64_t integer_or(const std::string& key, std::int64_t fallback);
  /// An integer in [lo, hi], or the fallback when absent. InputError naming the range.
  std::int64_t integer_in(const std::string& key, std::optional<std::int64_t> fallback,
                          std::int64_t lo, std::int64_t hi);
  std::string text(const std::string& key);
  /// The path of a data file the model reads (a trace, a delay file): a string, recorded so
  /// that no output of the run may overwrite it.
  std::string file(const std::string& key);
  /// Records a data file read through another reader (a mixture component's).
  void add_input_file(const std::string& path) { files_.push_back(path); }
  /// Every data file recorded.
  const std::vector<std::string>& input_files() const { return files_; }
  std::string text_or(const std::string& key, const std::string& fallback);
  /// One of `choices`; InputError listing them otherwise.
  std::string choice(const std::string& key, const std::string& fallback,
                     std::initializer_list<const char*> choices);
  bool boolean_or(const std::string& key, bool fallback);
  /// An integer >= 1, or a string of decimal digits (beyond 2^63).
  RankCount rank_count(const std::string& key);
  NumberList numbers(const std::string& key);

  /// Marks a key as part of the point without reading it through a typed accessor.
  void accept(const std::string& key);
  /// Records a derived value (shown in the parameter record, keyed into the stream).
  void derive(const std::string& key, ParamValue value);
  /// Drops a key read as an alternative spelling of another from the record (log2_N is N).
  void forget(const std::string& key) { resolved_.erase(key); }

  /// Throws InputError naming the first given key that no accessor read, with `context` (for
  /// example "a butterfly run") and the keys that were read.
  void reject_unread(const std::string& context) const;

  /// Every value read or derived, defaults included.
  const ParamMap& resolved() const { return resolved_; }

 private:
  const ParamValue* find(const std::string& key);
  const ParamValue& get(const std::string& key);

  ParamMap given_;
  ParamMap resolved_;
  std::set<std::string> read_;
  std::vector<std::string> files_;
};

}  // namespace collnoise
