#include "app/output_guard.hpp"

#include <fmt/format.h>
#include <filesystem>

#include "core/errors.hpp"
#include "outputs/atomic_file.hpp"

namespace collnoise {

OutputGuard::OutputGuard(std::span<const RolePath> inputs, std::span<const RolePath> outputs,
                         bool force, const Note& note, bool lock) {
  // A directory is never an output (its lock and temporaries would land inside it).
  for (const auto& o : outputs)
    if (std::filesystem::is_directory(o.path))
      throw InputError(fmt::format("{} '{}' is a directory: name a file", o.role, o.path));
  std::vector<RolePath> written;
  for (const auto& o : outputs) {
    written.push_back(o);
    written.push_back({o.role + "'s temporary", temporary_name(o.path)});
    written.push_back({o.role + "'s lock", OutputLock::lock_path(o.path)});
  }
  refuse_path_conflicts(inputs, written);
  if (lock)
    for (const auto& o : outputs) locks_.emplace_back(o.path, note);
  for (const auto& o : outputs)
    for (const auto& stale : remove_stale_temporaries(o.path))
      note(fmt::format("removed '{}', left by a run of this host that no longer runs", stale));
  if (!outputs.empty() && std::filesystem::exists(outputs.front().path) && !force)
    throw InputError(
        fmt::format("output '{}' exists: use --force to overwrite it", outputs.front().path));
  for (const auto& o : outputs) check_writable(o.path);
}

}  // namespace collnoise
