#pragma once
// Outputs that would destroy an input, or each other: `--out` equal to the run file, a
// checkpoint on a trace the run reads, a merge written over one of its parts. Paths are compared
// as files, not strings: the same device and inode where both exist, otherwise the same absolute
// path once the symbolic links of its existing part are resolved (a new file's directory may be
// reached through a link, "./x" and "x" are one file).
#include <span>
#include <string>

namespace collnoise {

/// A path and what it is to the command, for messages ("the run file", "--out").
struct RolePath {
  std::string role;
  std::string path;
};

/// Whether `a` and `b` name the same file.
bool same_file(const std::string& a, const std::string& b);

/// InputError naming both paths when an output is the same file as an input or as another
/// output.
void refuse_path_conflicts(std::span<const RolePath> inputs, std::span<const RolePath> outputs);

}  // namespace collnoise
