#pragma once
// The run's own settings (`seed`, `samples`, `confidence`, `[output]`, `[precision]`,
// `[limits]`, `[plot]`, ...), declared like the models' keys (core/key_spec.hpp): name, type,
// meaning, unit, default and range in one declaration each, read through the same checked reader
// (core/param_reader.hpp), and listed in docs/reference/settings.md. Rules that tie settings
// together (two spellings of one setting, keys that go together or need another) are declared
// beside them as SettingRule values, checked before any value is read. A model's own settings
// tables ([nhalf]) are the model's (ModelKind::settings).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_value.hpp"

namespace collnoise {

struct RunSpec;

/// A rule that ties settings together; `keys` are those it applies to when given.
struct SettingRule {
  enum class Kind {
    kExclusive,  ///< at most one of `keys` (two spellings of one setting, or settings at odds)
    kTogether,   ///< all of `keys` or none
    kNeedsAny,   ///< any of `keys` given needs one of `others`
    kExcludes,   ///< any of `keys` given excludes every one of `others`
    kOrdered,    ///< with any of `others` given: keys[0] <= keys[1], defaults included
  };
  Kind kind = Kind::kExclusive;
  std::vector<std::string> keys;
  std::vector<std::string> others;
  std::string message;  ///< the refusal, after "<run file>: "
};

/// Every run setting, in the order docs/reference/settings.md lists them.
const std::vector<KeySpec>& run_setting_keys();
/// The rules between them, in the order they are checked.
const std::vector<SettingRule>& run_setting_rules();

/// Whether `key` (dotted) is a run setting.
bool is_run_setting(const std::string& key);

/// Reads the settings given in `given` (dotted keys; only run settings) into `run`, checking
/// the rules first and then each value. InputError "<origin>: <key> = <value> ..." on the first
/// one at fault, with the key's line ("<origin>:<line>") when `lines` has it. `seed_override`
/// (--seed) replaces `seed`, which is then not required.
void read_run_settings(RunSpec& run, const ParamMap& given, const std::string& origin,
                       std::optional<std::uint64_t> seed_override,
                       const std::map<std::string, int>& lines = {});

}  // namespace collnoise
