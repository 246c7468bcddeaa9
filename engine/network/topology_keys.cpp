#include "engine/network/topology_keys.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <stdexcept>
#include <vector>

#include "core/errors.hpp"
#include "engine/network/dragonfly.hpp"
#include "engine/network/torus.hpp"
#include "engine/network/xgft.hpp"

namespace collnoise {
namespace {

constexpr const char* kKeyName = "network.topology";

std::vector<std::uint32_t> numbers_of(const std::string& list, const std::string& text) {
  std::vector<std::uint32_t> out;
  std::size_t at = 0;
  while (at < list.size()) {
    const std::size_t comma = list.find(',', at);
    const std::string item =
        list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    try {
      std::size_t used = 0;
      const unsigned long v = std::stoul(item, &used);
      if (item.find_first_not_of(" \t", used) != std::string::npos || v > 1u << 30)
        throw std::invalid_argument(item);
      out.push_back(static_cast<std::uint32_t>(v));
    } catch (const std::exception&) {
      throw InputError(fmt::format("{} = \"{}\": '{}' is not a count", kKeyName, text, item));
    }
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

}  // namespace

const KeySpec& topology_key() {
  static const KeySpec key{.name = kKeyName,
                           .type = KeyType::kText,
                           .meaning =
                               "\"xgft(h; m_1,...,m_h; w_1,...,w_h)\", \"torus(k, n)\", "
                               "\"k-ary n-cube\" or \"dragonfly(p, a, h, g[; valiant])\""};
  return key;
}

const KeySpec& background_key() {
  // Optional for the keys' table: the round model reads it as required (missing: refused).
  static const KeySpec key{.name = "network.rho",
                           .meaning =
                               "the fraction of endpoints with background traffic (the round "
                               "model needs it; a schedule point without it has none)",
                           .bounds = {0.0, 1.0, false, true},
                           .optional = true};
  return key;
}

std::shared_ptr<const Topology> parse_topology(const std::string& text) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::smatch m;
  static const std::regex xgft(R"(^\s*xgft\s*\(\s*(\d+)\s*;([^;]*);([^;]*)\)\s*$)");
  static const std::regex torus(R"(^\s*torus\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*$)");
  static const std::regex cube(R"(^\s*(\d+)\s*-\s*ary\s+(\d+)\s*-\s*cube\s*$)");
  static const std::regex dragonfly(
      R"(^\s*dragonfly\s*\(([^;)]*)(;\s*(minimal|valiant)\s*)?\)\s*$)");
  if (std::regex_match(lower, m, xgft)) {
    const auto h = std::stoul(m[1]);
    auto mm = numbers_of(m[2], text);
    auto ww = numbers_of(m[3], text);
    if (mm.size() != h || ww.size() != h)
      throw InputError(
          fmt::format("{} = \"{}\": XGFT(h; m_1..m_h; w_1..w_h) needs h = {} values "
                      "of m and of w",
                      kKeyName, text, h));
    return std::make_shared<const Xgft>(std::move(mm), std::move(ww), kKeyName);
  }
  if (std::regex_match(lower, m, dragonfly)) {
    const auto pahg = numbers_of(m[1], text);
    if (pahg.size() != 4)
      throw InputError(fmt::format(
          "{} = \"{}\": dragonfly(p, a, h, g) needs 4 counts: endpoints a router, routers a "
          "group, global links a router, groups",
          kKeyName, text));
    return std::make_shared<const Dragonfly>(
        pahg[0], pahg[1], pahg[2], pahg[3],
        m[3] == "valiant" ? DragonflyRouting::kValiant : DragonflyRouting::kMinimal, kKeyName);
  }
  if (std::regex_match(lower, m, torus) || std::regex_match(lower, m, cube)) {
    const auto kn = numbers_of(m[1].str() + "," + m[2].str(), text);
    return std::make_shared<const Torus>(kn[0], kn[1], kKeyName);
  }
  throw InputError(
      fmt::format("{} = \"{}\" is not a topology: use \"xgft(h; m_1,...,m_h; w_1,...,w_h)\", "
                  "\"torus(k, n)\", \"k-ary n-cube\" or \"dragonfly(p, a, h, g[; valiant])\"",
                  kKeyName, text));
}

namespace topology_fields {

void put(Record& record, const Topology& t) {
  record.put(kTopology, Field(t.describe()));
  record.put(kFamily, Field(t.family()));
  record.put(kEndpoints, Field(t.endpoints()));
  record.put(kSwitches, Field(t.switches()));
  record.put(kLinks, Field(t.links()));
  record.put(kDiameter, Field(static_cast<std::int64_t>(t.diameter())));
}

}  // namespace topology_fields

}  // namespace collnoise
