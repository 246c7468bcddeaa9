#pragma once
// The one wrapper over the HDF5 C API: RAII handles, every call checked, failures thrown as
// RuntimeFailure (with HDF5's error stack when verbose). Nothing else in collnoise sees an hid_t.
//
// Files are built in memory (HDF5's core driver) and written by commit() through
// write_file_atomically, sealed with a checksum (outputs/file_seal.hpp): HDF5 never writes to
// the disk itself, so a full disk or an I/O error fails one checked write of ours with a clear
// message, instead of leaving HDF5 with a half-closed file that crashes it at exit. Files are
// opened only after their seal is verified. Strings are stored fixed-length and chunked
// datasets carry Fletcher32 checksums: no variable-length data, which HDF5 does not checksum.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "core/record.hpp"

namespace collnoise::h5 {

/// An open HDF5 object handle (file, group or dataset), closed on destruction.
class Handle {
 public:
  Handle() = default;
  explicit Handle(std::int64_t id, int kind);
  Handle(Handle&& other) noexcept;
  Handle& operator=(Handle&& other) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle();
  std::int64_t id() const { return id_; }
  /// Gives up the handle without closing it (it was closed by other means).
  std::int64_t release() noexcept {
    const std::int64_t id = id_;
    id_ = -1;
    return id;
  }

 private:
  void close() noexcept;
  std::int64_t id_ = -1;
  int kind_ = 0;
};

/// One column of a table (Group::write_table): its name and its values, one per row. Numbers
/// are float64, integers int64, booleans the enum h5py reads as numpy bool, text fixed-length
/// strings as wide as the longest value (h5py reads them as bytes).
struct Column {
  std::string name;
  std::variant<std::vector<double>, std::vector<std::int64_t>, std::vector<bool>,
               std::vector<std::string>>
      values;
  std::size_t rows() const;
};

/// A dataset, open for its attributes.
class Dataset {
 public:
  explicit Dataset(Handle handle) : handle_(std::move(handle)) {}
  void set_attribute(const std::string& name, const Field& value) const;
  /// A one-dimensional attribute of fixed-length strings (per-column units).
  void set_texts(const std::string& name, std::span<const std::string> texts) const;
  std::int64_t id() const { return handle_.id(); }

 private:
  Handle handle_;
};

class Group {
 public:
  explicit Group(Handle handle) : handle_(std::move(handle)) {}

  Group create_group(const std::string& name) const;
  Group open_group(const std::string& name) const;
  bool has_child(const std::string& name) const;
  /// Child group names in creation order.
  std::vector<std::string> children() const;

  void set_attribute(const std::string& name, const Field& value) const;
  /// Writes every field as an attribute (nulls as "<key>_reason" strings), each followed by
  /// "<key>_units" when the record declares its unit.
  void write_record(const Record& record) const;
  /// Reads every attribute in creation order back into a record ("<key>_reason" as a null,
  /// "<key>_units" beside a value as its unit).
  Record read_record() const;
  std::optional<Field> attribute(const std::string& name) const;

  /// A dataset of the values: one-dimensional, or rows x `columns` (row-major) when columns > 0.
  Dataset write_doubles(const std::string& name, std::span<const double> values,
                        std::size_t columns = 0) const;
  Dataset write_counts(const std::string& name, std::span<const std::uint64_t> values,
                       std::size_t columns = 0) const;
  /// One compressed one-dimensional dataset of the pieces end to end, written piece by piece so
  /// that large data (raw samples) is never copied into one buffer first.
  Dataset write_concatenated(const std::string& name,
                             std::span<const std::span<const double>> pieces) const;
  /// A one-dimensional dataset of a compound type, one member per column in order, one element
  /// per row: what numpy reads as a structured array. Precondition: at least one column, every
  /// column of the same number of rows, distinct names (RuntimeFailure otherwise).
  Dataset write_table(const std::string& name, std::span<const Column> columns) const;
  /// A table write_table wrote, column by column: numbers as float64, integers as int64, the
  /// bool enum as bool, fixed-length text as text. InputError when it is not a one-dimensional
  /// compound of those, or holds more than `max_cells` cells.
  std::vector<Column> read_table(const std::string& name,
                                 std::uint64_t max_cells = kMaxDatasetValues) const;
  Dataset open_dataset(const std::string& name) const;
  /// A dataset's values, flattened row-major. InputError when it is not numeric, or holds more
  /// than `max_values` values (a damaged or crafted size, refused before any allocation).
  std::vector<double> read_doubles(const std::string& name,
                                   std::uint64_t max_values = kMaxDatasetValues) const;
  std::vector<std::uint64_t> read_counts(const std::string& name,
                                         std::uint64_t max_values = kMaxDatasetValues) const;
  /// No dataset collnoise writes holds more values (2^36: 512 GiB of doubles).
  static constexpr std::uint64_t kMaxDatasetValues = std::uint64_t{1} << 36;

  std::int64_t id() const { return handle_.id(); }

 private:
  Handle handle_;
};

/// Whether to check a file's seal before reading it (`--no-verify` turns it off).
enum class Verify { kYes, kNo };

/// How files are opened: verified or not, and where a remark goes (a file without a seal).
struct ReadOptions {
  Verify verify = Verify::kYes;
  std::function<void(const std::string&)> note;
};

/// HDF5's error stack in messages and on stderr (`--verbose`); off by default.
void set_verbose(bool verbose);

class File {
 public:
  /// A new, empty file in memory; nothing is written until commit().
  static File create();
  /// Opens `path` read-only, after verifying its seal (unless options.verify is kNo; a file
  /// without a seal is read with a note). InputError naming the file when it is missing,
  /// damaged or not HDF5.
  static File open(const std::string& path, const ReadOptions& options = {});
  File(File&&) noexcept;
  File& operator=(File&&) noexcept;
  ~File();

  Group root() const;
  /// Whether the file opened carried a seal (false: written before seals, or not verified).
  bool sealed() const { return sealed_; }
  /// Closes a created file and writes it, sealed, to `path` atomically. RuntimeFailure naming
  /// the path and the cause (a full disk, a file-size limit) on failure; `path` is then as it
  /// was.
  void commit(const std::string& path);

  struct Image;  ///< the memory of a created file

 private:
  File(Handle h, std::unique_ptr<Image> image, bool sealed);
  std::unique_ptr<Image> image_;  // before handle_: HDF5 frees the image when the handle closes
  Handle handle_;
  bool sealed_ = false;
};

}  // namespace collnoise::h5
