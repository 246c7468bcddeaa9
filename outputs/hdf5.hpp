#pragma once
// The one wrapper over the HDF5 C API: RAII handles, every call checked, failures thrown as
// RuntimeFailure carrying HDF5's error stack. Nothing else in collnoise sees an hid_t.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "outputs/record.hpp"

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

 private:
  void close() noexcept;
  std::int64_t id_ = -1;
  int kind_ = 0;
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
  /// Writes every field as an attribute (nulls as "<key>_reason" strings).
  void write_record(const Record& record) const;
  /// Reads every attribute in creation order back into a record.
  Record read_record() const;
  std::optional<Field> attribute(const std::string& name) const;

  /// A dataset of the values: one-dimensional, or rows x `columns` (row-major) when columns > 0.
  void write_doubles(const std::string& name, std::span<const double> values,
                     std::size_t columns = 0) const;
  void write_counts(const std::string& name, std::span<const std::uint64_t> values,
                    std::size_t columns = 0) const;
  /// One compressed one-dimensional dataset of the pieces end to end, written piece by piece so
  /// that large data (raw samples) is never copied into one buffer first.
  void write_concatenated(const std::string& name,
                          std::span<const std::span<const double>> pieces) const;
  /// A dataset's values, flattened row-major.
  std::vector<double> read_doubles(const std::string& name) const;
  std::vector<std::uint64_t> read_counts(const std::string& name) const;

  std::int64_t id() const { return handle_.id(); }

 private:
  Handle handle_;
};

class File {
 public:
  /// Creates (truncating) a file. RuntimeFailure naming the path on failure.
  static File create(const std::string& path);
  /// Opens read-only. RuntimeFailure naming the path on failure.
  static File open(const std::string& path);
  Group root() const;
  /// Flushes and closes; throws on failure (a destructor cannot).
  void close();

 private:
  explicit File(Handle h, std::string path) : handle_(std::move(h)), path_(std::move(path)) {}
  Handle handle_;
  std::string path_;
};

}  // namespace collnoise::h5
