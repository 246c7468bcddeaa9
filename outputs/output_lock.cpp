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
#include <string_view>
#include <utility>

#include "core/errors.hpp"
#include "core/input_file.hpp"
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

// A full disk, a quota, a file-size limit or a failing device: the machine's fault, not the
// command line's (exit 1).
bool runtime_fault(int error) {
  return error == ENOSPC || error == EDQUOT || error == EFBIG || error == EIO;
}

constexpr std::string_view kRecordHead = "collnoise output lock\n";

struct OpenedLock {
  int fd = -1;
  bool created = false;  ///< this call created the file
};

// Opens the lock file, creating it when there is none, without waiting (a FIFO put there would
// block a plain open). fd -1: it vanished between two tries (its holder released it).
OpenedLock open_lock_file(const std::string& path, const std::string& lock) {
  constexpr int kFlags = O_RDWR | O_NONBLOCK | O_CLOEXEC;
  int fd = -1;
  do fd = ::open(lock.c_str(), kFlags | O_CREAT | O_EXCL, 0644);
  while (fd < 0 && errno == EINTR);
  if (fd >= 0) return {fd, true};
  if (errno == EEXIST) {
    do fd = ::open(lock.c_str(), kFlags);
    while (fd < 0 && errno == EINTR);
    if (fd >= 0 || errno == ENOENT) return {fd, false};
  }
  const int error = errno;
  const std::string message = fmt::format("output '{}' cannot be locked: cannot create '{}': {}",
                                          path, lock, std::strerror(error));
  if (runtime_fault(error)) throw RuntimeFailure(message);
  throw InputError(message);
}

// The holder's record, written whole and flushed; 0, or the errno of the write that failed.
int write_record(int fd, const std::string& content) {
  if (::ftruncate(fd, 0) != 0) return errno;
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n =
        ::pwrite(fd, content.data() + done, content.size() - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    done += static_cast<std::size_t>(n);
  }
  // EINVAL: a file system that cannot sync; the record is still written.
  if (::fsync(fd) != 0 && errno != EINVAL) return errno;
  return 0;
}

}  // namespace

std::string OutputLock::lock_path(const std::string& path) {
  return path + ".lock";
}

OutputLock::OutputLock(const std::string& path, const Note& note) : lock_(lock_path(path)) {
  const std::string me = host_name();
  for (int attempt = 0; attempt < 5; ++attempt) {
    const auto [fd, created] = open_lock_file(path, lock_);
    if (fd < 0) continue;
    struct stat by_fd {};
    if (::fstat(fd, &by_fd) != 0 || !S_ISREG(by_fd.st_mode)) {
      ::close(fd);
      throw InputError(fmt::format(
          "output '{}' cannot be locked: its lock file '{}' is {}, not a regular file: it is "
          "kept; remove it or choose another --out",
          path, lock_, file_kind(by_fd.st_mode)));
    }
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
    struct stat by_name {};
    if (::stat(lock_.c_str(), &by_name) != 0 || by_fd.st_ino != by_name.st_ino ||
        by_fd.st_dev != by_name.st_dev) {
      ::close(fd);
      continue;
    }
    const std::string recorded = read_all(fd);
    if (const auto holder = parse_holder(recorded)) {
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
    } else if (!created && !recorded.starts_with(kRecordHead) &&
               !kRecordHead.starts_with(recorded)) {
      // Not a lock collnoise wrote: a file of the user's, which taking over would delete.
      ::close(fd);
      throw InputError(fmt::format(
          "output '{}' cannot be locked: '{}' is not a collnoise lock file (it records no "
          "holder): it is kept; remove it or choose another --out",
          path, lock_));
    } else if (!created) {
      note(fmt::format(
          "took over the lock '{}', which records no holder ({}): a run stopped before it wrote "
          "its record",
          lock_, recorded.empty() ? "it is empty" : "its record is cut short"));
    }
    const std::string content = fmt::format("{}host {}\npid {}\nstarted {}\n", kRecordHead, me,
                                            static_cast<long>(::getpid()), utc_timestamp());
    if (const int write_error = write_record(fd, content); write_error != 0) {
      // Nobody else holds this file (this run made it, or holds its kernel lock): it goes, so
      // that no empty lock is left behind.
      if (created || locked) ::unlink(lock_.c_str());
      ::close(fd);
      throw RuntimeFailure(fmt::format("cannot write the lock file '{}' of output '{}': {}", lock_,
                                       path, std::strerror(write_error)));
    }
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
