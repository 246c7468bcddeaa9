#pragma once
// A flat, ordered record of named values: what a result file stores per point and what
// `summary --json` prints. A null value carries its reason, stored beside it as "<key>_reason";
// a value that is a quantity carries its unit, stored beside it as "<key>_units".
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "core/field_spec.hpp"
#include "core/nullable.hpp"

namespace collnoise {

struct Null {
  std::string reason;
  /// Two nulls are the same when their reasons are (so two fields compare with ==).
  bool operator==(const Null&) const = default;
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
  /// Writes a declared summary field (core/field_spec.hpp): its value and, when it declares one,
  /// its unit. A model writes its summary through its declarations only.
  void put(const FieldSpec& field, Field value);
  void put(const FieldSpec& field, const Nullable& value);
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
  // From this many entries on, a record keeps an index by key beside its ordered entries: a run
  // with thousands of user bounds writes tens of thousands of fields per point, and looking each
  // up by a scan would make building, reading and printing a summary quadratic in them.
  static constexpr std::size_t kIndexFrom = 32;
  using Index = std::unordered_map<std::string, std::size_t>;
  template <class Entries>
  static const typename Entries::value_type* lookup(const Entries& entries, const Index& index,
                                                    const std::string& key);
  static void reindex(const auto& entries, Index& index);

  std::vector<std::pair<std::string, Field>> fields_;
  std::vector<std::pair<std::string, std::string>> units_;
  Index field_index_;  // empty below kIndexFrom fields, else every field's position
  Index unit_index_;   // the same for units_
};

template <class Entries>
const typename Entries::value_type* Record::lookup(const Entries& entries, const Index& index,
                                                   const std::string& key) {
  if (index.empty()) {
    for (const auto& entry : entries)
      if (entry.first == key) return &entry;
    return nullptr;
  }
  const auto it = index.find(key);
  return it == index.end() ? nullptr : &entries[it->second];
}

inline void Record::reindex(const auto& entries, Index& index) {
  index.clear();
  if (entries.size() < kIndexFrom) return;
  index.reserve(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) index.emplace(entries[i].first, i);
}

inline void Record::set(std::string key, Field value) {
  if (const auto* entry = lookup(fields_, field_index_, key)) {
    fields_[static_cast<std::size_t>(entry - fields_.data())].second = std::move(value);
    return;
  }
  if (!field_index_.empty()) field_index_.emplace(key, fields_.size());
  fields_.emplace_back(std::move(key), std::move(value));
  if (fields_.size() == kIndexFrom) reindex(fields_, field_index_);
}

inline void Record::set(std::string key, const Nullable& value) {
  if (value.has_value())
    set(std::move(key), Field(*value.value));
  else
    set(std::move(key), Field(Null{value.reason}));
}

inline void Record::put(const FieldSpec& field, Field value) {
  set(field.name, std::move(value));
  if (!field.unit.empty()) set_unit(field.name, field.unit);
}

inline void Record::put(const FieldSpec& field, const Nullable& value) {
  set(field.name, value);
  if (!field.unit.empty()) set_unit(field.name, field.unit);
}

inline const Field* Record::find(const std::string& key) const {
  const auto* entry = lookup(fields_, field_index_, key);
  return entry ? &entry->second : nullptr;
}

inline void Record::set_unit(const std::string& key, const std::string& unit) {
  if (const auto* entry = lookup(units_, unit_index_, key)) {
    const auto at = static_cast<std::size_t>(entry - units_.data());
    if (!unit.empty()) {
      units_[at].second = unit;
      return;
    }
    units_.erase(units_.begin() + static_cast<std::ptrdiff_t>(at));
    reindex(units_, unit_index_);  // rare: positions after `at` moved
    return;
  }
  if (unit.empty()) return;
  if (!unit_index_.empty()) unit_index_.emplace(key, units_.size());
  units_.emplace_back(key, unit);
  if (units_.size() == kIndexFrom) reindex(units_, unit_index_);
}

inline void Record::set_unit(std::initializer_list<std::string> keys, const std::string& unit) {
  for (const auto& key : keys) set_unit(key, unit);
}

inline std::string Record::unit_of(const std::string& key) const {
  const auto* entry = lookup(units_, unit_index_, key);
  return entry ? entry->second : std::string();
}

}  // namespace collnoise
