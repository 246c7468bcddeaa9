#include "core/param_reader.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/stop_request.hpp"
#include "core/units.hpp"

namespace collnoise {
namespace {

std::string unit_suffix(const KeySpec& spec) {
  return spec.unit.empty() ? std::string() : " " + spec.unit;
}

[[noreturn]] void wrong_type(const std::string& key, const char* expected, const ParamValue& v) {
  throw InputError(fmt::format("{} must be {}, got {}", key, expected, to_text(v)));
}

// A string given for a number: with a unit on a time or size key (core/units.hpp), converted to
// seconds or bytes; refused on any other key.
double number_from_text(const KeySpec& spec, const std::string& key, const std::string& text) {
  switch (const Dimension dimension = dimension_of_unit(spec.unit)) {
    case Dimension::kNone:
      throw InputError(
          spec.unit.empty()
              ? fmt::format("{} must be a number (it takes no unit), got \"{}\"", key, text)
              : fmt::format("{} must be a number of {} (units are read on time and size keys "
                            "only), got \"{}\"",
                            key, spec.unit, text));
    case Dimension::kSize:
      return static_cast<double>(bytes_from_text(key, text));
    default:
      return seconds_from_text(key, text, dimension);
  }
}

double as_number(const KeySpec& spec, const std::string& key, const ParamValue& v) {
  double x = 0.0;
  if (const auto* d = std::get_if<double>(&v))
    x = *d;
  else if (const auto* i = std::get_if<std::int64_t>(&v))
    x = static_cast<double>(*i);
  else if (const auto* s = std::get_if<std::string>(&v))
    x = number_from_text(spec, key, *s);
  else
    wrong_type(key, "a number", v);
  if (!std::isfinite(x)) throw InputError(fmt::format("{} = {} is not a finite number", key, x));
  return x;
}

// The value as the message shows it: as given, and converted when it was given with a unit
// ("-2us" (-2e-06 seconds)).
std::string shown(const KeySpec& spec, const ParamValue* given, double x) {
  if (const auto* s = given ? std::get_if<std::string>(given) : nullptr)
    return fmt::format("\"{}\" ({:g}{})", *s, x, unit_suffix(spec));
  return fmt::format("{:g}", x);
}

// Bounds are checked on the converted value, in the key's own unit.
void check_bounds(const KeySpec& spec, const std::string& key, double x,
                  const ParamValue* given = nullptr) {
  if (!spec.bounds.contains(x))
    throw InputError(fmt::format("{} = {} is out of range: it must lie in {}{}", key,
                                 shown(spec, given, x), spec.bounds.describe(), unit_suffix(spec)));
}

void check_integer_bounds(const KeySpec& spec, const std::string& key, std::int64_t x,
                          const ParamValue& given) {
  if (!spec.bounds.contains(static_cast<double>(x)))
    throw InputError(fmt::format(
        "{} = {} is out of range: it must be an integer in {}{}", key,
        std::holds_alternative<std::string>(given)
            ? fmt::format("\"{}\" ({}{})", std::get<std::string>(given), x, unit_suffix(spec))
            : std::to_string(x),
        spec.bounds.describe(), unit_suffix(spec)));
}

struct StateDeleter {
  void operator()(XXH3_state_t* s) const { XXH3_freeState(s); }
};

}  // namespace

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
        else if constexpr (std::is_same_v<T, TextList>) {
          std::string out = "[";
          for (std::size_t i = 0; i < v.size(); ++i) {
            out += i ? ", \"" : "\"";
            for (const char c : v[i]) {
              if (c == '"' || c == '\\') out += '\\';
              out += c;
            }
            out += '"';
          }
          return out + "]";
        } else
          return to_string(v);
      },
      value);
}

std::string canonical_text(const ParamValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, double>)
          return fmt::format("{:a}", v);
        else if constexpr (std::is_same_v<T, NumberList>) {
          std::string out = "[";
          for (std::size_t i = 0; i < v.size(); ++i)
            out += fmt::format("{}{:a}", i ? "," : "", v[i]);
          return out + "]";
        } else
          return to_text(v);
      },
      value);
}

namespace {

// Six significant digits where they are exact ("1e+06"), every digit where they are not
// ("4294967296", not "4.29497e+09"): a range must say exactly where it ends.
std::string bound_text(double x) {
  const std::string short_text = fmt::format("{:g}", x);
  return std::strtod(short_text.c_str(), nullptr) == x ? short_text : fmt::format("{}", x);
}

}  // namespace

std::string Bounds::describe() const {
  return fmt::format("{}{}, {}{}", lo_open ? "(" : "[", bound_text(lo), bound_text(hi),
                     hi_open ? ")" : "]");
}

std::string full_key(const KeySpec& spec, const std::string& prefix) {
  return prefix.empty() ? spec.name : prefix + "." + spec.name;
}

