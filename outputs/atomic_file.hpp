#pragma once
// Files that appear whole or not at all. A file is written to `<path>.tmp-<host>-<pid>`, created
// exclusively, flushed to the device, then renamed over `path` (and the directory synced), so a
// reader or a resumed run never sees a partial file and a failed write leaves the previous file,
// if any, as it was. Every system call is checked: a full disk, a file-size limit or an I/O
// error is a RuntimeFailure naming the file and the system's reason.
//
// A process killed outright (SIGKILL, a power loss) leaves its temporary behind; the next run
// writing the same path on the same host removes it once its process is gone
// (remove_stale_temporaries). Temporaries of another host are left alone: nothing here can tell
// whether their writer still runs (docs/cli.md, "What collnoise promises").
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace collnoise {

/// This machine's host name ("localhost" when it cannot be read).
std::string host_name();

/// Whether process `pid` of this host still runs.
bool process_alive(long pid);

/// The temporary name beside `path` through which this process writes it.
std::string temporary_name(const std::string& path);

/// Writes `bytes` as the new content of `path`, atomically. RuntimeFailure naming the path and
/// the cause on any failure; the temporary is removed then.
void write_file_atomically(const std::string& path, std::span<const std::byte> bytes);

/// Fails early (InputError naming the path and the cause) if `path` cannot be created: its
/// directory is missing or not writable.
void check_writable(const std::string& path);

/// Removes the temporaries of `path` left by processes of this host that no longer run, and
/// returns their names.
std::vector<std::string> remove_stale_temporaries(const std::string& path);

}  // namespace collnoise
