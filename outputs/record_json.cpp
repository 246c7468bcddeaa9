#include "outputs/record_json.hpp"

#include <cmath>

namespace collnoise {
namespace {

Json json_number(double v) {
  return std::isfinite(v) ? Json(v) : Json(nullptr);
}

}  // namespace

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
  Json object = Json::object();
  for (const auto& [key, value] : record.fields()) {
    object[key] = json_of(value);
    if (const auto* null = std::get_if<Null>(&value)) object[key + "_reason"] = null->reason;
  }
  return object;
}

std::string json_text(const Json& document) {
  return document.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace collnoise
