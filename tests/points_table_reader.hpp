#pragma once
// Reads a result file's points table (docs/hdf5-layout.md) with the HDF5 C API alone, as any
// other program would: columns by name through HDF5's conversion of compound members, and the
// `units` and `sources` attributes.
#include <hdf5.h>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace collnoise::testing {

class PointsTableReader {
 public:
  explicit PointsTableReader(const std::string& path, const char* dataset = "points_table") {
    file_ = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    REQUIRE(file_ >= 0);
    REQUIRE(H5Lexists(file_, dataset, H5P_DEFAULT) > 0);
    dataset_ = H5Dopen2(file_, dataset, H5P_DEFAULT);
    type_ = H5Dget_type(dataset_);
    const hid_t space = H5Dget_space(dataset_);
    REQUIRE(H5Sget_simple_extent_ndims(space) == 1);
    H5Sget_simple_extent_dims(space, &rows_, nullptr);
    H5Sclose(space);
  }
  ~PointsTableReader() {
    H5Tclose(type_);
    H5Dclose(dataset_);
    H5Fclose(file_);
  }
  PointsTableReader(const PointsTableReader&) = delete;
  PointsTableReader& operator=(const PointsTableReader&) = delete;

  std::size_t rows() const { return static_cast<std::size_t>(rows_); }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (int i = 0; i < H5Tget_nmembers(type_); ++i) {
      char* name = H5Tget_member_name(type_, static_cast<unsigned>(i));
      out.emplace_back(name);
      H5free_memory(name);
    }
    return out;
  }

  /// H5T_FLOAT, H5T_INTEGER, H5T_STRING or H5T_ENUM (booleans); H5T_NO_CLASS when absent.
  H5T_class_t column_class(const std::string& name) const {
    const int index = H5Tget_member_index(type_, name.c_str());
    return index < 0 ? H5T_NO_CLASS : H5Tget_member_class(type_, static_cast<unsigned>(index));
  }

  std::vector<double> numbers(const std::string& name) const {
    return read_member<double>(name, H5T_NATIVE_DOUBLE);
  }
  std::vector<std::int64_t> integers(const std::string& name) const {
    return read_member<std::int64_t>(name, H5T_NATIVE_INT64);
  }
  /// A boolean column (an enum of int8: FALSE = 0, TRUE = 1) as 0 and 1.
  std::vector<std::int8_t> booleans(const std::string& name) const {
    const hid_t type = member_type(name);
    REQUIRE(H5Tget_class(type) == H5T_ENUM);
    auto values = read_member<std::int8_t>(name, type);
    H5Tclose(type);
    return values;
  }
  std::vector<std::string> texts(const std::string& name) const {
    const hid_t type = member_type(name);
    REQUIRE(H5Tget_class(type) == H5T_STRING);
    const std::size_t width = H5Tget_size(type);
    const hid_t memory = H5Tcreate(H5T_COMPOUND, width);
    H5Tinsert(memory, name.c_str(), 0, type);
    std::vector<char> buffer(rows() * width);
    REQUIRE(H5Dread(dataset_, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()) >= 0);
    H5Tclose(memory);
    H5Tclose(type);
    std::vector<std::string> out;
    for (std::size_t r = 0; r < rows(); ++r) {
      std::string text(buffer.data() + r * width, width);
      out.push_back(text.substr(0, text.find('\0')));
    }
    return out;
  }

  /// A one-dimensional attribute of fixed-length strings (`units`, `sources`).
  std::vector<std::string> string_array_attribute(const std::string& name) const {
    REQUIRE(H5Aexists(dataset_, name.c_str()) > 0);
    const hid_t attr = H5Aopen(dataset_, name.c_str(), H5P_DEFAULT);
    const hid_t type = H5Aget_type(attr);
    REQUIRE(H5Tget_class(type) == H5T_STRING);
    REQUIRE(H5Tis_variable_str(type) == 0);
    const hid_t space = H5Aget_space(attr);
    hsize_t count = 0;
    REQUIRE(H5Sget_simple_extent_ndims(space) == 1);
    H5Sget_simple_extent_dims(space, &count, nullptr);
    const std::size_t width = H5Tget_size(type);
    std::vector<char> buffer(static_cast<std::size_t>(count) * width);
    REQUIRE(H5Aread(attr, type, buffer.data()) >= 0);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < count; ++i) {
      std::string text(buffer.data() + i * width, width);
      out.push_back(text.substr(0, text.find('\0')));
    }
    H5Sclose(space);
    H5Tclose(type);
    H5Aclose(attr);
    return out;
  }

  /// Every row as stored (types and values): two tables are the same when these are.
  std::vector<std::byte> bytes() const {
    std::vector<std::byte> buffer(rows() * H5Tget_size(type_));
    if (!buffer.empty())
      REQUIRE(H5Dread(dataset_, type_, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()) >= 0);
    return buffer;
  }

 private:
  hid_t member_type(const std::string& name) const {
    const int index = H5Tget_member_index(type_, name.c_str());
    REQUIRE(index >= 0);
    return H5Tget_member_type(type_, static_cast<unsigned>(index));
  }

  // One member, converted by HDF5 into `type` (a compound of that member alone selects it).
  template <class T>
  std::vector<T> read_member(const std::string& name, hid_t type) const {
    INFO("column " << name);
    REQUIRE(H5Tget_member_index(type_, name.c_str()) >= 0);
    const hid_t memory = H5Tcreate(H5T_COMPOUND, sizeof(T));
    H5Tinsert(memory, name.c_str(), 0, type);
    std::vector<T> values(rows());
    REQUIRE(H5Dread(dataset_, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
    H5Tclose(memory);
    return values;
  }

  hid_t file_ = -1;
  hid_t dataset_ = -1;
  hid_t type_ = -1;
  hsize_t rows_ = 0;
};

}  // namespace collnoise::testing
