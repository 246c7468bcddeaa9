#include "core/param_reader.hpp"

#include <fmt/format.h>
#include <cmath>

#include "core/errors.hpp"

namespace collnoise {

std::string to_text(const ParamValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>)
          return v ? "true" : "false";
        else if constexpr (std::is_same_v<T, std::int64_t>)
          return std::to_string(v);
        else if constexpr (std::is_same_v<T, double>)
          return fmt::format("{:.17g}", v);
        else if constexpr (std::is_same_v<T, std::string>)
          return v;
        else if constexpr (std::is_same_v<T, NumberList>)
          return fmt::format("[{:.17g}]", fmt::join(v, ", "));
        else
          return to_string(v);
      },
      value);
}

std::string Bounds::describe() const {
  return fmt::format("{}{:g}, {:g}{}", lo_open ? "(" : "[", lo, hi, hi_open ? ")" : "]");
}

const ParamValue* ParamReader::find(const std::string& key) {
  read_.insert(key);
  const auto it = given_.find(key);
  return it == given_.end() ? nullptr : &it->second;
}

const ParamValue& ParamReader::get(const std::string& key) {
  const ParamValue* v = find(key);
  if (!v) throw InputError(fmt::format("{} is missing", key));
  return *v;
}

double ParamReader::number(const std::string& key) {
  const ParamValue& v = get(key);
  double x = 0.0;
  if (const auto* d = std::get_if<double>(&v))
    x = *d;
  else if (const auto* i = std::get_if<std::int64_t>(&v))
    x = static_cast<double>(*i);
  else
    throw InputError(fmt::format("{} must be a number, got {}", key, to_text(v)));
  if (!std::isfinite(x)) throw InputError(fmt::format("{} = {} is not a finite number", key, x));
  resolved_[key] = x;
  return x;
}

double ParamReader::number_or(const std::string& key, double fallback) {
  if (!given_.contains(key)) {
    read_.insert(key);
    resolved_[key] = fallback;
    return fallback;
  }
  return number(key);
}

std::optional<double> ParamReader::optional_number(const std::string& key) {
  read_.insert(key);
  if (!given_.contains(key)) return std::nullopt;
  return number(key);
}

double ParamReader::nonnegative(const std::string& key, std::optional<double> fallback,
                                const char* unit, bool strictly_positive) {
  if (!given_.contains(key) && !fallback) throw InputError(fmt::format("{} is missing", key));
  const double x = fallback ? number_or(key, *fallback) : number(key);
  if (strictly_positive ? !(x > 0.0) : !(x >= 0.0))
    throw InputError(fmt::format(
        "{} = {} is invalid: it must be {} 0{}", key, x,
        strictly_positive ? ">" : ">=", *unit ? fmt::format(" {}", unit) : std::string()));
  return x;
}

double ParamReader::number_in(const std::string& key, std::optional<double> fallback, Bounds bounds,
                              const char* unit) {
  if (!given_.contains(key) && !fallback) throw InputError(fmt::format("{} is missing", key));
  const double x = fallback ? number_or(key, *fallback) : number(key);
  if (!bounds.contains(x))
    throw InputError(fmt::format("{} = {:g} is out of range: it must lie in {}{}", key, x,
                                 bounds.describe(),
                                 *unit ? fmt::format(" {}", unit) : std::string()));
  return x;
}

std::int64_t ParamReader::integer_in(const std::string& key, std::optional<std::int64_t> fallback,
                                     std::int64_t lo, std::int64_t hi) {
  if (!given_.contains(key) && !fallback) throw InputError(fmt::format("{} is missing", key));
  const std::int64_t x = fallback ? integer_or(key, *fallback) : integer(key);
  if (x < lo || x > hi)
    throw InputError(
        fmt::format("{} = {} is out of range: it must be an integer in [{}, {}]", key, x, lo, hi));
  return x;
}

std::int64_t ParamReader::integer(const std::string& key) {
  const ParamValue& v = get(key);
  if (const auto* i = std::get_if<std::int64_t>(&v)) {
    resolved_[key] = *i;
    return *i;
  }
  throw InputError(fmt::format("{} must be an integer, got {}", key, to_text(v)));
}

