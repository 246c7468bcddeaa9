#include "outputs/point_identity.hpp"

#include <fmt/format.h>
#include <sstream>

#include "core/errors.hpp"

namespace collnoise {
namespace {

constexpr const char* kStreamIdentity = "stream_identity";
constexpr const char* kInputs = "inputs";

std::string text_attribute(const Record& r, const char* name, const std::string& where) {
  const Field* f = r.find(name);
  if (!f || !std::holds_alternative<std::string>(*f))
    throw InputError(fmt::format("{} is damaged: a data file record lacks its '{}'", where, name));
  return std::get<std::string>(*f);
}

const InputFileIdentity* find_key(const PointIdentity& p, const std::string& key) {
  for (const auto& f : p.inputs)
    if (f.key == key) return &f;
  return nullptr;
}

// The first line of `a` that `b` lacks (the text of a stream identity is sorted lines).
std::string first_line_missing(const std::string& a, const std::string& b) {
  std::istringstream in(a);
  for (std::string line; std::getline(in, line);)
    if (b.find(line + "\n") == std::string::npos && !b.ends_with(line)) return line;
  return "";
}

std::optional<std::string> point_difference(std::size_t i, const PointIdentity& a,
                                            std::string_view a_when, const PointIdentity& b,
                                            std::string_view b_when) {
  for (const auto& fb : b.inputs) {
    const InputFileIdentity* fa = find_key(a, fb.key);
    if (!fa)
      return fmt::format("point {} reads data file {} = '{}' {}, not {}", i, fb.key, fb.path,
                         b_when, a_when);
    if (fa->hash != fb.hash)
      return fmt::format("data file {} = '{}' (point {}) held {} {} and {} {}", fb.key, fb.path, i,
                         brief_hash(fa->hash), a_when, brief_hash(fb.hash), b_when);
  }
  for (const auto& fa : a.inputs)
    if (!find_key(b, fa.key))
      return fmt::format("point {} read data file {} = '{}' {}, not {}", i, fa.key, fa.path, a_when,
                         b_when);
  if (a.stream != b.stream) {
    std::string line = first_line_missing(a.stream, b.stream);
    if (line.empty()) line = first_line_missing(b.stream, a.stream);
    return fmt::format("point {} has another stream identity {} than {} ('{}')", i, a_when, b_when,
                       line);
  }
  return std::nullopt;
}

}  // namespace

void write_point_identity(const h5::Group& point, const PointIdentity& identity) {
  point.set_attribute(kStreamIdentity, Field(identity.stream));
  if (identity.inputs.empty()) return;
  const h5::Group inputs = point.create_group(kInputs);
  for (std::size_t k = 0; k < identity.inputs.size(); ++k) {
    Record r;
    r.set("key", Field(identity.inputs[k].key));
    r.set("path", Field(identity.inputs[k].path));
    r.set("xxh3", Field(identity.inputs[k].hash));
    inputs.create_group(fmt::format("{:04d}", k)).write_record(r);
  }
}

std::optional<PointIdentity> read_point_identity(const h5::Group& point, const std::string& where) {
  const std::optional<Field> stream = point.attribute(kStreamIdentity);
  if (!stream) return std::nullopt;
  if (!std::holds_alternative<std::string>(*stream))
    throw InputError(fmt::format("{} is damaged: its stream identity is not text", where));
  PointIdentity identity;
  identity.stream = std::get<std::string>(*stream);
  if (!point.has_child(kInputs)) return identity;
  const h5::Group inputs = point.open_group(kInputs);
  for (const auto& name : inputs.children()) {
    const Record r = inputs.open_group(name).read_record();
    identity.inputs.push_back({text_attribute(r, "key", where), text_attribute(r, "path", where),
                               text_attribute(r, "xxh3", where)});
  }
  return identity;
}

std::string brief_hash(const std::string& hash) {
  constexpr std::size_t kShown = 5 + 12;  // "xxh3:" and 12 hex digits
  return hash.size() > kShown ? hash.substr(0, kShown) + "..." : hash;
}

std::optional<std::string> identity_difference(std::span<const PointIdentity> a,
                                               std::string_view a_when,
                                               std::span<const PointIdentity> b,
                                               std::string_view b_when) {
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    if (auto d = point_difference(i, a[i], a_when, b[i], b_when)) return d;
  if (a.size() != b.size())
    return fmt::format("{} points {}, {} {}", a.size(), a_when, b.size(), b_when);
  return std::nullopt;
}

}  // namespace collnoise
