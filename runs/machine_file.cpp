#include "runs/machine_file.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/param_reader.hpp"
#include "engine/study.hpp"
#include "runs/run_keys.hpp"
#include "runs/toml_params.hpp"

namespace collnoise {
namespace {

constexpr const char* kMeta = "machine";

ParamValue rebased(const std::string& key, ParamValue value, const std::string& folder) {
  if (!is_file_key(key)) return value;
  if (auto* path = std::get_if<std::string>(&value)) *path = path_from_folder(folder, *path);
  if (auto* paths = std::get_if<TextList>(&value))
    for (std::string& path : *paths) path = path_from_folder(folder, path);
  return value;
}

void read_point_key(const std::string& origin, const std::string& key, const toml::node& node,
                    const std::string& folder, MachineFile& machine) {
  // The collective's table says what runs, which is the run file's to say.
  if (table_of(key) == table_of(collective_kind_key().name))
    throw InputError(fmt::format(
        "{}: {} is not a machine key: a machine file describes the machine, the run file what "
        "runs on it",
        where(origin, node), key));
  if (!is_point_key(key))
    throw InputError(fmt::format("{}: unknown key '{}'", where(origin, node), key));
  if (!is_table_array(key)) {
    machine.params[key] = rebased(key, to_param(origin, key, node), folder);
    return;
  }
  std::vector<ParamMap> entries = array_of_tables(origin, key, node);
  for (ParamMap& entry : entries)
    for (auto& [sub, value] : entry) value = rebased(table_of(key) + "." + sub, value, folder);
  machine.table_arrays[key] = std::move(entries);
}

const toml::node& required(const toml::table& table, const std::string& key,
                           const std::string& origin, const std::string& context) {
  const toml::node* node = table.get(key);
  if (!node) throw InputError(fmt::format("{}: {} has no {}", where(origin, table), context, key));
  return *node;
}

std::string text_at(const toml::table& table, const std::string& key, const std::string& origin,
                    const std::string& context) {
  const toml::node& node = required(table, key, origin, context);
  const auto value = node.value<std::string>();
  if (!node.is_string() || !value)
    throw InputError(fmt::format("{}: {}.{} must be a string", where(origin, node), context, key));
  return *value;
}

double number_at(const toml::table& table, const std::string& key, const std::string& origin,
                 const std::string& context) {
  const toml::node& node = required(table, key, origin, context);
  if (!node.is_number())
    throw InputError(fmt::format("{}: {}.{} must be a number", where(origin, node), context, key));
  return *node.value<double>();
}

std::vector<const toml::table*> tables_of(const toml::table& meta, const std::string& key,
                                          const std::string& origin) {
  std::vector<const toml::table*> tables;
  const toml::node* node = meta.get(key);
  if (!node) return tables;
  if (!node->is_array_of_tables())
    throw InputError(fmt::format("{}: use [[{}.{}]] tables", where(origin, *node), kMeta, key));
  for (auto&& entry : *node->as_array()) tables.push_back(entry.as_table());
  return tables;
}

MachineInput read_input(const toml::table& t, const std::string& origin) {
  const std::string context = fmt::format("{}.inputs", kMeta);
  refuse_unknown_keys(t, {"path", "hash", "role"}, origin, context + ".");
  return {text_at(t, "path", origin, context), text_at(t, "hash", origin, context),
          text_at(t, "role", origin, context)};
}

FittedValue read_fitted(const toml::table& t, const std::string& origin) {
  const std::string context = fmt::format("{}.fitted", kMeta);
  refuse_unknown_keys(t, {"key", "value", "low", "high", "level", "method", "stage"}, origin,
                      context + ".");
  FittedValue f;
  f.key = text_at(t, "key", origin, context);
  f.value = number_at(t, "value", origin, context);
  f.low = number_at(t, "low", origin, context);
  f.high = number_at(t, "high", origin, context);
  f.level = number_at(t, "level", origin, context);
  f.method = text_at(t, "method", origin, context);
  f.stage = text_at(t, "stage", origin, context);
  if (!(f.level > 0.0 && f.level < 1.0) || !(f.low <= f.value && f.value <= f.high))
    throw InputError(fmt::format("{}: {} {}: its interval [{}, {}] at level {} does not hold it",
                                 where(origin, t), context, f.key, f.low, f.high, f.level));
  return f;
}

ParamMap read_draw(const toml::table& t, const std::string& origin, const MachineFile& machine) {
  NodeMap flat;
  flatten(t, "", flat);
  ParamMap draw;
  for (const auto& [key, node] : flat) {
    if (!machine.params.contains(key))
      throw InputError(fmt::format("{}: {}.draws gives {}, which the machine file does not give",
                                   where(origin, *node), kMeta, key));
    draw[key] = to_param(origin, key, *node);
  }
  return draw;
}

void read_meta(const toml::table& meta, const std::string& origin, MachineFile& machine) {
  refuse_unknown_keys(meta, {"format", "name", "largest_ranks", "inputs", "fitted", "draws"},
                      origin, std::string(kMeta) + ".");
  const toml::node& format = required(meta, "format", origin, fmt::format("[{}]", kMeta));
  if (format.value<std::int64_t>() != kMachineFormat || !format.is_integer())
    throw InputError(fmt::format("{}: machine.format must be {} (this collnoise reads no other)",
                                 where(origin, format), kMachineFormat));
  if (meta.contains("name")) machine.name = text_at(meta, "name", origin, kMeta);
  if (const toml::node* largest = meta.get("largest_ranks")) {
    const auto ranks = largest->value<std::int64_t>();
    if (!largest->is_integer() || !ranks || *ranks < 1)
      throw InputError(fmt::format("{}: machine.largest_ranks must be an integer >= 1",
                                   where(origin, *largest)));
    machine.largest_ranks = static_cast<std::uint64_t>(*ranks);
  }
  for (const toml::table* t : tables_of(meta, "inputs", origin))
    machine.inputs.push_back(read_input(*t, origin));
  for (const toml::table* t : tables_of(meta, "fitted", origin))
    machine.fitted.push_back(read_fitted(*t, origin));
  for (const toml::table* t : tables_of(meta, "draws", origin))
    machine.draws.push_back(read_draw(*t, origin, machine));
}

// The calibration's inputs, as they were: a changed or missing input is refused (the machine
// file says what they held; a machine file without them is a claim nobody can check).
void check_inputs(const MachineFile& machine) {
  const std::string folder = std::filesystem::path(machine.path).parent_path().string();
  for (const MachineInput& input : machine.inputs) {
    const std::string path = path_from_folder(folder, input.path);
    const std::string label =
        fmt::format("{}: machine.inputs {} '{}'", machine.path, input.role, input.path);
    const std::string now = file_content_hash(label, path);
    if (now != input.hash)
      throw InputError(
          fmt::format("{} has changed since the calibration (recorded {}, now {}): calibrate again",
                      label, input.hash, now));
  }
}

}  // namespace

MachineFile read_machine_file(const std::string& given, const std::string& data_base,
                              const std::string& origin) {
  MachineFile machine;
  machine.given_path = given;
  machine.path = path_from_folder(data_base, given);
  const std::string label = fmt::format("{}: machine file '{}'", origin, given);
  const std::string text = read_regular_text(machine.path, label);
  machine.hash = text_content_hash(text);
  const toml::table root = parse_toml(text, machine.path);
  const std::string folder = std::filesystem::path(given).parent_path().string();
  NodeMap flat;
  for (auto&& [k, v] : root) {
    const std::string key(k.str());
    if (key == kMeta) continue;
    if (const auto* t = v.as_table())
      flatten(*t, key, flat);
    else
      flat[key] = &v;
  }
  for (const auto& [key, node] : flat) read_point_key(machine.path, key, *node, folder, machine);
  const toml::table* meta = root[kMeta].as_table();
  if (!meta)
    throw InputError(fmt::format("{}: a machine file has a [{}] table with format = {}",
                                 machine.path, kMeta, kMachineFormat));
  read_meta(*meta, machine.path, machine);
  check_inputs(machine);
  return machine;
}

namespace {

// A TOML basic string: quotes, backslashes and control characters escaped.
std::string toml_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\')
      out += fmt::format("\\{}", c);
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
    else
      out += c;
  }
  return out + "\"";
}

