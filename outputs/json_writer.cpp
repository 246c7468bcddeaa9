#include "outputs/json_writer.hpp"

#include <fmt/format.h>
#include <cmath>

namespace collnoise {

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += fmt::format("\\u{:04x}", static_cast<int>(c));
        else
          out += c;
    }
  }
  return out + "\"";
}

namespace {
std::string json_number(double v) {
  return std::isfinite(v) ? fmt::format("{:.17g}", v) : "null";
}
}  // namespace

std::string json_value(const Field& field) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Null>) {
          return "null";
        } else if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, double>) {
          return json_number(v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return json_string(v);
        } else if constexpr (std::is_same_v<T, Series>) {
          std::string out = "[";
          for (std::size_t i = 0; i < v.size(); ++i)
            out += (i ? ", " : "") + (v[i] ? json_number(*v[i]) : std::string("null"));
          return out + "]";
        } else {
          return std::to_string(v);
        }
      },
      field);
}

std::string json_object(const Record& record, int indent) {
  const std::string pad(static_cast<std::size_t>(indent + 2), ' ');
  std::string out = "{";
  bool first = true;
  const auto emit = [&](const std::string& key, const std::string& value) {
    out += fmt::format("{}\n{}{}: {}", first ? "" : ",", pad, json_string(key), value);
    first = false;
  };
  for (const auto& [key, value] : record.fields()) {
    emit(key, json_value(value));
    if (const auto* null = std::get_if<Null>(&value))
      emit(key + "_reason", json_string(null->reason));
  }
  out += fmt::format("\n{}}}", std::string(static_cast<std::size_t>(indent), ' '));
  return out;
}

}  // namespace collnoise
