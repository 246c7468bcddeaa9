#pragma once
// The [loggops] table (docs/models/loggops-cycles.md): L, o, g in seconds, G and O in seconds
// per byte, the message size in bytes. The defaults are Chen & Suda's values.
#include <string>
#include <vector>

#include "core/key_spec.hpp"
#include "core/param_reader.hpp"
#include "engine/loggops/loggops.hpp"

namespace collnoise {

/// The [loggops] keys.
std::vector<KeySpec> loggops_keys();

/// The names of the keys a Netgauge LogGP file (loggops.file) gives instead: L, o, g and G.
std::vector<std::string> loggp_file_keys();

/// A [loggops] key given again for some messages or rank pairs (loggops.far.L,
/// loggops.rendezvous_regime.o): named `prefix` + its name after "loggops.", optional and without
/// a default (the [loggops] value stands), its meaning after `which`.
KeySpec loggops_variant(const KeySpec& key, const std::string& prefix, const std::string& which,
                        const std::string& otherwise);

/// Reads the [loggops] table (without its message size when `message_size` is false: schedules
/// give each message its own). InputError naming the key at fault.
LogGops read_loggops(ParamReader& reader, bool message_size = true);

}  // namespace collnoise
