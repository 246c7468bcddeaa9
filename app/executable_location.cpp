#include "app/executable_location.hpp"

#include <system_error>

// Set by cmake/collnoiseInstall.cmake: the build and source directories.

namespace collnoise {

namespace fs = std::filesystem;

fs::path executable_directory() {
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  return error ? fs::path() : exe.parent_path();
}

fs::path source_tree_of_build() {
#if defined(COLLNOISE_BUILD_DIR) && defined(COLLNOISE_SOURCE_DIR)
  const fs::path bindir = executable_directory();
  std::error_code error;
  if (!bindir.empty() && fs::equivalent(bindir, COLLNOISE_BUILD_DIR, error) && !error)
    return COLLNOISE_SOURCE_DIR;
#endif
  return {};
}

}  // namespace collnoise
