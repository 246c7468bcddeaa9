#include "runs/toml_params.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "core/errors.hpp"

namespace collnoise {

// Dotted keys of every value; arrays stay whole.
void flatten(const toml::table& table, const std::string& prefix, NodeMap& out) {
  for (auto&& [k, v] : table) {
    const std::string key =
        prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (const auto* sub = v.as_table())
      flatten(*sub, key, out);
    else
      out[key] = &v;
  }
}

std::string where(const std::string& origin, const toml::node& node) {
  return fmt::format("{}:{}", origin, node.source().begin.line);
}

ParamValue scalar_value(const std::string& origin, const std::string& key, const toml::node& node) {
  if (auto v = node.as_integer()) return v->get();
  if (auto v = node.as_floating_point()) return v->get();
  if (auto v = node.as_string()) return v->get();
  if (auto v = node.as_boolean()) return v->get();
  throw InputError(fmt::format("{}: {} has an unsupported value type", where(origin, node), key));
}

ParamValue to_param(const std::string& origin, const std::string& key, const toml::node& node) {
  if (const auto* arr = node.as_array()) {
    if (!arr->empty() && arr->front().is_string()) {
      TextList texts;
      for (auto&& item : *arr) {
        const auto s = item.value<std::string>();
        if (!s)
          throw InputError(fmt::format("{}: {} must be a list of strings (or of numbers)",
                                       where(origin, node), key));
        texts.push_back(*s);
      }
      return texts;
    }
    NumberList list;
    for (auto&& item : *arr) {
      if (auto i = item.as_integer())
        list.push_back(static_cast<double>(i->get()));
      else if (auto d = item.as_floating_point())
        list.push_back(d->get());
      else
        throw InputError(fmt::format("{}: {} must be a list of numbers (or of strings)",
                                     where(origin, node), key));
    }
    return list;
  }
  return scalar_value(origin, key, node);
}

std::vector<ParamMap> array_of_tables(const std::string& origin, const std::string& key,
                                      const toml::node& node) {
  const auto* arr = node.as_array();
  if (!arr)
    throw InputError(fmt::format("{}: {} must be an array of tables", where(origin, node), key));
  std::vector<ParamMap> tables;
  for (auto&& c : *arr) {
    const auto* t = c.as_table();
    if (!t)
      throw InputError(
          fmt::format("{}: {}[{}] must be a table", where(origin, c), key, tables.size()));
    NodeMap flat;
    flatten(*t, "", flat);
    ParamMap table;
    for (const auto& [k, v] : flat) table[k] = to_param(origin, k, *v);
    tables.push_back(std::move(table));
  }
  return tables;
}

toml::table parse_toml(const std::string& content, const std::string& origin) {
  try {
    return toml::parse(content, origin);
  } catch (const toml::parse_error& e) {
    throw InputError(fmt::format("{}:{}:{}: malformed TOML: {}", origin, e.source().begin.line,
                                 e.source().begin.column, e.description()));
  }
}

void refuse_unknown_keys(const toml::table& table, const std::set<std::string>& known,
                         const std::string& origin, const std::string& prefix) {
  for (auto&& [k, v] : table)
    if (!known.contains(std::string(k.str())))
      throw InputError(fmt::format("{}: unknown key '{}{}'", where(origin, v), prefix, k.str()));
}

std::string path_from_folder(const std::string& folder, const std::string& path) {
  if (folder.empty() || path.empty() || path.front() == '/') return path;
  return (std::filesystem::path(folder) / path).string();
}

}  // namespace collnoise
