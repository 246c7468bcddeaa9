#include "outputs/output_lock.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <optional>
#include <sstream>
#include <utility>

#include "core/errors.hpp"
#include "outputs/atomic_file.hpp"
#include "outputs/timestamp.hpp"

namespace collnoise {
namespace {

struct Holder {
  std::string host;
  long pid = 0;
  std::string started;
};

std::string read_all(int fd) {
  std::string text;
  char buffer[512];
  ::lseek(fd, 0, SEEK_SET);
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > 4096) break;  // a lock file is a few lines
  }
  return text;
}

std::optional<Holder> parse_holder(const std::string& text) {
  Holder h;
  std::istringstream in(text);
  std::string key;
  while (in >> key) {
    if (key == "host")
      in >> h.host;
    else if (key == "pid")
      in >> h.pid;
    else if (key == "started")
      in >> h.started;
  }
  if (h.host.empty() || h.pid <= 0) return std::nullopt;
  return h;
}

std::string describe(const Holder& h) {
  return fmt::format("pid {} on host {}{}", h.pid, h.host,
                     h.started.empty() ? "" : ", started " + h.started);
}

bool lock_unsupported(int error) {
  return error == ENOLCK || error == EOPNOTSUPP || error == ENOSYS || error == EINVAL;
}

}  // namespace

std::string OutputLock::lock_path(const std::string& path) {
  return path + ".lock";
}

OutputLock::OutputLock(const std::string& path, const Note& note) : lock_(lock_path(path)) {
  const std::string me = host_name();
  for (int attempt = 0; attempt < 5; ++attempt) {
    const int fd = ::open(lock_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
      throw InputError(fmt::format("output '{}' cannot be locked: cannot create '{}': {}", path,
                                   lock_, std::strerror(errno)));
    struct flock request {};
    request.l_type = F_WRLCK;
    request.l_whence = SEEK_SET;
    bool locked = ::fcntl(fd, F_SETLK, &request) == 0;
    const int error = errno;
    if (!locked && !lock_unsupported(error)) {
      const auto holder = parse_holder(read_all(fd));
      ::close(fd);
      throw InputError(fmt::format(
          "output '{}' is in use by another collnoise run ({}): wait for it to finish, or "
          "choose another --out",
          path, holder ? describe(*holder) : "its lock file '" + lock_ + "' is held"));
    }
    static bool told = false;  // said once per process, however many outputs it locks
    if (!locked && !std::exchange(told, true))
      note(
          fmt::format("the file system of '{}' cannot lock files: collnoise cannot keep a "
                      "second run from writing the same output there",
                      path));
    // The lock file may have been removed (its holder released it) between open and lock:
    // then this descriptor locks a file nobody else sees, and the name is tried again.
    struct stat by_fd {};
    struct stat by_name {};
    if (::fstat(fd, &by_fd) != 0 || ::stat(lock_.c_str(), &by_name) != 0 ||
        by_fd.st_ino != by_name.st_ino || by_fd.st_dev != by_name.st_dev) {
      ::close(fd);
      continue;
    }
    if (const auto holder = parse_holder(read_all(fd))) {
      const bool mine = holder->host == me && holder->pid == static_cast<long>(::getpid());
      if (holder->host != me) {
        ::close(fd);
        throw InputError(fmt::format(
            "output '{}' is locked by a run on another host ({}); if that run has ended, "
            "remove '{}' and start again",
            path, describe(*holder), lock_));
      }
      if (!mine && !locked && process_alive(holder->pid)) {
        ::close(fd);
        throw InputError(fmt::format(
            "output '{}' is in use by another collnoise run ({}): wait for it to finish, or "
            "choose another --out",
            path, describe(*holder)));
      }
      if (!mine)
        note(fmt::format("took over the lock '{}' left by {}, which no longer holds it", lock_,
                         describe(*holder)));
    }
    const std::string content = fmt::format("collnoise output lock\nhost {}\npid {}\nstarted {}\n",
                                            me, static_cast<long>(::getpid()), utc_timestamp());
    if (::ftruncate(fd, 0) != 0 ||
        ::pwrite(fd, content.data(), content.size(), 0) != static_cast<ssize_t>(content.size())) {
      const int write_error = errno;
      ::close(fd);
      throw RuntimeFailure(
          fmt::format("cannot write the lock file '{}': {}", lock_, std::strerror(write_error)));
    }
    ::fsync(fd);
    fd_ = fd;
    return;
  }
  throw RuntimeFailure(fmt::format("cannot take the lock '{}': it keeps changing", lock_));
}

OutputLock::OutputLock(OutputLock&& other) noexcept
    : lock_(std::move(other.lock_)), fd_(other.fd_) {
  other.fd_ = -1;
}

OutputLock& OutputLock::operator=(OutputLock&& other) noexcept {
  if (this != &other) {
    release();
    lock_ = std::move(other.lock_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

OutputLock::~OutputLock() {
  release();
}

void OutputLock::release() noexcept {
  if (fd_ < 0) return;
  // Removed while still locked, so no other run can take the name and then lose it to us.
  ::unlink(lock_.c_str());
  ::close(fd_);
  fd_ = -1;
}

}  // namespace collnoise
