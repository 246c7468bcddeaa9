#pragma once
// The one place where an input file is opened for reading.
//
// A data file (a GOAL schedule, a detour trace, latency samples, a LogGP table, delays) is read
// only from a regular file: a directory, a FIFO, a device or a socket named as one is refused at
// once, with its path and what it is, before a byte is read. So a FIFO never blocks the run (a
// blocking open would restart after SIGTERM and wait for ever), /dev/zero is never hashed or read
// without end, and the hash of a data file and its reading see the same kind of file. The file is
// checked with stat() first, opened non-blocking and checked again on its descriptor (a file
// swapped for a FIFO in between is caught too).
//
// A run file may also come from a pipe (`collnoise run <(gen)`, a named FIFO): it is read whole
// at once, waiting for the pipe's writer while honouring a stop request.
//
// A UTF-8 byte-order mark at the start of a text input is skipped (some editors write one).
#include <sys/stat.h>
#include <sys/types.h>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace collnoise {

/// The three bytes of a UTF-8 byte-order mark.
inline constexpr std::string_view kUtf8ByteOrderMark = "\xEF\xBB\xBF";

/// `text` without a leading UTF-8 byte-order mark.
inline std::string_view without_byte_order_mark(std::string_view text) {
  if (text.starts_with(kUtf8ByteOrderMark)) text.remove_prefix(kUtf8ByteOrderMark.size());
  return text;
}

/// What a file of mode `mode` (stat's st_mode) is, in words: "a regular file", "a directory",
/// "a FIFO (pipe)", "a character device", "a block device", "a socket".
std::string file_kind(mode_t mode);

/// What a refusal of a special file says is read only from regular files: data files (the
/// default), or the files collnoise writes and reads back.
inline constexpr std::string_view kDataFileRule = "data files are read only from regular files";
inline constexpr std::string_view kCollnoiseFileRule =
    "results, parts and checkpoints are read only from regular files";

/// InputError "<label> is <kind>, not a regular file: <rule>" when `path` exists and is not a
/// regular file (symbolic links are followed); "<label> cannot be read: <reason>" when it cannot
/// be looked at. Opens nothing, so never blocks.
void refuse_unless_regular_file(const std::string& path, const std::string& label,
                                std::string_view rule);

/// A regular file open for reading; the descriptor is closed with the object.
class InputFile {
 public:
  /// Opens `path`, which must be a regular file (symbolic links are followed). `label` names the
  /// file in messages, path included ("GOAL file 'x.goal'"). InputError (exit 2) when the file
  /// cannot be opened ("<label> cannot be read: <reason>") or is not a regular file ("<label> is
  /// a directory, not a regular file: <rule>"). Never blocks.
  static InputFile open_regular(const std::string& path, std::string label,
                                std::string_view rule = kDataFileRule);

  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&& other) noexcept;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile();

  /// The file's size in bytes when it was opened.
  std::uint64_t size() const { return size_; }
  const std::string& label() const { return label_; }
  /// Whether `path` still names the file that was opened (the same device and inode), for a
  /// library that must open it again by name (HDF5).
  bool still_at(const std::string& path) const;

  /// Skips a UTF-8 byte-order mark at the start of the file; call before reading anything.
  void skip_byte_order_mark();
  /// Reads up to `buffer.size()` bytes; 0 at the end of the file. InputError naming the file on
  /// a read error.
  std::size_t read(std::span<char> buffer);
  /// Hands the descriptor over to a stdio stream, read from where this file stands. RuntimeFailure
  /// when no stream can be made (the descriptor is closed then).
  std::FILE* release_to_stdio();

 private:
  InputFile(int fd, const struct stat& st, std::string label);

  int fd_ = -1;
  std::uint64_t size_ = 0;
  dev_t device_ = 0;
  ino_t inode_ = 0;
  std::string label_;
};

/// The lines of a text data file (a regular file, as InputFile::open_regular checks), read in
/// blocks: the text is never held whole. A byte-order mark at the start is skipped.
class TextLines {
 public:
  /// `label` as for InputFile::open_regular.
  TextLines(const std::string& path, std::string label);

  /// The next line, without its '\n' (a '\r' before it stays, as with std::getline); false at
  /// the end. InputError naming the file on a read error.
  bool next(std::string& line);

 private:
  bool refill();

  InputFile file_;
  std::vector<char> buffer_;
  std::size_t at_ = 0;
  std::size_t filled_ = 0;
  bool end_ = false;
};

/// The text of an input read whole, and whether it came from a pipe.
struct WholeText {
  std::string text;   ///< without a leading byte-order mark
  bool pipe = false;  ///< read from a pipe or FIFO: it cannot be read a second time
};

/// Reads the whole text of a regular file or of a pipe (a FIFO, or /dev/fd/63 from a shell's
/// `<(gen)`), a run file. A pipe's writer is waited for, polling for a stop request
/// (StopRequested). InputError naming `label` for a directory, a device or a socket, or a file
/// that cannot be read.
WholeText read_text_or_pipe(const std::string& path, const std::string& label);

/// The whole text of a regular file (with the checks of a data file: InputFile::open_regular),
/// without a leading byte-order mark. InputError naming `label` otherwise.
std::string read_regular_text(const std::string& path, const std::string& label);

}  // namespace collnoise
