#include "engine/schedules/rank_mapping.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/shown_text.hpp"
#include "core/text_fields.hpp"

namespace collnoise {
namespace {

// A rank's line as read, and where.
struct Placed {
  std::uint32_t node = 0;
  std::uint32_t sw = 0;
  int line = 0;
};

std::uint32_t id_of(std::string_view field) {
  return static_cast<std::uint32_t>(*parse_whole(field, kMaxMappingId));
}

}  // namespace

RankMapping read_rank_mapping(const std::string& path) {
  std::map<std::uint32_t, Placed> ranks;
  std::map<std::uint32_t, Placed> nodes;  // each node's switch, from the first line naming it
  TextLines in(path, fmt::format("rank mapping '{}'", path));
  std::string line;
  for (int line_no = 1; in.next(line); ++line_no) {
    std::string text = line;
    if (const auto hash = text.find('#'); hash != std::string::npos) text.erase(hash);
    const auto fields = fields_of(text);
    if (fields.empty()) continue;
    bool whole = fields.size() == 3;
    for (const auto f : fields) whole = whole && parse_whole(f, kMaxMappingId).has_value();
    if (!whole)
      throw InputError(fmt::format(
          "{}:{}: {} is not 'rank node switch' (three whole numbers up to {})", path, line_no,
          quoted_text(text.substr(text.find_first_not_of(" \t\r"))), kMaxMappingId));
    const Placed here{.node = id_of(fields[1]), .sw = id_of(fields[2]), .line = line_no};
    const std::uint32_t rank = id_of(fields[0]);
    if (const auto [at, fresh] = ranks.emplace(rank, here); !fresh)
      throw InputError(fmt::format("{}:{}: rank {} is listed twice (first at line {})", path,
                                   line_no, rank, at->second.line));
    if (const auto [at, fresh] = nodes.emplace(here.node, here); !fresh && at->second.sw != here.sw)
      throw InputError(fmt::format("{}:{}: node {} on switch {}, and on switch {} at line {}", path,
                                   line_no, here.node, here.sw, at->second.sw, at->second.line));
  }
  if (ranks.empty()) throw InputError(fmt::format("rank mapping '{}' lists no ranks", path));
  RankMapping out{.path = path};
  const std::uint32_t last = ranks.rbegin()->first;
  for (std::uint32_t r = 0; r <= last; ++r) {
    const auto at = ranks.find(r);
    if (at == ranks.end())
      throw InputError(fmt::format(
          "rank mapping '{}': rank {} is missing (every rank from 0 to {} needs its line)", path, r,
          last));
    out.node_of.push_back(at->second.node);
    out.switch_of.push_back(at->second.sw);
  }
  return out;
}

}  // namespace collnoise