std::string file_content_hash(const std::string& key, const std::string& path) {
  // The file as its reader sees it: a regular file (never a FIFO or /dev/zero, which would block
  // or never end), past a byte-order mark (a file saved with one is the same data).
  InputFile in = InputFile::open_regular(path, fmt::format("{} = \"{}\"", key, path));
  in.skip_byte_order_mark();
  std::unique_ptr<XXH3_state_t, StateDeleter> state(XXH3_createState());
  if (!state || XXH3_128bits_reset(state.get()) != XXH_OK)
    throw RuntimeFailure("cannot start a checksum (out of memory)");
  std::vector<char> buffer(std::size_t{1} << 20);
  while (const std::size_t got = in.read(buffer)) {
    throw_if_stop_requested();  // a trace may be gigabytes
    XXH3_128bits_update(state.get(), buffer.data(), got);
  }
  const XXH128_hash_t h = XXH3_128bits_digest(state.get());
  return fmt::format("xxh3:{:016x}{:016x}", h.high64, h.low64);
}

std::string text_content_hash(std::string_view text) {
  const XXH128_hash_t h = XXH3_128bits(text.data(), text.size());
  return fmt::format("xxh3:{:016x}{:016x}", h.high64, h.low64);
}

std::optional<std::string> ParamReader::peek_text(const std::string& key) const {
  const auto it = given_.find(key);
  if (it == given_.end()) return std::nullopt;
  if (const auto* s = std::get_if<std::string>(&it->second)) return *s;
  return std::nullopt;
}

const ParamValue* ParamReader::find(const std::string& key) {
  read_.insert(key);
  const auto it = given_.find(key);
  return it == given_.end() ? nullptr : &it->second;
}

void ParamReader::record(const KeySpec& spec, const std::string& key, const ParamValue& value,
                         bool given) {
  resolved_[key] = value;
  if (!spec.unit.empty()) units_[key] = spec.unit;
  if (!spec.identity || !given || (spec.fallback && *spec.fallback == value)) return;
  // A file's content is hashed once its path is resolved (text()).
  identity_[key] = spec.type == KeyType::kFile ? std::string() : canonical_text(value);
}

double ParamReader::number(const KeySpec& spec, const std::string& prefix) {
  const auto x = optional_number(spec, prefix);
  if (!x) throw InputError(fmt::format("{} is missing", full_key(spec, prefix)));
  return *x;
}

std::optional<double> ParamReader::optional_number(const KeySpec& spec, const std::string& prefix) {
  const std::string key = full_key(spec, prefix);
  const ParamValue* v = find(key);
  if (!v) {
    if (!spec.fallback) return std::nullopt;
    const double x = as_number(spec, key, *spec.fallback);
    record(spec, key, x, false);
    return x;
  }
  const double x = as_number(spec, key, *v);
  check_bounds(spec, key, x, v);
  record(spec, key, x, true);
  return x;
}

std::int64_t ParamReader::integer(const KeySpec& spec, const std::string& prefix) {
  const std::string key = full_key(spec, prefix);
  const ParamValue* v = find(key);
  if (!v) {
    if (!spec.fallback) throw InputError(fmt::format("{} is missing", key));
    const auto x = std::get<std::int64_t>(*spec.fallback);
    record(spec, key, x, false);
    return x;
  }
  std::int64_t x = 0;
  if (const auto* i = std::get_if<std::int64_t>(v))
    x = *i;
  else if (const auto* s = std::get_if<std::string>(v);
           s && dimension_of_unit(spec.unit) == Dimension::kSize)
    x = bytes_from_text(key, *s);
  else
    wrong_type(key, "an integer", *v);
  check_integer_bounds(spec, key, x, *v);
  record(spec, key, x, true);
  return x;
}

std::string ParamReader::text(const KeySpec& spec, const std::string& prefix) {
  const std::string key = full_key(spec, prefix);
  const ParamValue* v = find(key);
  std::string value;
  if (!v) {
    if (!spec.fallback) throw InputError(fmt::format("{} is missing", key));
    value = std::get<std::string>(*spec.fallback);
  } else if (const auto* s = std::get_if<std::string>(v)) {
    value = *s;
  } else {
    wrong_type(key, "a string", *v);
  }
  if (spec.type == KeyType::kChoice &&
      std::find(spec.choices.begin(), spec.choices.end(), value) == spec.choices.end())
    throw InputError(fmt::format("{} = \"{}\" is invalid: use one of {}", key, value,
                                 fmt::join(spec.choices, ", ")));
  record(spec, key, value, v != nullptr);
  if (spec.type == KeyType::kFile) {
    const std::string given = value;
    if (!file_base_.empty() && !value.empty() && value.front() != '/')
      value = file_base_ + "/" + value;
    const std::string hash = file_content_hash(key, value);
    if (identity_.contains(key)) identity_[key] = hash;
    files_.push_back({key, given, value, hash});
  }
  return value;
}

