#pragma once
// Records as JSON (nlohmann-json) for `summary --json`: objects keep the records' field order,
// a null is followed by "<key>_reason", and no NaN or infinity is ever written (they are null).
#include <nlohmann/json.hpp>

#include <string>
#include <unordered_map>

#include "core/record.hpp"

namespace collnoise {

/// JSON that keeps the order keys are inserted in (a record's field order).
using Json = nlohmann::ordered_json;

/// A JSON object built by setting keys, each found through a hash: ordered_json finds a key by
/// scanning the object, which makes building one of tens of thousands of keys (a point with
/// thousands of user bounds) quadratic. Keys keep the order they are first set in.
class JsonObjectBuilder {
 public:
  /// Sets `key` (a new key at the end; a key set before keeps its place).
  void set(std::string key, Json value);
  /// Every entry of `object` (a JSON object), in its order.
  void set_all(Json object);
  Json take() && { return std::move(object_); }

 private:
  Json object_ = Json::object();
  std::unordered_map<std::string, std::size_t> position_;
};

/// A field as JSON: a number, boolean, string or array (absent entries null); a Null and a
/// non-finite double as null (a Null's reason goes in a separate key: json_of(Record)).
Json json_of(const Field& field);

/// A record as an object in field order; each null field is followed by "<key>_reason".
Json json_of(const Record& record);

/// The document as text: two-space indents, a final newline; doubles in the shortest form that
/// reads back to the same double. Text that is not valid UTF-8 has the bad bytes replaced.
std::string json_text(const Json& document);

}  // namespace collnoise
