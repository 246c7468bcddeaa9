#include "outputs/record_json.hpp"

#include <cmath>

namespace collnoise {
namespace {

Json json_number(double v) {
  return std::isfinite(v) ? Json(v) : Json(nullptr);
}

}  // namespace

void JsonObjectBuilder::set(std::string key, Json value) {
  // The object's entries as the vector they are (ordered_map is one), appended to directly.
  auto& entries = static_cast<Json::object_t::Container&>(object_.get_ref<Json::object_t&>());
  const auto [at, fresh] = position_.try_emplace(key, entries.size());
  if (fresh)
    entries.emplace_back(std::move(key), std::move(value));
  else
    entries[at->second].second = std::move(value);
}

void JsonObjectBuilder::set_all(Json object) {
  for (auto& [key, value] : object.get_ref<Json::object_t&>()) set(key, std::move(value));
}

Json json_of(const Field& field) {
  return std::visit(
      [](const auto& v) -> Json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Null>) {
          return nullptr;
        } else if constexpr (std::is_same_v<T, double>) {
          return json_number(v);
        } else if constexpr (std::is_same_v<T, Series>) {
          Json list = Json::array();
          for (const auto& x : v) list.push_back(x ? json_number(*x) : Json(nullptr));
          return list;
        } else {
          return v;  // bool, std::int64_t, std::uint64_t, std::string
        }
      },
      field);
}

Json json_of(const Record& record) {
  JsonObjectBuilder object;
  for (const auto& [key, value] : record.fields()) {
    object.set(key, json_of(value));
    if (const auto* null = std::get_if<Null>(&value)) object.set(key + "_reason", null->reason);
  }
  return std::move(object).take();
}

std::string json_text(const Json& document) {
  return document.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace collnoise
