#include "outputs/hdf5.hpp"

#include <fmt/format.h>
#include <hdf5.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "core/errors.hpp"
#include "outputs/atomic_file.hpp"
#include "outputs/file_seal.hpp"

namespace collnoise::h5 {
namespace {

enum Kind { kFile = 1, kGroup, kDataset, kAttribute, kSpace, kType, kPlist };

bool g_verbose = false;

std::string error_stack() {
  if (!g_verbose) {
    H5Eclear2(H5E_DEFAULT);
    return "HDF5 error (--verbose shows HDF5's error stack)";
  }
  std::string text;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_DOWNWARD,
      [](unsigned n, const H5E_error2_t* e, void* data) -> herr_t {
        auto* out = static_cast<std::string*>(data);
        if (n < 4 && e->desc)
          *out += fmt::format("{}{} ({})", out->empty() ? "" : "; ", e->desc,
                              e->func_name ? e->func_name : "?");
        return 0;
      },
      &text);
  H5Eclear2(H5E_DEFAULT);
  return text.empty() ? "no HDF5 error detail" : text;
}

void silence_default_printer() {
  if (!g_verbose) H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

hid_t check(hid_t id, const std::string& what) {
  if (id < 0) throw RuntimeFailure(fmt::format("HDF5: {} failed: {}", what, error_stack()));
  return id;
}

void check_status(herr_t status, const std::string& what) {
  if (status < 0) throw RuntimeFailure(fmt::format("HDF5: {} failed: {}", what, error_stack()));
}

Handle make(hid_t id, Kind kind, const std::string& what) {
  return Handle(check(id, what), kind);
}

// Strings are fixed-length (the text and its terminating zero): variable-length data lives in
// HDF5's global heap, which carries no checksum.
Handle string_type(std::size_t length) {
  Handle t = make(H5Tcopy(H5T_C_S1), kType, "copy string type");
  check_status(H5Tset_size(t.id(), length + 1), "set string size");
  check_status(H5Tset_strpad(t.id(), H5T_STR_NULLTERM), "set string padding");
  check_status(H5Tset_cset(t.id(), H5T_CSET_UTF8), "set string charset");
  return t;
}

// Variable-length strings, for reading files written before strings were fixed-length.
Handle variable_string_type() {
  Handle t = make(H5Tcopy(H5T_C_S1), kType, "copy string type");
  check_status(H5Tset_size(t.id(), H5T_VARIABLE), "set string size");
  check_status(H5Tset_cset(t.id(), H5T_CSET_UTF8), "set string charset");
  return t;
}

// Booleans as the enum h5py maps to numpy bool.
Handle bool_type() {
  Handle t = make(H5Tenum_create(H5T_NATIVE_INT8), kType, "create bool type");
  const std::int8_t f = 0;
  const std::int8_t tr = 1;
  check_status(H5Tenum_insert(t.id(), "FALSE", &f), "insert FALSE");
  check_status(H5Tenum_insert(t.id(), "TRUE", &tr), "insert TRUE");
  return t;
}

Handle ordered_group_plist() {
  Handle p = make(H5Pcreate(H5P_GROUP_CREATE), kPlist, "create group plist");
  check_status(H5Pset_link_creation_order(p.id(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
               "track link order");
  check_status(H5Pset_attr_creation_order(p.id(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
               "track attribute order");
  return p;
}

// A scalar attribute, or a one-dimensional one of `count` elements when count is given.
void write_attribute(hid_t owner, const std::string& name, hid_t type, const void* data,
                     std::optional<hsize_t> count = std::nullopt) {
  if (H5Aexists(owner, name.c_str()) > 0)
    check_status(H5Adelete(owner, name.c_str()), "delete attribute " + name);
  const hsize_t dims[1] = {count.value_or(0)};
  Handle space = count ? make(H5Screate_simple(1, dims, nullptr), kSpace, "create array space")
                       : make(H5Screate(H5S_SCALAR), kSpace, "create scalar space");
  Handle attr = make(H5Acreate2(owner, name.c_str(), type, space.id(), H5P_DEFAULT, H5P_DEFAULT),
                     kAttribute, "create attribute " + name);
  if (!count || *count > 0)
    check_status(H5Awrite(attr.id(), type, data), "write attribute " + name);
}

// Number of elements of a one-dimensional attribute; nullopt for a scalar.
std::optional<hsize_t> attribute_length(hid_t attr, const std::string& name) {
  Handle space = make(H5Aget_space(attr), kSpace, "space of " + name);
  if (H5Sget_simple_extent_ndims(space.id()) == 0) return std::nullopt;
  return static_cast<hsize_t>(H5Sget_simple_extent_npoints(space.id()));
}

Field read_attribute(hid_t attr, const std::string& name) {
  Handle type = make(H5Aget_type(attr), kType, "get type of " + name);
  if (const auto length = attribute_length(attr, name)) {
    // Arrays are series (numbers; the indices of absent entries are a separate series).
    const H5T_class_t kind = H5Tget_class(type.id());
    if ((kind != H5T_FLOAT && kind != H5T_INTEGER) || *length > (hsize_t{1} << 24))
      throw InputError(fmt::format("attribute {} is not a series of numbers", name));
    std::vector<double> values(*length);
    if (*length > 0) check_status(H5Aread(attr, H5T_NATIVE_DOUBLE, values.data()), "read " + name);
    return series_of(values);
  }
  switch (H5Tget_class(type.id())) {
    case H5T_FLOAT: {
      double v = 0;
      check_status(H5Aread(attr, H5T_NATIVE_DOUBLE, &v), "read " + name);
      return v;
    }
    case H5T_INTEGER: {
      if (H5Tget_sign(type.id()) == H5T_SGN_NONE) {
        std::uint64_t v = 0;
        check_status(H5Aread(attr, H5T_NATIVE_UINT64, &v), "read " + name);
        return v;
      }
      std::int64_t v = 0;
      check_status(H5Aread(attr, H5T_NATIVE_INT64, &v), "read " + name);
      return v;
    }
    case H5T_ENUM: {
      std::int8_t v = 0;
      Handle bt = bool_type();
      check_status(H5Aread(attr, bt.id(), &v), "read " + name);
      return v != 0;
    }
    case H5T_STRING: {
      if (H5Tis_variable_str(type.id()) > 0) {
        Handle st = variable_string_type();
        char* text = nullptr;
        check_status(H5Aread(attr, st.id(), &text), "read " + name);
        std::string value = text ? text : "";
        Handle space = make(H5Aget_space(attr), kSpace, "space of " + name);
        H5Dvlen_reclaim(st.id(), space.id(), H5P_DEFAULT, &text);
        return value;
      }
      const std::size_t size = H5Tget_size(type.id());
      if (size == 0 || size > (std::size_t{1} << 30))
        throw InputError(fmt::format("attribute {} has an impossible size", name));
      std::string value(size, '\0');
      check_status(H5Aread(attr, type.id(), value.data()), "read " + name);
      return value.substr(0, value.find('\0'));
    }
    default:
      throw RuntimeFailure(fmt::format("HDF5: attribute {} has an unsupported type", name));
  }
}

}  // namespace

Handle::Handle(std::int64_t id, int kind) : id_(id), kind_(kind) {}
Handle::Handle(Handle&& o) noexcept : id_(o.id_), kind_(o.kind_) {
  o.id_ = -1;
}
Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    close();
    id_ = o.id_;
    kind_ = o.kind_;
    o.id_ = -1;
  }
  return *this;
}
Handle::~Handle() {
  close();
}

void Handle::close() noexcept {
  if (id_ < 0) return;
  switch (kind_) {
    case kFile:
      H5Fclose(id_);
      break;
    case kGroup:
      H5Gclose(id_);
      break;
    case kDataset:
      H5Dclose(id_);
      break;
    case kAttribute:
      H5Aclose(id_);
      break;
    case kSpace:
      H5Sclose(id_);
      break;
    case kType:
      H5Tclose(id_);
      break;
    case kPlist:
      H5Pclose(id_);
      break;
    default:
      break;
  }
  id_ = -1;
}

Group Group::create_group(const std::string& name) const {
  Handle plist = ordered_group_plist();
  return Group(make(H5Gcreate2(id(), name.c_str(), H5P_DEFAULT, plist.id(), H5P_DEFAULT), kGroup,
                    "create group " + name));
}

Group Group::open_group(const std::string& name) const {
  return Group(make(H5Gopen2(id(), name.c_str(), H5P_DEFAULT), kGroup, "open group " + name));
}

bool Group::has_child(const std::string& name) const {
  return H5Lexists(id(), name.c_str(), H5P_DEFAULT) > 0;
}

std::vector<std::string> Group::children() const {
  std::vector<std::string> names;
  H5G_info_t info;
  check_status(H5Gget_info(id(), &info), "group info");
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    const ssize_t len =
        H5Lget_name_by_idx(id(), ".", H5_INDEX_CRT_ORDER, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
    check(len, "child name length");
    std::string name(static_cast<std::size_t>(len) + 1, '\0');
    check(H5Lget_name_by_idx(id(), ".", H5_INDEX_CRT_ORDER, H5_ITER_INC, i, name.data(),
                             name.size(), H5P_DEFAULT),
          "child name");
    name.resize(static_cast<std::size_t>(len));
    names.push_back(name);
  }
  return names;
}

namespace {

// One field as an attribute of `owner` (a group or a dataset): a null as "<name>_reason", a
// series as a one-dimensional array with "<name>_missing" listing its absent entries.
void set_field_attribute(hid_t owner, const std::string& name, const Field& value) {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Null>) {
          Handle st = string_type(v.reason.size());
          write_attribute(owner, name + "_reason", st.id(), v.reason.c_str());
        } else if constexpr (std::is_same_v<T, bool>) {
          Handle bt = bool_type();
          const std::int8_t b = v ? 1 : 0;
          write_attribute(owner, name, bt.id(), &b);
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          write_attribute(owner, name, H5T_NATIVE_INT64, &v);
        } else if constexpr (std::is_same_v<T, std::uint64_t>) {
          write_attribute(owner, name, H5T_NATIVE_UINT64, &v);
        } else if constexpr (std::is_same_v<T, double>) {
          write_attribute(owner, name, H5T_NATIVE_DOUBLE, &v);
        } else if constexpr (std::is_same_v<T, Series>) {
          std::vector<double> values;
          std::vector<double> missing;
          for (std::size_t i = 0; i < v.size(); ++i) {
            values.push_back(v[i].value_or(0.0));
            if (!v[i]) missing.push_back(static_cast<double>(i));
          }
          write_attribute(owner, name, H5T_NATIVE_DOUBLE, values.data(), values.size());
          if (!missing.empty())
            write_attribute(owner, name + "_missing", H5T_NATIVE_DOUBLE, missing.data(),
                            missing.size());
        } else {
          Handle st = string_type(v.size());
          write_attribute(owner, name, st.id(), v.c_str());
        }
      },
      value);
}

constexpr std::string_view kUnitsSuffix = "_units";

}  // namespace

