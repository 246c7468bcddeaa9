#pragma once
// TOML values as run-file parameters: the one reading of a TOML table into dotted keys and
// parameter values, shared by run files (runs/run_file.hpp) and the machine files they include
// (runs/machine_file.hpp), so both refuse a value alike, with the file's line.
#include <map>
#include <set>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "core/param_value.hpp"

namespace collnoise {

/// Dotted keys of a table's values (arrays stay whole), pointing into the parsed table.
using NodeMap = std::map<std::string, const toml::node*>;

/// Parses TOML text; InputError "<origin>:<line>:<column>: malformed TOML: ..." otherwise.
toml::table parse_toml(const std::string& content, const std::string& origin);

/// Flattens `table` into `out` as dotted keys under `prefix` (empty: none).
void flatten(const toml::table& table, const std::string& prefix, NodeMap& out);

/// "<origin>:<line>" of `node`, for messages.
std::string where(const std::string& origin, const toml::node& node);

/// A scalar (integer, number, string, boolean) as a parameter; InputError otherwise.
ParamValue scalar_value(const std::string& origin, const std::string& key, const toml::node& node);

/// A scalar or a list (of strings, or of numbers) as a parameter; InputError otherwise.
ParamValue to_param(const std::string& origin, const std::string& key, const toml::node& node);

/// An array of tables, each flattened into parameters; InputError naming the entry otherwise.
std::vector<ParamMap> array_of_tables(const std::string& origin, const std::string& key,
                                      const toml::node& node);

/// InputError "<origin>:<line>: unknown key '<prefix><key>'" for the first key of `table` not in
/// `known`.
void refuse_unknown_keys(const toml::table& table, const std::set<std::string>& known,
                         const std::string& origin, const std::string& prefix);

/// `path` taken from `folder` unless it is absolute (or either is empty): how run, machine and
/// calibration files name the files beside them.
std::string path_from_folder(const std::string& folder, const std::string& path);

}  // namespace collnoise
