#pragma once
// The run files shipped with collnoise (runs/*.toml), found by name: `collnoise run
// chen-suda-fig8` runs the shipped chen-suda-fig8.toml from any directory. An installed collnoise
// finds them under <prefix>/share/collnoise/runs, located from the executable's own path (so the
// prefix may be moved); a collnoise started from its build directory finds the source tree's
// runs/. Results still go to the current directory (`<name>.h5`), never beside the run file.
#include <filesystem>
#include <string>
#include <vector>

namespace collnoise {

/// The directories searched for shipped run files, in order (existing or not).
std::vector<std::filesystem::path> shipped_run_directories();

/// The run file that `given` names: `given` itself when it is a path that exists or names a
/// directory ("runs/x.toml", "./x.toml"); else, for a bare name ("chen-suda-fig8" or
/// "chen-suda-fig8.toml"), the shipped run file of that name. A bare name found nowhere is an
/// InputError (one line) saying where it was looked for and which names are shipped there.
std::string locate_run_file(const std::string& given);

}  // namespace collnoise