void Group::set_attribute(const std::string& name, const Field& value) const {
  set_field_attribute(id(), name, value);
}

void Group::write_record(const Record& record) const {
  for (const auto& [key, value] : record.fields()) {
    set_attribute(key, value);
    if (const std::string unit = record.unit_of(key); !unit.empty())
      set_attribute(key + std::string(kUnitsSuffix), Field(unit));
  }
}

Record Group::read_record() const {
  H5O_info_t info;
  check_status(H5Oget_info2(id(), &info, H5O_INFO_NUM_ATTRS), "object info");
  std::vector<std::pair<std::string, Field>> raw;
  for (hsize_t i = 0; i < info.num_attrs; ++i) {
    Handle attr = make(
        H5Aopen_by_idx(id(), ".", H5_INDEX_CRT_ORDER, H5_ITER_INC, i, H5P_DEFAULT, H5P_DEFAULT),
        kAttribute, "open attribute");
    const ssize_t len = check(H5Aget_name(attr.id(), 0, nullptr), "attribute name length");
    std::string name(static_cast<std::size_t>(len) + 1, '\0');
    check(H5Aget_name(attr.id(), name.size(), name.data()), "attribute name");
    name.resize(static_cast<std::size_t>(len));
    raw.emplace_back(name, read_attribute(attr.id(), name));
  }
  const auto find_raw = [&](const std::string& key) -> const Field* {
    for (const auto& kv : raw)
      if (kv.first == key) return &kv.second;
    return nullptr;
  };
  // "<key>_units" beside a value (or its reason) is the value's unit, not a field of its own.
  const auto unit_base = [&](const std::string& name, const Field& value) -> std::string {
    if (!name.ends_with(kUnitsSuffix) || !std::holds_alternative<std::string>(value)) return {};
    const std::string base = name.substr(0, name.size() - kUnitsSuffix.size());
    return find_raw(base) || find_raw(base + "_reason") ? base : std::string();
  };
  Record record;
  for (const auto& [name, value] : raw) {
    if (const std::string base = unit_base(name, value); !base.empty()) {
      record.set_unit(base, std::get<std::string>(value));
      continue;
    }
    const bool is_reason = name.ends_with("_reason");
    const bool is_missing = name.ends_with("_missing");
    const std::string base = name.substr(0, name.size() - (is_reason ? 7 : is_missing ? 8 : 0));
    const Field* base_value = find_raw(base);
    if (is_reason && !base_value) {
      record.set(base, Field(Null{std::get<std::string>(value)}));
    } else if (is_missing && base_value && std::holds_alternative<Series>(*base_value)) {
      continue;  // applied to its series below
    } else if (const auto* series = std::get_if<Series>(&value)) {
      Series with_gaps = *series;
      if (const Field* missing = find_raw(name + "_missing"))
        for (const auto& index : std::get<Series>(*missing))
          with_gaps.at(static_cast<std::size_t>(*index)).reset();
      record.set(name, Field(std::move(with_gaps)));
    } else {
      record.set(name, value);
    }
  }
  return record;
}

