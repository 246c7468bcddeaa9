#include "core/input_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <utility>
#ifdef __linux__
#include <sys/vfs.h>
#endif

#include "core/errors.hpp"
#include "core/file_descriptor.hpp"
#include "core/stop_request.hpp"

namespace collnoise {
namespace {

InputError cannot_read(const std::string& label, int error) {
  return InputError(fmt::format("{} cannot be read: {}", label, std::strerror(error)));
}

InputError read_error(const std::string& label, int error) {
  return InputError(fmt::format("{}: read error: {}", label, std::strerror(error)));
}

void refuse_unless_regular(const std::string& label, mode_t mode, std::string_view rule) {
  if (!S_ISREG(mode))
    throw InputError(fmt::format("{} is {}, not a regular file: {}", label, file_kind(mode), rule));
}

mode_t mode_of_path(const std::string& path, const std::string& label) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw cannot_read(label, errno);
  return st.st_mode;
}

// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, and a blocking open
// restarts after a signal, so not even SIGTERM would end the wait.
FileDescriptor open_nonblocking(const std::string& path, const std::string& label) {
  while (true) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) return FileDescriptor(fd);
    if (errno != EINTR) throw cannot_read(label, errno);
    throw_if_stop_requested();
  }
}

struct stat status_of(const FileDescriptor& fd, const std::string& label) {
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw cannot_read(label, errno);
  return st;
}

// A pipe made by pipe() (a shell's `<(gen)` is one) rather than a named FIFO: once its writers
// are gone, none can come.
bool anonymous_pipe([[maybe_unused]] int fd) {
#ifdef __linux__
  constexpr long kPipeFsMagic = 0x50495045;
  struct statfs fs {};
  return ::fstatfs(fd, &fs) == 0 && static_cast<long>(fs.f_type) == kPipeFsMagic;
#else
  return false;
#endif
}

// Reads a pipe, opened non-blocking, to its end. A named FIFO's writer may not have opened it
// yet (a read then finds no data and no writer, as at the end): it is waited for until data or a
// hang-up comes; every wait is short, so a stop request is honoured within a fraction of a
// second.
void read_pipe(int fd, const std::string& label, std::string& text) {
  const bool writer_may_come = !anonymous_pipe(fd);
  bool hung_up = false;
  std::vector<char> block(std::size_t{1} << 16);
  while (true) {
    const ssize_t got = ::read(fd, block.data(), block.size());
    if (got > 0) {
      text.append(block.data(), static_cast<std::size_t>(got));
      continue;
    }
    if (got == 0 && (!text.empty() || hung_up || !writer_may_come)) return;
    if (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
      throw read_error(label, errno);
    throw_if_stop_requested();
    pollfd wait{.fd = fd, .events = POLLIN, .revents = 0};
    const int ready = ::poll(&wait, 1, 200);
    if (ready < 0 && errno != EINTR) throw read_error(label, errno);
    if (ready > 0 && (wait.revents & POLLHUP) != 0) hung_up = true;
  }
}

}  // namespace

std::string file_kind(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

void refuse_unless_regular_file(const std::string& path, const std::string& label,
                                std::string_view rule) {
  refuse_unless_regular(label, mode_of_path(path, label), rule);
}

InputFile InputFile::open_regular(const std::string& path, std::string label,
                                  std::string_view rule) {
  refuse_unless_regular(label, mode_of_path(path, label), rule);
  FileDescriptor fd = open_nonblocking(path, label);
  // Again on what was opened: the path may have been replaced since stat().
  const struct stat st = status_of(fd, label);
  refuse_unless_regular(label, st.st_mode, rule);
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0)
    throw cannot_read(label, errno);
  return InputFile(fd.release(), st, std::move(label));
}

InputFile::InputFile(int fd, const struct stat& st, std::string label)
    : fd_(fd),
      size_(static_cast<std::uint64_t>(st.st_size)),
      device_(st.st_dev),
      inode_(st.st_ino),
      label_(std::move(label)) {}

