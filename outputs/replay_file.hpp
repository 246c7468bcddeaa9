#pragma once
// A file of what a replayed sample did (docs/timelines.md: match-queue statistics, link load):
// JSON or HDF5 by its name's suffix, of a declared type and format version, written to a
// temporary name and renamed, and refused when damaged, mistyped or of another version, with its
// path named once. The two kinds of file share this; each keeps its own tables and checks.
#include <fmt/format.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "outputs/hdf5.hpp"

namespace collnoise::replay_file {

/// Whether `path` ends in `suffix` (".h5", ".json").
bool has_suffix(const std::string& path, const char* suffix);
/// InputError naming `option` unless `path` names a .json or .h5 file.
void check_path(const std::string& path, const std::string& option);

/// Writes the file at `path` (its suffix picks the format): `h5` writes the HDF5 file (through
/// an h5::WriteFile, which commits to the path), `json_text` gives the JSON text, written to a
/// temporary name and renamed. `what` names the kind of file in messages. InputError when the
/// path is not .json or .h5, or exists without `force`.
void write(const std::string& path, bool force, const std::string& what,
           const std::function<void()>& h5, const std::function<std::string()>& json_text);

/// The JSON object of the file at `path`, whose "format" is `type` and "format_version"
/// `version`. InputError (without the path: read() adds it) otherwise.
nlohmann::json read_json(const std::string& path, const std::string& what, const std::string& type,
                         std::int64_t version);
/// The list under `key` of `j`. InputError when there is none.
template <class T>
std::vector<T> json_list(const nlohmann::json& j, const std::string& key) {
  if (!j.contains(key) || !j[key].is_array())
    throw InputError(fmt::format("it lacks the list '{}'", key));
  return j[key].get<std::vector<T>>();
}

/// A text attribute of `g` ("" when there is none or it is not text).
std::string text_attribute(const h5::Group& g, const char* name);
/// InputError unless the HDF5 root `root` has filetype `type` and format_version `version`.
void check_h5_type(const h5::Group& root, const std::string& type, std::int64_t version);

/// `read()`'s file, its faults refused as one InputError that names `what` and `path` once.
template <class File, class Read>
File read(const std::string& path, const std::string& what, Read&& read_file) {
  check_path(path, what);
  try {
    return read_file();
  } catch (const std::exception& e) {
    const std::string message = e.what();
    if (message.find(path) != std::string::npos) throw InputError(message);  // (named already)
    throw InputError(fmt::format("refusing {} '{}': {}", what, path, message));
  }
}

}  // namespace collnoise::replay_file