std::int64_t ParamReader::integer_or(const std::string& key, std::int64_t fallback) {
  if (!given_.contains(key)) {
    read_.insert(key);
    resolved_[key] = fallback;
    return fallback;
  }
  return integer(key);
}

std::string ParamReader::text(const std::string& key) {
  const ParamValue& v = get(key);
  if (const auto* s = std::get_if<std::string>(&v)) {
    resolved_[key] = *s;
    return *s;
  }
  throw InputError(fmt::format("{} must be a string, got {}", key, to_text(v)));
}

std::string ParamReader::file(const std::string& key) {
  std::string path = text(key);
  files_.push_back(path);
  return path;
}

std::string ParamReader::text_or(const std::string& key, const std::string& fallback) {
  if (!given_.contains(key)) {
    read_.insert(key);
    resolved_[key] = fallback;
    return fallback;
  }
  return text(key);
}

std::string ParamReader::choice(const std::string& key, const std::string& fallback,
                                std::initializer_list<const char*> choices) {
  const std::string value = text_or(key, fallback);
  for (const char* c : choices)
    if (value == c) return value;
  throw InputError(
      fmt::format("{} = \"{}\" is invalid: use one of {}", key, value, fmt::join(choices, ", ")));
}

bool ParamReader::boolean_or(const std::string& key, bool fallback) {
  read_.insert(key);
  const auto it = given_.find(key);
  bool value = fallback;
  if (it != given_.end()) {
    const auto* b = std::get_if<bool>(&it->second);
    if (!b) throw InputError(fmt::format("{} must be true or false", key));
    value = *b;
  }
  resolved_[key] = value;
  return value;
}

RankCount ParamReader::rank_count(const std::string& key) {
  const ParamValue& v = get(key);
  RankCount n = 0;
  if (const auto* i = std::get_if<std::int64_t>(&v)) {
    if (*i < 1) throw InputError(fmt::format("{} = {} is invalid: N must be >= 1", key, *i));
    n = static_cast<RankCount>(*i);
  } else if (const auto* s = std::get_if<std::string>(&v)) {
    const auto parsed = parse_rank_count(*s);
    if (!parsed || *parsed == 0)
      throw InputError(fmt::format("{} = \"{}\" is not a rank count >= 1", key, *s));
    n = *parsed;
  } else if (const auto* r = std::get_if<RankCount>(&v)) {
    n = *r;
  } else {
    throw InputError(
        fmt::format("{} must be an integer (or a string of digits), got {}", key, to_text(v)));
  }
  resolved_[key] = n;
  return n;
}

NumberList ParamReader::numbers(const std::string& key) {
  const ParamValue& v = get(key);
  if (const auto* list = std::get_if<NumberList>(&v)) {
    for (double x : *list)
      if (!std::isfinite(x))
        throw InputError(fmt::format("{} holds {}: every value must be a finite number", key, x));
    resolved_[key] = *list;
    return *list;
  }
  throw InputError(fmt::format("{} must be a list of numbers, got {}", key, to_text(v)));
}

void ParamReader::accept(const std::string& key) {
  if (const ParamValue* v = find(key)) resolved_[key] = *v;
}

void ParamReader::derive(const std::string& key, ParamValue value) {
  read_.insert(key);
  resolved_[key] = std::move(value);
}

void ParamReader::reject_unread(const std::string& context) const {
  for (const auto& [key, value] : given_)
    if (!read_.contains(key)) {
      std::vector<std::string> known;
      const std::string table = key.substr(0, key.find('.') + 1);
      for (const auto& k : read_)
        if (k.starts_with(table)) known.push_back(k);
      throw InputError(fmt::format("{} is not a parameter of {}{}", key, context,
                                   known.empty()
                                       ? std::string()
                                       : fmt::format(" (known here: {})", fmt::join(known, ", "))));
    }
}

}  // namespace collnoise
