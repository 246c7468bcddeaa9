#pragma once
// Outputs that would destroy an input, or each other: `--out` equal to the run file, a
// checkpoint on a trace the run reads, a merge written over one of its parts. Paths are compared
// as files, not strings: the same device and inode where both exist, otherwise the same absolute
// path once the symbolic links of its existing part are resolved (a new file's directory may be
// reached through a link, "./x" and "x" are one file). An output that is a FIFO or a device is
// refused as well: it would be replaced.
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

/// InputError naming the output and what it is when an output exists as a FIFO, a device or a
/// socket: an output is renamed over its path, which would replace the special file (a device
/// node, a FIFO another program reads). Directories are left to the caller (an OTF2 archive is
/// one; every other output refuses them).
void refuse_special_outputs(std::span<const RolePath> outputs);

/// InputError naming both paths when an output is the same file as an input or as another
/// output; refuse_special_outputs first.
void refuse_path_conflicts(std::span<const RolePath> inputs, std::span<const RolePath> outputs);

}  // namespace collnoise
