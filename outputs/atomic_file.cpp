#include "outputs/atomic_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

#include "core/errors.hpp"
#include "core/file_descriptor.hpp"

namespace fs = std::filesystem;

namespace collnoise {
namespace {

constexpr const char* kTemporaryTag = ".tmp-";

std::string system_error(int error) {
  return std::strerror(error);
}

void write_all(int fd, std::span<const std::byte> bytes, const std::string& name) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw RuntimeFailure(fmt::format("cannot write '{}': {}", name, system_error(errno)));
    }
    done += static_cast<std::size_t>(n);
  }
}

// The directory entry of a rename becomes durable only when the directory is synced.
void sync_directory_of(const std::string& path) {
  const fs::path dir = fs::path(path).parent_path();
  const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // some file systems do not open directories: the rename is still atomic
  ::fsync(fd);
  ::close(fd);
}

// "<host>-<pid>" after the temporary tag, split at the last '-' (host names may hold '-').
bool parse_owner(std::string_view suffix, std::string& host, long& pid) {
  const auto dash = suffix.rfind('-');
  if (dash == std::string_view::npos || dash == 0) return false;
  const std::string_view digits = suffix.substr(dash + 1);
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
  if (error != std::errc() || end != digits.data() + digits.size() || pid <= 0) return false;
  host = std::string(suffix.substr(0, dash));
  return true;
}

}  // namespace

std::string host_name() {
  char buffer[256] = {};
  if (::gethostname(buffer, sizeof buffer - 1) != 0 || buffer[0] == '\0') return "localhost";
  return buffer;
}

bool process_alive(long pid) {
  return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

std::string temporary_name(const std::string& path) {
  return fmt::format("{}{}{}-{}", path, kTemporaryTag, host_name(), static_cast<long>(::getpid()));
}

void write_file_atomically(const std::string& path, std::span<const std::byte> bytes) {
  const std::string tmp = temporary_name(path);
  ::unlink(tmp.c_str());  // a leftover of this very process id (a reused pid) is stale
  FileDescriptor fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (fd.get() < 0)
    throw RuntimeFailure(fmt::format("cannot create '{}': {}", tmp, system_error(errno)));
  try {
    write_all(fd.get(), bytes, tmp);
    if (::fsync(fd.get()) != 0)
      throw RuntimeFailure(fmt::format("cannot flush '{}': {}", tmp, system_error(errno)));
    if (const int error = fd.close(); error != 0)
      throw RuntimeFailure(fmt::format("cannot close '{}': {}", tmp, system_error(error)));
    if (::rename(tmp.c_str(), path.c_str()) != 0)
      throw RuntimeFailure(
          fmt::format("cannot rename '{}' to '{}': {}", tmp, path, system_error(errno)));
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  sync_directory_of(path);
}

void check_writable(const std::string& path) {
  const std::string tmp = temporary_name(path);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    throw InputError(fmt::format("output '{}' cannot be written: {}", path, system_error(errno)));
  ::close(fd);
  ::unlink(tmp.c_str());
}

std::vector<std::string> remove_stale_temporaries(const std::string& path) {
  std::vector<std::string> removed;
  const fs::path target(path);
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  const std::string prefix = target.filename().string() + kTemporaryTag;
  const std::string me = host_name();
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(prefix)) continue;
    std::string host;
    long pid = 0;
    if (!parse_owner(std::string_view(name).substr(prefix.size()), host, pid)) continue;
    if (host != me || pid == static_cast<long>(::getpid()) || process_alive(pid)) continue;
    // A directory (an OTF2 archive being written) goes with its contents.
    std::error_code remove_error;
    if (fs::remove_all(it->path(), remove_error) > 0 && !remove_error)
      removed.push_back(it->path().string());
  }
  return removed;
}

}  // namespace collnoise