// A float TOML reads back as a float: 17 significant digits, a ".0" where they hold no point.
std::string toml_number(double x) {
  std::string text = fmt::format("{:.17g}", x);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  return text;
}

std::string toml_value(const ParamValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, double>) {
          return toml_number(v);
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          return fmt::format("{}", v);
        } else if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::string>) {
          return toml_string(v);
        } else if constexpr (std::is_same_v<T, TextList>) {
          std::vector<std::string> items;
          for (const auto& item : v) items.push_back(toml_string(item));
          return fmt::format("[{}]", fmt::join(items, ", "));
        } else if constexpr (std::is_same_v<T, NumberList>) {
          std::vector<std::string> items;
          for (const double item : v) items.push_back(toml_number(item));
          return fmt::format("[{}]", fmt::join(items, ", "));
        } else {
          return toml_string(to_string(v));  // a rank count beyond 2^63, as its digits
        }
      },
      value);
}

void write_meta(const MachineFile& machine, std::string& out) {
  out += fmt::format("[{}]\nformat = {}\n", kMeta, kMachineFormat);
  if (!machine.name.empty()) out += fmt::format("name = {}\n", toml_string(machine.name));
  if (machine.largest_ranks) out += fmt::format("largest_ranks = {}\n", *machine.largest_ranks);
  for (const MachineInput& input : machine.inputs)
    out += fmt::format("\n[[{}.inputs]]\npath = {}\nhash = {}\nrole = {}\n", kMeta,
                       toml_string(input.path), toml_string(input.hash), toml_string(input.role));
  for (const FittedValue& f : machine.fitted)
    out += fmt::format(
        "\n[[{}.fitted]]\nkey = {}\nvalue = {}\nlow = {}\nhigh = {}\nlevel = {}\nmethod = {}\n"
        "stage = {}\n",
        kMeta, toml_string(f.key), toml_number(f.value), toml_number(f.low), toml_number(f.high),
        toml_number(f.level), toml_string(f.method), toml_string(f.stage));
  for (const ParamMap& draw : machine.draws) {
    out += fmt::format("\n[[{}.draws]]\n", kMeta);
    for (const auto& [key, value] : draw)
      out += fmt::format("{} = {}\n", toml_string(key), toml_value(value));
  }
}

}  // namespace

std::string machine_file_text(const MachineFile& machine,
                              const std::vector<std::string>& comments) {
  std::string out;
  for (const std::string& line : comments) out += fmt::format("# {}\n", line);
  if (!comments.empty()) out += "\n";
  write_meta(machine, out);
  // The point keys, a table each: [loggops], [loggops.rendezvous_regime], [latency], ...
  std::map<std::string, std::vector<std::pair<std::string, const ParamValue*>>> tables;
  for (const auto& [key, value] : machine.params) {
    const auto dot = key.rfind('.');
    tables[key.substr(0, dot)].emplace_back(key.substr(dot + 1), &value);
  }
  for (const auto& [table, entries] : tables) {
    out += fmt::format("\n[{}]\n", table);
    for (const auto& [key, value] : entries)
      out += fmt::format("{} = {}\n", key, toml_value(*value));
  }
  return out;
}

}  // namespace collnoise