std::vector<std::string> ParamReader::files(const KeySpec& spec, const std::string& prefix) {
  const std::string key = full_key(spec, prefix);
  const ParamValue* v = find(key);
  const auto* list = v ? std::get_if<TextList>(v) : nullptr;
  if (!list) return {text(spec, prefix)};
  if (list->empty())
    throw InputError(fmt::format("{} = [] is invalid: give a file or a list of files", key));
  record(spec, key, *list, true);
  std::vector<std::string> paths;
  std::string hashes;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string& given = (*list)[i];
    std::string path = given;
    if (!file_base_.empty() && !path.empty() && path.front() != '/') path = file_base_ + "/" + path;
    const std::string entry = fmt::format("{}[{}]", key, i);
    const std::string hash = file_content_hash(entry, path);
    files_.push_back({entry, given, path, hash});
    hashes += (i == 0 ? "" : ",") + hash;
    paths.push_back(std::move(path));
  }
  if (identity_.contains(key)) identity_[key] = hashes;
  return paths;
}

bool ParamReader::boolean(const KeySpec& spec, const std::string& prefix) {
  const std::string key = full_key(spec, prefix);
  const ParamValue* v = find(key);
  bool value = false;
  if (!v) {
    if (!spec.fallback) throw InputError(fmt::format("{} is missing", key));
    value = std::get<bool>(*spec.fallback);
  } else if (const auto* b = std::get_if<bool>(v)) {
    value = *b;
  } else {
    throw InputError(fmt::format("{} must be true or false", key));
  }
  record(spec, key, value, v != nullptr);
  return value;
}

RankCount ParamReader::rank_count(const KeySpec& spec, const std::string& prefix) {
  const std::string key = full_key(spec, prefix);
  const ParamValue* v = find(key);
  if (!v) throw InputError(fmt::format("{} is missing", key));
  RankCount n = 0;
  if (const auto* i = std::get_if<std::int64_t>(v)) {
    if (*i < 1) throw InputError(fmt::format("{} = {} is invalid: N must be >= 1", key, *i));
    n = static_cast<RankCount>(*i);
  } else if (const auto* s = std::get_if<std::string>(v)) {
    const auto parsed = parse_rank_count(*s);
    if (!parsed || *parsed == 0)
      throw InputError(fmt::format("{} = \"{}\" is not a rank count >= 1", key, *s));
    n = *parsed;
  } else if (const auto* r = std::get_if<RankCount>(v)) {
    n = *r;
  } else {
    throw InputError(
        fmt::format("{} must be an integer (or a string of digits), got {}", key, to_text(*v)));
  }
  record(spec, key, n, true);
  return n;
}

NumberList ParamReader::numbers(const KeySpec& spec, const std::string& prefix) {
  const std::string key = full_key(spec, prefix);
  const ParamValue* v = find(key);
  if (!v) throw InputError(fmt::format("{} is missing", key));
  NumberList list;
  if (const auto* numbers = std::get_if<NumberList>(v)) {
    list = *numbers;
  } else if (const auto* texts = std::get_if<TextList>(v);
             texts && dimension_of_unit(spec.unit) != Dimension::kNone) {
    for (const auto& text : *texts) list.push_back(number_from_text(spec, key, text));
  } else {
    wrong_type(key, "a list of numbers", *v);
  }
  for (double x : list) {
    if (!std::isfinite(x))
      throw InputError(fmt::format("{} holds {}: every value must be a finite number", key, x));
    check_bounds(spec, key, x);
  }
  record(spec, key, list, true);
  return list;
}

TextList ParamReader::texts(const KeySpec& spec, const std::string& prefix) {
  const std::string key = full_key(spec, prefix);
  const ParamValue* v = find(key);
  TextList list;
  if (!v) {
    if (!spec.fallback) throw InputError(fmt::format("{} is missing", key));
    list = std::get<TextList>(*spec.fallback);
  } else if (const auto* l = std::get_if<TextList>(v)) {
    list = *l;
  } else if (const auto* s = std::get_if<std::string>(v)) {
    list = {*s};
  } else if (const auto* n = std::get_if<NumberList>(v); !n || !n->empty()) {
    wrong_type(key, "a list of strings", *v);  // (TOML's `[]` has no element type)
  }
  record(spec, key, list, v != nullptr);
  return list;
}

void ParamReader::accept(const std::string& key) {
  if (const ParamValue* v = find(key)) resolved_[key] = *v;
}

void ParamReader::derive(const std::string& key, ParamValue value, bool identity,
                         const std::string& unit) {
  read_.insert(key);
  if (identity) identity_[key] = canonical_text(value);
  if (!unit.empty()) units_[key] = unit;
  resolved_[key] = std::move(value);
}

void ParamReader::forget(const std::string& key, bool keep_identity) {
  resolved_.erase(key);
  units_.erase(key);
  if (!keep_identity) identity_.erase(key);
}

void ParamReader::adopt(const ParamReader& sub) {
  files_.insert(files_.end(), sub.files_.begin(), sub.files_.end());
  for (const auto& [key, text] : sub.identity_) identity_[key] = text;
}

void ParamReader::add_input_file(const std::string& key, const std::string& path) {
  identity_[key] = file_content_hash(key, path);
  files_.push_back({key, path, path, identity_[key]});
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

std::string ParamReader::stream_identity() const {
  std::string out;
  for (const auto& [key, text] : identity_) out += key + "=" + text + "\n";
  return out;
}

}  // namespace collnoise
