#pragma once
// The keys a run file may hold, as the registries declare them (engine/models.cpp, the laws of
// distributions/): which are point keys, which are settings, how they are shaped in the file
// (short forms, keys that replace one another, arrays of tables) and which name data files. Run
// files (runs/run_file.hpp) and the machine files they include (runs/machine_file.hpp) both ask
// here, so a key is what its declaration says wherever it is written.
#include <set>
#include <string>

#include "core/key_spec.hpp"
#include "core/param_value.hpp"

namespace collnoise {

/// A setting of the run (runs/run_settings.hpp) or of a model's own settings table ([nhalf]).
bool is_setting(const std::string& key);
bool is_model_setting(const std::string& key);
/// A key of a point's tables ([collective], [noise], [loggops], ...) that is not a setting.
bool is_point_key(const std::string& key);
/// The full name of a key given in its short form ("N" for "collective.N"), else the key.
std::string alias(const std::string& key);
/// A key whose value is an array of tables ([[noise.components]]).
bool is_table_array(const std::string& key);
/// A key declared as the path of a data file (KeyType::kFile), a law's keys under [noise].
bool is_file_key(const std::string& key);
/// The keys that give the same quantity as `key` another way (collective.N, log2_N, levels),
/// `key` among them; `key` alone when it has none.
std::set<std::string> alternatives_of(const std::string& key);
/// Setting `key` drops the keys that give the same quantity another way from `params`.
void drop_alternatives_of(const std::string& key, ParamMap& params);
/// The declaration of point key `key` (a law's under [noise] too), or null when none declares it.
const KeySpec* declared_key(const std::string& key);
/// The table of a dotted key ("loggops" for "loggops.L").
std::string table_of(const std::string& key);

}  // namespace collnoise