std::optional<Field> Group::attribute(const std::string& name) const {
  if (H5Aexists(id(), name.c_str()) <= 0) return std::nullopt;
  Handle attr =
      make(H5Aopen(id(), name.c_str(), H5P_DEFAULT), kAttribute, "open attribute " + name);
  return read_attribute(attr.id(), name);
}

namespace {

// A dataset of dims[0] values, or rows x columns (row-major) when columns > 0.
Handle create_dataset(hid_t owner, const std::string& name, hid_t type, const hsize_t dims[2],
                      bool compress, std::size_t columns) {
  const int rank = columns > 0 ? 2 : 1;
  Handle space = make(H5Screate_simple(rank, dims, nullptr), kSpace, "create space for " + name);
  Handle plist = make(H5Pcreate(H5P_DATASET_CREATE), kPlist, "dataset plist");
  if (compress && dims[0] > 0) {
    const hsize_t chunk[2] = {std::min<hsize_t>(dims[0], columns > 0 ? 4096 : 1 << 16), columns};
    check_status(H5Pset_chunk(plist.id(), rank, chunk), "chunk " + name);
    check_status(H5Pset_shuffle(plist.id()), "shuffle " + name);
    check_status(H5Pset_deflate(plist.id(), 4), "deflate " + name);
    check_status(H5Pset_fletcher32(plist.id()), "checksum " + name);
  }
  return make(
      H5Dcreate2(owner, name.c_str(), type, space.id(), H5P_DEFAULT, plist.id(), H5P_DEFAULT),
      kDataset, "create dataset " + name);
}

template <class T>
Handle write_array(hid_t owner, const std::string& name, hid_t type, std::span<const T> values,
                   std::size_t columns) {
  const hsize_t dims[2] = {columns > 0 ? values.size() / columns : values.size(), columns};
  Handle ds = create_dataset(owner, name, type, dims, false, columns);
  if (!values.empty())
    check_status(H5Dwrite(ds.id(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                 "write dataset " + name);
  return ds;
}

template <class T>
std::vector<T> read_array(hid_t owner, const std::string& name, hid_t type,
                          std::uint64_t max_values) {
  Handle ds = make(H5Dopen2(owner, name.c_str(), H5P_DEFAULT), kDataset, "open dataset " + name);
  Handle space = make(H5Dget_space(ds.id()), kSpace, "space of " + name);
  const hssize_t n = H5Sget_simple_extent_npoints(space.id());
  check(n, "size of " + name);
  Handle stored = make(H5Dget_type(ds.id()), kType, "type of " + name);
  const H5T_class_t kind = H5Tget_class(stored.id());
  if (kind != H5T_FLOAT && kind != H5T_INTEGER)
    throw InputError(fmt::format("dataset {} does not hold numbers", name));
  if (static_cast<std::uint64_t>(n) > max_values)
    throw InputError(fmt::format("dataset {} claims {} values, more than it can hold ({})", name, n,
                                 max_values));
  std::vector<T> values(static_cast<std::size_t>(n));
  if (n > 0)
    check_status(H5Dread(ds.id(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                 "read dataset " + name);
  return values;
}

}  // namespace

Dataset Group::write_doubles(const std::string& name, std::span<const double> values,
                             std::size_t columns) const {
  return Dataset(write_array(id(), name, H5T_NATIVE_DOUBLE, values, columns));
}
Dataset Group::write_counts(const std::string& name, std::span<const std::uint64_t> values,
                            std::size_t columns) const {
  return Dataset(write_array(id(), name, H5T_NATIVE_UINT64, values, columns));
}
Dataset Group::write_concatenated(const std::string& name,
                                  std::span<const std::span<const double>> pieces) const {
  hsize_t total = 0;
  for (const auto& piece : pieces) total += piece.size();
  const hsize_t dims[2] = {total, 0};
  Handle ds = create_dataset(id(), name, H5T_NATIVE_DOUBLE, dims, true, 0);
  Handle file_space = make(H5Dget_space(ds.id()), kSpace, "space of " + name);
  hsize_t at = 0;
  for (const auto& piece : pieces) {
    if (piece.empty()) continue;
    const hsize_t count = piece.size();
    check_status(
        H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, &at, nullptr, &count, nullptr),
        "select a piece of " + name);
    Handle memory_space =
        make(H5Screate_simple(1, &count, nullptr), kSpace, "space of a piece of " + name);
    check_status(H5Dwrite(ds.id(), H5T_NATIVE_DOUBLE, memory_space.id(), file_space.id(),
                          H5P_DEFAULT, piece.data()),
                 "write a piece of " + name);
    at += count;
  }
  return Dataset(std::move(ds));
}

Dataset Group::open_dataset(const std::string& name) const {
  return Dataset(make(H5Dopen2(id(), name.c_str(), H5P_DEFAULT), kDataset, "open dataset " + name));
}

// ---- tables ---------------------------------------------------------------------------------

std::size_t Column::rows() const {
  return std::visit([](const auto& v) { return v.size(); }, values);
}

namespace {

// A column's member type in the compound and its bytes per row. Text is NULLPAD, as wide as the
// longest value (at least one byte): numpy's fixed-width bytes, with no terminator to strip.
struct Member {
  Handle type;
  std::size_t size = 0;
};

Member member_of(const Column& column) {
  return std::visit(
      [&](const auto& v) -> Member {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<double>>) {
          return {make(H5Tcopy(H5T_NATIVE_DOUBLE), kType, "copy double type"), sizeof(double)};
        } else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>) {
          return {make(H5Tcopy(H5T_NATIVE_INT64), kType, "copy int64 type"), sizeof(std::int64_t)};
        } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
          return {bool_type(), sizeof(std::int8_t)};
        } else {
          std::size_t width = 1;
          for (const auto& text : v) width = std::max(width, text.size());
          Handle t = make(H5Tcopy(H5T_C_S1), kType, "copy string type");
          check_status(H5Tset_size(t.id(), width), "set string size");
          check_status(H5Tset_strpad(t.id(), H5T_STR_NULLPAD), "set string padding");
          check_status(H5Tset_cset(t.id(), H5T_CSET_UTF8), "set string charset");
          return {std::move(t), width};
        }
      },
      column.values);
}

// Row `row` of the column into `at` (member.size bytes, zero on entry).
void pack_value(const Column& column, std::size_t row, std::byte* at) {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<bool>>) {
          const std::int8_t b = v[row] ? 1 : 0;
          std::memcpy(at, &b, sizeof b);
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          std::memcpy(at, v[row].data(), v[row].size());
        } else {
          std::memcpy(at, &v[row], sizeof v[row]);
        }
      },
      column.values);
}

}  // namespace

