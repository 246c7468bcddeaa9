#include "runs/run_keys.hpp"

#include <map>
#include <vector>

#include "core/key_spec.hpp"
#include "distributions/law_kind.hpp"
#include "engine/study.hpp"
#include "runs/run_settings.hpp"

namespace collnoise {
namespace {

// Every key the models declare by its full name, and the laws' keys under the table they are
// given in ([noise]).
std::vector<KeySpec> declared_keys() {
  std::vector<KeySpec> keys = {collective_kind_key()};
  for (const ModelKind& model : model_kinds())
    keys.insert(keys.end(), model.keys.begin(), model.keys.end());
  for (const LawKind& law : law_kinds())
    for (const auto* list : {&law.shape_keys, &law.scale_keys})
      for (KeySpec key : *list) {
        key.name = noise_law_table() + "." + key.name;
        keys.push_back(std::move(key));
      }
  return keys;
}

// Tables whose keys define a point (checked by the point's model): those of the keys every model
// declares, and the noise law's, whose laws declare their own keys.
const std::set<std::string>& point_tables() {
  static const std::set<std::string> tables = [] {
    std::set<std::string> t = {noise_law_table()};
    for (const KeySpec& key : declared_keys())
      if (key.name.find('.') != std::string::npos) t.insert(table_of(key.name));
    return t;
  }();
  return tables;
}

// What the key declarations say about the run file's shape: keys that replace one another (by
// group), keys written without their table, and keys holding an array of tables.
struct KeyShapes {
  std::map<std::string, std::set<std::string>> alternatives;  // group -> its keys
  std::map<std::string, std::string> group_of;
  std::map<std::string, std::string> full_name;  // short form -> key
  std::set<std::string> table_arrays;
};

const KeyShapes& key_shapes() {
  static const KeyShapes shapes = [] {
    KeyShapes s;
    for (const KeySpec& key : declared_keys()) {
      if (!key.alternatives.empty()) {
        s.alternatives[key.alternatives].insert(key.name);
        s.group_of[key.name] = key.alternatives;
      }
      if (key.short_form) s.full_name[key.name.substr(key.name.find('.') + 1)] = key.name;
      if (key.table_array) s.table_arrays.insert(key.name);
    }
    return s;
  }();
  return shapes;
}

// Keys declared as data-file paths, by full name.
const std::set<std::string>& file_keys() {
  static const std::set<std::string> keys = [] {
    std::set<std::string> k;
    for (const KeySpec& key : declared_keys())
      if (key.type == KeyType::kFile) k.insert(key.name);
    return k;
  }();
  return keys;
}

}  // namespace

std::string table_of(const std::string& key) {
  return key.substr(0, key.find('.'));
}

bool is_model_setting(const std::string& key) {
  for (const ModelKind& model : model_kinds())
    for (const KeySpec& setting : model.settings)
      if (setting.name == key) return true;
  return false;
}

bool is_setting(const std::string& key) {
  return is_run_setting(key) || is_model_setting(key);
}

bool is_point_key(const std::string& key) {
  const auto dot = key.find('.');
  return dot != std::string::npos && !is_setting(key) &&
         point_tables().contains(key.substr(0, dot));
}

std::string alias(const std::string& key) {
  const auto full = key_shapes().full_name.find(key);
  return full == key_shapes().full_name.end() ? key : full->second;
}

bool is_table_array(const std::string& key) {
  return key_shapes().table_arrays.contains(key);
}

// Setting `key` drops the keys that give the same quantity another way (N, log2_N, levels).
void drop_alternatives_of(const std::string& key, ParamMap& params) {
  const auto group = key_shapes().group_of.find(key);
  if (group == key_shapes().group_of.end()) return;
  for (const std::string& other : key_shapes().alternatives.at(group->second)) params.erase(other);
}

const KeySpec* declared_key(const std::string& key) {
  static const std::vector<KeySpec> keys = declared_keys();
  for (const KeySpec& k : keys)
    if (k.name == key) return &k;
  return nullptr;
}

bool is_file_key(const std::string& key) {
  return file_keys().contains(key);
}

std::set<std::string> alternatives_of(const std::string& key) {
  const auto group = key_shapes().group_of.find(key);
  if (group == key_shapes().group_of.end()) return {key};
  return key_shapes().alternatives.at(group->second);
}

}  // namespace collnoise
