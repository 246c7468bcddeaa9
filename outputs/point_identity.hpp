#pragma once
// Each point's identity in result, part and checkpoint files (docs/hdf5-layout.md): the text its
// streams are keyed by and every data file it read, with the path the run file gives and the hash
// of the content. Samples are bound to data by content, not by path: a resumed run or a merge
// whose data files hold other bytes than the ones sampled is refused, naming the file; a job
// directory moved elsewhere still matches.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "outputs/hdf5.hpp"
#include "outputs/run_identity.hpp"

namespace collnoise {

/// Writes `identity` into a point's group: the attribute "stream_identity" and, when the point
/// reads data files, a group "inputs" with one group per file ("0000", ...) holding the
/// attributes key, path and xxh3.
void write_point_identity(const h5::Group& point, const PointIdentity& identity);

/// The identity a point's group records; nullopt in files written before identities were
/// recorded. InputError when the records are there but incomplete (a damaged file).
std::optional<PointIdentity> read_point_identity(const h5::Group& point, const std::string& where);

/// "xxh3:1a2b3c4d5e6f..." : enough of a hash to tell two contents apart in a message.
std::string brief_hash(const std::string& hash);

/// Where two records of a run's points differ, in words, or nullopt when they agree: the first
/// data file (by key) whose content differs, with its path and both hashes in brief ("noise.file
/// = 'trace.txt' (point 0) held xxh3:1a2b... <a_when> and xxh3:9f8e... <b_when>"), else a file one
/// reads and the other does not, else the first line of a stream identity that differs. Paths are
/// not compared: a file moved with the same content is the same data.
std::optional<std::string> identity_difference(std::span<const PointIdentity> a,
                                               std::string_view a_when,
                                               std::span<const PointIdentity> b,
                                               std::string_view b_when);

}  // namespace collnoise
