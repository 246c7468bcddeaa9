#pragma once
// A flat, ordered record of named values: what a result file stores per point and what
// `summary --json` prints. A null value carries its reason, stored beside it as "<key>_reason".
#include <cstdint>
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

 private:
  std::vector<std::pair<std::string, Field>> fields_;
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

}  // namespace collnoise
