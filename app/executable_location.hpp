#pragma once
// Where the running collnoise lies, for the files it finds beside itself (shipped run files,
// the Python package): installed, they sit under its prefix, found from the executable's own
// path (so the prefix may be moved); started from its build directory, it uses the source tree.
#include <filesystem>

namespace collnoise {

/// The directory of the running executable ("/proc/self/exe": the real file, after symlinks, so
/// a symlink to collnoise in ~/bin still finds the prefix it was installed to); empty if unknown.
std::filesystem::path executable_directory();

/// The source tree when this collnoise runs from the build directory it was built in; else empty.
std::filesystem::path source_tree_of_build();

}  // namespace collnoise
