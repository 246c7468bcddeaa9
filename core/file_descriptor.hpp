#pragma once
// A POSIX file descriptor owned by one object: closed when the object ends unless it was closed
// or handed on before.
#include <unistd.h>

#include <cerrno>
#include <utility>

namespace collnoise {

class FileDescriptor {
 public:
  /// Takes `fd` (a negative value: none).
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(other.release()) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }

  int get() const { return fd_; }
  /// Hands the descriptor on: the caller closes it.
  int release() { return std::exchange(fd_, -1); }
  /// Closes now, so that the caller sees the error close() can report (a delayed write error on
  /// NFS); returns errno on failure, 0 on success.
  int close() {
    const int fd = release();
    return ::close(fd) == 0 ? 0 : errno;
  }

 private:
  int fd_;
};

}  // namespace collnoise
