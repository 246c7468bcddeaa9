#include "outputs/replay_file.hpp"

#include <fmt/format.h>

#include <array>
#include <filesystem>
#include <span>

#include "core/input_file.hpp"
#include "outputs/atomic_file.hpp"

namespace collnoise::replay_file {

bool has_suffix(const std::string& path, const char* suffix) {
  return std::filesystem::path(path).extension() == suffix;
}

void check_path(const std::string& path, const std::string& option) {
  if (!has_suffix(path, ".json") && !has_suffix(path, ".h5"))
    throw InputError(fmt::format("{} '{}': name a .json or .h5 file", option, path));
}

void write(const std::string& path, bool force, const std::string& what,
           const std::function<void()>& h5, const std::function<std::string()>& json_text) {
  check_path(path, what);
  if (!force && std::filesystem::exists(path))
    throw InputError(fmt::format("output '{}' exists: use --force to overwrite it", path));
  if (has_suffix(path, ".h5")) return h5();
  const std::string text = json_text();
  write_file_atomically(path, std::as_bytes(std::span(text.data(), text.size())));
}

nlohmann::json read_json(const std::string& path, const std::string& what, const std::string& type,
                         std::int64_t version) {
  InputFile in =
      InputFile::open_regular(path, fmt::format("{} '{}'", what, path), kCollnoiseFileRule);
  std::string text;
  std::array<char, 1 << 16> block{};
  while (const std::size_t n = in.read(block)) text.append(block.data(), n);
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) throw InputError("it is not JSON (truncated or changed?)");
  if (!j.is_object() || j.value("format", "") != type)
    throw InputError(fmt::format("its format is not '{}'", type));
  if (j.value("format_version", std::int64_t{0}) != version)
    throw InputError(
        fmt::format("format_version {} is not {}", j.value("format_version", 0), version));
  return j;
}

std::string text_attribute(const h5::Group& g, const char* name) {
  const auto a = g.attribute(name);
  return a && std::holds_alternative<std::string>(*a) ? std::get<std::string>(*a) : "";
}

void check_h5_type(const h5::Group& root, const std::string& type, std::int64_t version) {
  if (text_attribute(root, "filetype") != type)
    throw InputError(fmt::format("its filetype is not '{}'", type));
  const auto stored = root.attribute("format_version");
  if (!stored || !std::holds_alternative<std::int64_t>(*stored) ||
      std::get<std::int64_t>(*stored) != version)
    throw InputError(fmt::format("its format_version is not {}", version));
}

}  // namespace collnoise::replay_file
