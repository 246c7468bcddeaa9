#pragma once
// A flat, ordered record of named values: what a result file stores per point and what
// `summary --json` prints. A null value carries its reason, stored beside it as "<key>_reason";
// a value that is a quantity carries its unit, stored beside it as "<key>_units".
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/nullable.hpp"

namespace collnoise {

struct Null {
  std::string reason;
};

/// A list of numbers in which an entry may be absent (an interval that does not exist at one m
/// of an isoefficiency curve). Stored as numbers plus the indices of the absent ones, never NaN.
using Series = std::vector<std::optional<double>>;

using Field = std::variant<Null, bool, std::int64_t, std::uint64_t, double, std::string, Series>;

/// A series with every entry present.
inline Series series_of(const std::vector<double>& values) {
  return Series(values.begin(), values.end());
}

class Record {
 public:
  void set(std::string key, Field value);
  void set(std::string key, const Nullable& value);
  const std::vector<std::pair<std::string, Field>>& fields() const { return fields_; }
  const Field* find(const std::string& key) const;

  /// Declares the unit of `key`'s value ("seconds", "bytes", "work units"), set beside it or
  /// before it (a model declares its fields' units once, some of which a point may lack). Fields
  /// without a unit are counts, pure numbers, text or verdicts; an empty unit declares none.
  void set_unit(const std::string& key, const std::string& unit);
  /// Declares one unit for each of `keys`.
  void set_unit(std::initializer_list<std::string> keys, const std::string& unit);
  /// The unit declared for `key`; empty when none.
  std::string unit_of(const std::string& key) const;
  /// Every unit declared, in declaration order (also of keys the record does not hold).
  const std::vector<std::pair<std::string, std::string>>& units() const { return units_; }

 private:
  std::vector<std::pair<std::string, Field>> fields_;
  std::vector<std::pair<std::string, std::string>> units_;
};

inline void Record::set(std::string key, Field value) {
  for (auto& [k, v] : fields_)
    if (k == key) {
      v = std::move(value);
      return;
    }
  fields_.emplace_back(std::move(key), std::move(value));
}

inline void Record::set(std::string key, const Nullable& value) {
  if (value.has_value())
    set(std::move(key), Field(*value.value));
  else
    set(std::move(key), Field(Null{value.reason}));
}

inline const Field* Record::find(const std::string& key) const {
  for (const auto& [k, v] : fields_)
    if (k == key) return &v;
  return nullptr;
}

inline void Record::set_unit(const std::string& key, const std::string& unit) {
  for (auto it = units_.begin(); it != units_.end(); ++it)
    if (it->first == key) {
      if (unit.empty())
        units_.erase(it);
      else
        it->second = unit;
      return;
    }
  if (!unit.empty()) units_.emplace_back(key, unit);
}

inline void Record::set_unit(std::initializer_list<std::string> keys, const std::string& unit) {
  for (const auto& key : keys) set_unit(key, unit);
}

inline std::string Record::unit_of(const std::string& key) const {
  for (const auto& [k, u] : units_)
    if (k == key) return u;
  return {};
}

}  // namespace collnoise
