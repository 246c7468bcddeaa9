#include "engine/loggops/loggops_keys.hpp"

#include <fmt/format.h>

namespace collnoise {
namespace {

const LogGops kDefaults;  // the paper's values (docs/run-files.md)

const KeySpec kL{.name = "loggops.L",
                 .meaning = "latency",
                 .unit = "seconds",
                 .fallback = kDefaults.L,
                 .bounds = {0.0, 1.0e3}};
const KeySpec ko{.name = "loggops.o",
                 .meaning = "CPU overhead per message",
                 .unit = "seconds",
                 .fallback = kDefaults.o,
                 .bounds = {0.0, 1.0e3}};
const KeySpec kg{.name = "loggops.g",
                 .meaning = "NIC gap per message",
                 .unit = "seconds",
                 .fallback = kDefaults.g,
                 .bounds = {0.0, 1.0e3}};
const KeySpec kG{.name = "loggops.G",
                 .meaning = "NIC gap per byte",
                 .unit = "seconds per byte",
                 .fallback = kDefaults.G,
                 .bounds = {0.0, 1.0}};
const KeySpec kO{.name = "loggops.O",
                 .meaning = "CPU overhead per byte",
                 .unit = "seconds per byte",
                 .fallback = kDefaults.O,
                 .bounds = {0.0, 1.0}};
const KeySpec kBytes{.name = "loggops.message_bytes",
                     .type = KeyType::kInteger,
                     .meaning = "message size",
                     .unit = "bytes",
                     .fallback = static_cast<std::int64_t>(kDefaults.message_bytes),
                     .bounds = {1.0, 1099511627776.0}};

}  // namespace

std::vector<KeySpec> loggops_keys() {
  return {kL, ko, kg, kG, kO, kBytes};
}

std::vector<std::string> loggp_file_keys() {
  return {kL.name, ko.name, kg.name, kG.name};
}

KeySpec loggops_variant(const KeySpec& key, const std::string& prefix, const std::string& which,
                        const std::string& otherwise) {
  KeySpec out = key;
  out.name = prefix + key.name.substr(std::string("loggops.").size());
  out.meaning = fmt::format("{}: {} (default: {})", which, key.meaning, otherwise);
  out.fallback.reset();
  out.optional = true;
  return out;
}

LogGops read_loggops(ParamReader& reader, bool message_size) {
  LogGops net;
  net.L = reader.number(kL);
  net.o = reader.number(ko);
  net.g = reader.number(kg);
  net.G = reader.number(kG);
  net.O = reader.number(kO);
  if (message_size) net.message_bytes = static_cast<std::uint64_t>(reader.integer(kBytes));
  return net;
}

}  // namespace collnoise
