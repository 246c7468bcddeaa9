#pragma once
// Files that appear whole or not at all: written to `<path>.tmp-<pid>` and renamed over `path`
// once complete, so a reader (or a resumed run) never sees a partial file and a failed write
// leaves the previous file, if any, as it was.
#include <functional>
#include <string>

namespace collnoise {

/// The temporary name beside `path` that write_atomically uses.
std::string temporary_name(const std::string& path);

/// Calls `write(temporary name)`, then renames the temporary file to `path`. On any failure the
/// temporary file is removed and the exception propagates (RuntimeFailure for the rename).
void write_atomically(const std::string& path,
                      const std::function<void(const std::string&)>& write);

}  // namespace collnoise
