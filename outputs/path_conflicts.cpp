#include "outputs/path_conflicts.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <filesystem>

#include "core/errors.hpp"
#include "core/input_file.hpp"

namespace fs = std::filesystem;

namespace collnoise {

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {};
  struct stat sb {};
  const bool a_exists = ::stat(a.c_str(), &sa) == 0;
  const bool b_exists = ::stat(b.c_str(), &sb) == 0;
  if (a_exists && b_exists) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (a_exists != b_exists) return false;  // one file exists, the other does not
  std::error_code ea, eb;
  const fs::path ra = fs::weakly_canonical(fs::absolute(a, ea), ea);
  const fs::path rb = fs::weakly_canonical(fs::absolute(b, eb), eb);
  return !ea && !eb && ra == rb;
}

void refuse_special_outputs(std::span<const RolePath> outputs) {
  for (const auto& o : outputs) {
    struct stat st {};
    if (::stat(o.path.c_str(), &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) continue;
    throw InputError(fmt::format(
        "{} '{}' is {}: collnoise writes its outputs only as regular files, so it is kept; name "
        "another path",
        o.role, o.path, file_kind(st.st_mode)));
  }
}

void refuse_path_conflicts(std::span<const RolePath> inputs, std::span<const RolePath> outputs) {
  refuse_special_outputs(outputs);
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (const auto& input : inputs)
      if (same_file(outputs[i].path, input.path))
        throw InputError(
            fmt::format("{} '{}' is the same file as {} '{}': writing it would destroy an input",
                        outputs[i].role, outputs[i].path, input.role, input.path));
    for (std::size_t j = i + 1; j < outputs.size(); ++j)
      if (same_file(outputs[i].path, outputs[j].path))
        throw InputError(
            fmt::format("{} '{}' and {} '{}' are the same file: one would overwrite "
                        "the other",
                        outputs[i].role, outputs[i].path, outputs[j].role, outputs[j].path));
  }
}

}  // namespace collnoise