Dataset Group::write_table(const std::string& name, std::span<const Column> columns) const {
  if (columns.empty()) throw RuntimeFailure(fmt::format("table {} has no columns", name));
  const std::size_t rows = columns.front().rows();
  std::vector<Member> members;
  std::vector<std::size_t> offsets;
  std::size_t row_size = 0;
  for (const auto& column : columns) {
    if (column.rows() != rows)
      throw RuntimeFailure(fmt::format("table {}: column {} has {} rows, not {}", name, column.name,
                                       column.rows(), rows));
    members.push_back(member_of(column));
    offsets.push_back(row_size);
    row_size += members.back().size;
  }
  // Packed, in memory as in the file: numpy reads the offsets as they are.
  Handle type = make(H5Tcreate(H5T_COMPOUND, row_size), kType, "create compound type " + name);
  for (std::size_t c = 0; c < columns.size(); ++c)
    check_status(H5Tinsert(type.id(), columns[c].name.c_str(), offsets[c], members[c].type.id()),
                 fmt::format("column {} of {} (names must be distinct)", columns[c].name, name));
  std::vector<std::byte> buffer(rows * row_size);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < columns.size(); ++c)
      pack_value(columns[c], r, buffer.data() + r * row_size + offsets[c]);
  const hsize_t dims[1] = {rows};
  Handle space = make(H5Screate_simple(1, dims, nullptr), kSpace, "create space for " + name);
  Handle ds = make(
      H5Dcreate2(id(), name.c_str(), type.id(), space.id(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
      kDataset, "create dataset " + name);
  if (rows > 0)
    check_status(H5Dwrite(ds.id(), type.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()),
                 "write dataset " + name);
  return Dataset(std::move(ds));
}

namespace {

// Column `name` of table `ds` (of `rows` rows), read through HDF5's conversion into `memory`
// (one value of `size` bytes per row).
std::vector<std::byte> read_member(hid_t ds, const std::string& name, hid_t memory,
                                   std::size_t size, std::size_t rows, const std::string& what) {
  Handle one = make(H5Tcreate(H5T_COMPOUND, size), kType, "create member type of " + what);
  check_status(H5Tinsert(one.id(), name.c_str(), 0, memory), "member " + name + " of " + what);
  std::vector<std::byte> buffer(rows * size);
  if (rows > 0)
    check_status(H5Dread(ds, one.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()),
                 "read column " + name + " of " + what);
  return buffer;
}

Column read_column(hid_t ds, hid_t file_type, unsigned index, std::size_t rows,
                   const std::string& what) {
  char* member = H5Tget_member_name(file_type, index);
  if (member == nullptr) throw InputError(fmt::format("{}: a column without a name", what));
  Column column{member, {}};
  H5free_memory(member);
  const auto as = [&](hid_t memory, std::size_t size) {
    return read_member(ds, column.name, memory, size, rows, what);
  };
  switch (H5Tget_member_class(file_type, index)) {
    case H5T_FLOAT: {
      std::vector<double> values(rows);
      // (an empty table's buffers have no data pointer, which memcpy may not take)
      if (rows > 0)
        std::memcpy(values.data(), as(H5T_NATIVE_DOUBLE, sizeof(double)).data(),
                    rows * sizeof(double));
      column.values = std::move(values);
      break;
    }
    case H5T_INTEGER: {
      std::vector<std::int64_t> values(rows);
      if (rows > 0)
        std::memcpy(values.data(), as(H5T_NATIVE_INT64, sizeof(std::int64_t)).data(),
                    rows * sizeof(std::int64_t));
      column.values = std::move(values);
      break;
    }
    case H5T_ENUM: {
      Handle bt = bool_type();
      const std::vector<std::byte> bytes = as(bt.id(), 1);
      std::vector<bool> values(rows);
      for (std::size_t r = 0; r < rows; ++r) values[r] = std::to_integer<int>(bytes[r]) != 0;
      column.values = std::move(values);
      break;
    }
    case H5T_STRING: {
      Handle stored = make(H5Tget_member_type(file_type, index), kType, "member type of " + what);
      const std::size_t width = H5Tget_size(stored.id());
      if (H5Tis_variable_str(stored.id()) > 0 || width == 0 || width > (std::size_t{1} << 20))
        throw InputError(fmt::format("{}: column {} is not fixed-length text", what, column.name));
      const std::vector<std::byte> bytes = as(stored.id(), width);
      std::vector<std::string> values(rows);
      for (std::size_t r = 0; r < rows; ++r) {
        const auto* text = reinterpret_cast<const char*>(bytes.data() + r * width);
        values[r].assign(text, strnlen(text, width));
      }
      column.values = std::move(values);
      break;
    }
    default:
      throw InputError(
          fmt::format("{}: column {} is not a number, a bool or text", what, column.name));
  }
  return column;
}

}  // namespace

std::vector<Column> Group::read_table(const std::string& name, std::uint64_t max_cells) const {
  Handle ds = make(H5Dopen2(id(), name.c_str(), H5P_DEFAULT), kDataset, "open dataset " + name);
  Handle type = make(H5Dget_type(ds.id()), kType, "type of " + name);
  Handle space = make(H5Dget_space(ds.id()), kSpace, "space of " + name);
  if (H5Tget_class(type.id()) != H5T_COMPOUND || H5Sget_simple_extent_ndims(space.id()) != 1)
    throw InputError(fmt::format("dataset {} is not a table", name));
  const hssize_t rows = H5Sget_simple_extent_npoints(space.id());
  const int members = H5Tget_nmembers(type.id());
  check(rows, "size of " + name);
  check(members, "columns of " + name);
  if (static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(members) > max_cells)
    throw InputError(fmt::format("table {} claims {} rows of {} columns, more than it can hold",
                                 name, rows, members));
  std::vector<Column> columns;
  for (int m = 0; m < members; ++m)
    columns.push_back(read_column(ds.id(), type.id(), static_cast<unsigned>(m),
                                  static_cast<std::size_t>(rows), "table " + name));
  return columns;
}

void Dataset::set_attribute(const std::string& name, const Field& value) const {
  set_field_attribute(id(), name, value);
}

void Dataset::set_texts(const std::string& name, std::span<const std::string> texts) const {
  std::size_t width = 0;
  for (const auto& text : texts) width = std::max(width, text.size());
  Handle type = string_type(width);  // NULLTERM: width + 1 bytes per text
  std::vector<char> buffer(texts.size() * (width + 1), '\0');
  for (std::size_t i = 0; i < texts.size(); ++i)
    std::memcpy(buffer.data() + i * (width + 1), texts[i].data(), texts[i].size());
  write_attribute(id(), name, type.id(), buffer.data(), texts.size());
}

std::vector<double> Group::read_doubles(const std::string& name, std::uint64_t max_values) const {
  return read_array<double>(id(), name, H5T_NATIVE_DOUBLE, max_values);
}
std::vector<std::uint64_t> Group::read_counts(const std::string& name,
                                              std::uint64_t max_values) const {
  return read_array<std::uint64_t>(id(), name, H5T_NATIVE_UINT64, max_values);
}

// ---- files in memory ------------------------------------------------------------------------

// The core driver's buffer, allocated through these callbacks so that commit() can take it over
// when HDF5 closes the file instead of copying it out (results with raw samples reach GiB).
// Growth is zero-filled: bytes past HDF5's end of file are then zeros, never stale memory.
struct File::Image {
  void* buffer = nullptr;
  std::size_t size = 0;
  bool keep = false;  // set by commit(): the close hands the buffer over instead of freeing it

  static void* allocate(std::size_t size, H5FD_file_image_op_t, void* udata) {
    return grow(nullptr, size, udata);
  }
  static void* copy(void* dest, const void* src, std::size_t size, H5FD_file_image_op_t, void*) {
    return std::memcpy(dest, src, size);
  }
  static void* grow(void* ptr, std::size_t size, H5FD_file_image_op_t, void* udata) {
    return grow(ptr, size, udata);
  }
  static void* grow(void* ptr, std::size_t size, void* udata) {
    auto* image = static_cast<Image*>(udata);
    const std::size_t old = ptr ? image->size : 0;
    void* fresh = std::realloc(ptr, size);
    if (!fresh) return nullptr;
    if (size > old) std::memset(static_cast<char*>(fresh) + old, 0, size - old);
    image->buffer = fresh;
    image->size = size;
    return fresh;
  }
  static herr_t release(void* ptr, H5FD_file_image_op_t op, void* udata) {
    auto* image = static_cast<Image*>(udata);
    if (op == H5FD_FILE_IMAGE_OP_FILE_CLOSE && image->keep && ptr == image->buffer) return 0;
    std::free(ptr);
    if (ptr == image->buffer) image->buffer = nullptr;
    return 0;
  }
  static void* share_udata(void* udata) { return udata; }
  static herr_t drop_udata(void*) { return 0; }

  ~Image() { std::free(buffer); }
};

namespace {

// The end of the HDF5 data in a closed image, from its superblock (version 2 or 3, which the
// version bounds of create() make HDF5 write, at the end of the 512-byte user block): the base
// address plus the end-of-file address. Past it lie only zero-filled growth bytes.
std::size_t end_of_data(const std::byte* image, std::size_t size) {
  constexpr std::size_t kSuper = kSealBytes;
  constexpr unsigned char kSignature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  if (size < kSuper + 44 || std::memcmp(image + kSuper, kSignature, 8) != 0)
    throw RuntimeFailure("HDF5 wrote an image without a superblock where expected");
  const auto version = std::to_integer<int>(image[kSuper + 8]);
  const auto offset_size = std::to_integer<int>(image[kSuper + 9]);
  if ((version != 2 && version != 3) || offset_size != 8)
    throw RuntimeFailure(
        fmt::format("HDF5 wrote superblock version {} (expected 2 or 3)", version));
  std::uint64_t base = 0;
  std::uint64_t eof = 0;
  std::memcpy(&base, image + kSuper + 12, 8);  // little-endian, as on every host we build for
  std::memcpy(&eof, image + kSuper + 28, 8);
  const std::uint64_t end = base + eof;
  if (end < kSuper || end > size)
    throw RuntimeFailure("HDF5 wrote an image whose end lies outside its buffer");
  return static_cast<std::size_t>(end);
}

}  // namespace

void set_verbose(bool verbose) {
  g_verbose = verbose;
  if (verbose) H5Eset_auto2(H5E_DEFAULT, reinterpret_cast<H5E_auto2_t>(H5Eprint2), stderr);
}

File::File(Handle h, std::unique_ptr<Image> image, bool sealed)
    : image_(std::move(image)), handle_(std::move(h)), sealed_(sealed) {}
File::File(File&&) noexcept = default;
File& File::operator=(File&&) noexcept = default;
File::~File() = default;

File File::create() {
  silence_default_printer();
  auto image = std::make_unique<Image>();
  Handle fcpl = make(H5Pcreate(H5P_FILE_CREATE), kPlist, "file plist");
  check_status(H5Pset_userblock(fcpl.id(), kSealBytes), "reserve the seal");
  check_status(H5Pset_link_creation_order(fcpl.id(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
               "track root link order");
  check_status(H5Pset_attr_creation_order(fcpl.id(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
               "track root attribute order");
  Handle fapl = make(H5Pcreate(H5P_FILE_ACCESS), kPlist, "access plist");
  check_status(H5Pset_fapl_core(fapl.id(), std::size_t{1} << 20, 0), "in-memory driver");
  H5FD_file_image_callbacks_t callbacks = {
      &Image::allocate,    &Image::copy,       &Image::grow, &Image::release,
      &Image::share_udata, &Image::drop_udata, image.get()};
  check_status(H5Pset_file_image_callbacks(fapl.id(), &callbacks), "image callbacks");
  // Version 1.8 formats and up: large attributes (a long run file's text) and a superblock whose
  // end-of-file address commit() reads.
  check_status(H5Pset_libver_bounds(fapl.id(), H5F_LIBVER_V18, H5F_LIBVER_LATEST),
               "format versions");
  const hid_t id = H5Fcreate("collnoise-in-memory.h5", H5F_ACC_TRUNC, fcpl.id(), fapl.id());
  if (id < 0) throw RuntimeFailure(fmt::format("cannot create an HDF5 file: {}", error_stack()));
  return File(Handle(id, kFile), std::move(image), true);
}

File File::open(const std::string& path, const ReadOptions& options) {
  silence_default_printer();
  // Opened by us first, without waiting: HDF5 would block on a FIFO for ever (its open restarts
  // after SIGTERM) and read a device without end.
  InputFile input = open_collnoise_file(path);
  bool sealed = false;
  if (options.verify == Verify::kYes) {
    sealed = verify_seal(input, path) == SealState::kSealed;
    if (!sealed && options.note)
      options.note(fmt::format(
          "'{}' carries no checksum (written before collnoise sealed its files, or by another "
          "program): read without verification",
          path));
  }
  // HDF5 opens the file again by name: it must still be the regular file checked above.
  if (!input.still_at(path))
    throw InputError(fmt::format("'{}' was replaced while it was opened: try again", path));
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0)
    throw InputError(fmt::format("'{}' is not a readable HDF5 file: {}", path, error_stack()));
  return File(Handle(id, kFile), nullptr, sealed);
}

Group File::root() const {
  return Group(make(H5Gopen2(handle_.id(), "/", H5P_DEFAULT), kGroup, "open root"));
}

void File::commit(const std::string& path) {
  if (!image_) throw RuntimeFailure("only a file created in memory can be committed");
  image_->keep = true;
  const hid_t id = handle_.id();
  check_status(H5Fflush(id, H5F_SCOPE_GLOBAL), "flush the in-memory file");
  Handle closing = std::move(handle_);
  const herr_t closed = H5Fclose(id);
  static_cast<void>(closing.release());  // closed above (or beyond repair): never again
  check_status(closed, "close the in-memory file");
  if (!image_->buffer) throw RuntimeFailure("HDF5 released the in-memory file");
  auto* bytes = static_cast<std::byte*>(image_->buffer);
  const std::size_t end = end_of_data(bytes, image_->size);
  const std::span<std::byte> image(bytes, end);
  seal_image(image);
  write_file_atomically(path, image);
}

}  // namespace collnoise::h5
