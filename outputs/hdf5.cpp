#include "outputs/hdf5.hpp"

#include <fmt/format.h>
#include <hdf5.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "engine/errors.hpp"

namespace collnoise::h5 {
namespace {

enum Kind { kFile = 1, kGroup, kDataset, kAttribute, kSpace, kType, kPlist };

std::string error_stack() {
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
  static const bool once = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)once;
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

Handle string_type() {
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
        Handle st = string_type();
        char* text = nullptr;
        check_status(H5Aread(attr, st.id(), &text), "read " + name);
        std::string value = text ? text : "";
        Handle space = make(H5Aget_space(attr), kSpace, "space of " + name);
        H5Dvlen_reclaim(st.id(), space.id(), H5P_DEFAULT, &text);
        return value;
      }
      const std::size_t size = H5Tget_size(type.id());
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

void Group::set_attribute(const std::string& name, const Field& value) const {
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Null>) {
          Handle st = string_type();
          const char* text = v.reason.c_str();
          write_attribute(id(), name + "_reason", st.id(), &text);
        } else if constexpr (std::is_same_v<T, bool>) {
          Handle bt = bool_type();
          const std::int8_t b = v ? 1 : 0;
          write_attribute(id(), name, bt.id(), &b);
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          write_attribute(id(), name, H5T_NATIVE_INT64, &v);
        } else if constexpr (std::is_same_v<T, std::uint64_t>) {
          write_attribute(id(), name, H5T_NATIVE_UINT64, &v);
        } else if constexpr (std::is_same_v<T, double>) {
          write_attribute(id(), name, H5T_NATIVE_DOUBLE, &v);
        } else if constexpr (std::is_same_v<T, Series>) {
          std::vector<double> values;
          std::vector<double> missing;
          for (std::size_t i = 0; i < v.size(); ++i) {
            values.push_back(v[i].value_or(0.0));
            if (!v[i]) missing.push_back(static_cast<double>(i));
          }
          write_attribute(id(), name, H5T_NATIVE_DOUBLE, values.data(), values.size());
          if (!missing.empty())
            write_attribute(id(), name + "_missing", H5T_NATIVE_DOUBLE, missing.data(),
                            missing.size());
        } else {
          Handle st = string_type();
          const char* text = v.c_str();
          write_attribute(id(), name, st.id(), &text);
        }
      },
      value);
}

void Group::write_record(const Record& record) const {
  for (const auto& [key, value] : record.fields()) set_attribute(key, value);
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
  Record record;
  for (const auto& [name, value] : raw) {
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
  }
  return make(
      H5Dcreate2(owner, name.c_str(), type, space.id(), H5P_DEFAULT, plist.id(), H5P_DEFAULT),
      kDataset, "create dataset " + name);
}

template <class T>
void write_array(hid_t owner, const std::string& name, hid_t type, std::span<const T> values,
                 std::size_t columns) {
  const hsize_t dims[2] = {columns > 0 ? values.size() / columns : values.size(), columns};
  Handle ds = create_dataset(owner, name, type, dims, false, columns);
  if (!values.empty())
    check_status(H5Dwrite(ds.id(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                 "write dataset " + name);
}

template <class T>
std::vector<T> read_array(hid_t owner, const std::string& name, hid_t type) {
  Handle ds = make(H5Dopen2(owner, name.c_str(), H5P_DEFAULT), kDataset, "open dataset " + name);
  Handle space = make(H5Dget_space(ds.id()), kSpace, "space of " + name);
  const hssize_t n = H5Sget_simple_extent_npoints(space.id());
  check(n, "size of " + name);
  std::vector<T> values(static_cast<std::size_t>(n));
  if (n > 0)
    check_status(H5Dread(ds.id(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
                 "read dataset " + name);
  return values;
}

}  // namespace

void Group::write_doubles(const std::string& name, std::span<const double> values,
                          std::size_t columns) const {
  write_array(id(), name, H5T_NATIVE_DOUBLE, values, columns);
}
void Group::write_counts(const std::string& name, std::span<const std::uint64_t> values,
                         std::size_t columns) const {
  write_array(id(), name, H5T_NATIVE_UINT64, values, columns);
}
void Group::write_concatenated(const std::string& name,
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
}

std::vector<double> Group::read_doubles(const std::string& name) const {
  return read_array<double>(id(), name, H5T_NATIVE_DOUBLE);
}
std::vector<std::uint64_t> Group::read_counts(const std::string& name) const {
  return read_array<std::uint64_t>(id(), name, H5T_NATIVE_UINT64);
}

File File::create(const std::string& path) {
  silence_default_printer();
  Handle fcpl = make(H5Pcreate(H5P_FILE_CREATE), kPlist, "file plist");
  check_status(H5Pset_link_creation_order(fcpl.id(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
               "track root link order");
  check_status(H5Pset_attr_creation_order(fcpl.id(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
               "track root attribute order");
  const hid_t id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl.id(), H5P_DEFAULT);
  if (id < 0) throw RuntimeFailure(fmt::format("cannot create '{}': {}", path, error_stack()));
  return File(Handle(id, kFile), path);
}

File File::open(const std::string& path) {
  silence_default_printer();
  if (std::FILE* probe = std::fopen(path.c_str(), "rb"))
    std::fclose(probe);
  else
    throw InputError(fmt::format("'{}' cannot be read: {}", path, std::strerror(errno)));
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0)
    throw InputError(fmt::format("'{}' is not a readable HDF5 file: {}", path, error_stack()));
  return File(Handle(id, kFile), path);
}

Group File::root() const {
  return Group(make(H5Gopen2(handle_.id(), "/", H5P_DEFAULT), kGroup, "open root"));
}

void File::close() {
  if (handle_.id() < 0) return;
  check_status(H5Fflush(handle_.id(), H5F_SCOPE_GLOBAL), "flush " + path_);
  handle_ = Handle();
}

}  // namespace collnoise::h5