InputFile::InputFile(InputFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      size_(other.size_),
      device_(other.device_),
      inode_(other.inode_),
      label_(std::move(other.label_)) {}

bool InputFile::still_at(const std::string& path) const {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == device_ &&
         st.st_ino == inode_;
}

InputFile& InputFile::operator=(InputFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    size_ = other.size_;
    device_ = other.device_;
    inode_ = other.inode_;
    label_ = std::move(other.label_);
  }
  return *this;
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

void InputFile::skip_byte_order_mark() {
  char head[3] = {};
  ssize_t got = 0;
  do {
    got = ::pread(fd_, head, sizeof head, 0);
  } while (got < 0 && errno == EINTR);
  if (got < 0) throw read_error(label_, errno);
  const bool mark = std::string_view(head, static_cast<std::size_t>(got)) == kUtf8ByteOrderMark;
  if (::lseek(fd_, mark ? 3 : 0, SEEK_SET) < 0) throw read_error(label_, errno);
}

std::size_t InputFile::read(std::span<char> buffer) {
  while (true) {
    const ssize_t got = ::read(fd_, buffer.data(), buffer.size());
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno != EINTR) throw read_error(label_, errno);
    throw_if_stop_requested();
  }
}

std::FILE* InputFile::release_to_stdio() {
  std::FILE* stream = ::fdopen(fd_, "rb");
  if (!stream) {
    const int error = errno;
    ::close(std::exchange(fd_, -1));
    throw RuntimeFailure(fmt::format("{}: cannot make a stream: {}", label_, std::strerror(error)));
  }
  fd_ = -1;
  return stream;
}

TextLines::TextLines(const std::string& path, std::string label)
    : file_(InputFile::open_regular(path, std::move(label))), buffer_(std::size_t{1} << 18) {
  file_.skip_byte_order_mark();
}

bool TextLines::refill() {
  at_ = 0;
  filled_ = file_.read(buffer_);
  end_ = filled_ == 0;
  return !end_;
}

bool TextLines::next(std::string& line) {
  line.clear();
  while (true) {
    const char* begin = buffer_.data() + at_;
    const std::size_t available = filled_ - at_;
    if (const void* newline = std::memchr(begin, '\n', available)) {
      const auto length = static_cast<std::size_t>(static_cast<const char*>(newline) - begin);
      line.append(begin, length);
      at_ += length + 1;
      return true;
    }
    line.append(begin, available);
    at_ = filled_;
    if (end_ || !refill()) return !line.empty();
  }
}

WholeText read_text_or_pipe(const std::string& path, const std::string& label) {
  const auto refuse_unless_readable = [&](mode_t mode) {
    if (!S_ISREG(mode) && !S_ISFIFO(mode))
      throw InputError(fmt::format("{} is {}: it is read from a regular file or a pipe", label,
                                   file_kind(mode)));
  };
  const mode_t mode = mode_of_path(path, label);
  refuse_unless_readable(mode);
  WholeText whole;
  if (S_ISFIFO(mode)) {
    FileDescriptor fd = open_nonblocking(path, label);
    const mode_t opened = status_of(fd, label).st_mode;  // the path may have been replaced
    refuse_unless_readable(opened);
    whole.pipe = S_ISFIFO(opened);
    if (whole.pipe) read_pipe(fd.get(), label, whole.text);
  }
  if (!whole.pipe) return {read_regular_text(path, label), false};
  if (whole.text.starts_with(kUtf8ByteOrderMark)) whole.text.erase(0, kUtf8ByteOrderMark.size());
  return whole;
}

std::string read_regular_text(const std::string& path, const std::string& label) {
  InputFile file = InputFile::open_regular(path, label);
  std::string text(file.size(), '\0');
  std::size_t filled = 0;
  while (true) {
    if (filled == text.size()) text.resize(filled + (std::size_t{1} << 16));
    const std::size_t got = file.read(std::span(text).subspan(filled));
    if (got == 0) break;
    filled += got;
  }
  text.resize(filled);
  if (text.starts_with(kUtf8ByteOrderMark)) text.erase(0, kUtf8ByteOrderMark.size());
  return text;
}

}  // namespace collnoise
