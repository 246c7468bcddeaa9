#pragma once
// The seal of every file collnoise writes: a checksum of the file's bytes in its first 512
// bytes (the HDF5 user block, which HDF5 itself ignores), checked before HDF5 parses anything.
// HDF5 checksums only part of its metadata, and variable-length data not at all, so a flipped
// bit could otherwise be read as a good number or crash the library. The seal guards against
// accidents (bad disks, truncated copies, a file changed by another program), not malice: a
// crafted file can carry a matching seal (docs/cli.md, "What collnoise promises").
//
// Seal text (ASCII, zero-padded to 512 bytes):
//   collnoise sealed file 1
//   xxh3-128 <32 lower-case hex digits of XXH3-128 over bytes [512, end)>
//   bytes <decimal length of bytes [512, end)>
#include <cstddef>
#include <span>
#include <string>

#include "core/input_file.hpp"

namespace collnoise {

inline constexpr std::size_t kSealBytes = 512;

/// Writes the seal into the first kSealBytes of `image` (zero on entry) from the rest of it.
/// Precondition: image.size() >= kSealBytes.
void seal_image(std::span<std::byte> image);

/// Benchmarks only (bench/integrity_overhead.sh): files written afterwards by this process carry
/// no seal, so that the cost of sealing can be measured against the same binary without it.
void skip_seals_for_benchmark();

enum class SealState {
  kSealed,    ///< the seal matches the content
  kUnsealed,  ///< no seal: an HDF5 file written before seals existed, or by another program
};

/// Checks the file's seal, reading it once. InputError naming the file when it cannot be read,
/// is not a regular file (a FIFO, a directory, a device: refused before it is opened, and opened
/// without waiting; core/input_file.hpp) or is damaged (a seal that does not match, or neither a
/// seal nor an HDF5 signature at its start).
SealState verify_seal(const std::string& path);
/// The same on a file already opened by open_collnoise_file, read from its start.
SealState verify_seal(InputFile& file, const std::string& path);

/// Opens a file collnoise wrote (a result, a part, a checkpoint) for reading: InputError
/// "'<path>' is a FIFO (pipe), not a regular file: results, parts and checkpoints are read only
/// from regular files" for anything but a regular file, without waiting on it.
InputFile open_collnoise_file(const std::string& path);

}  // namespace collnoise
