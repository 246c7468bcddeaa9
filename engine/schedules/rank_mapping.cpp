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
  std::uint32_t endpoint = 0;  // the node's on a topology, when the file gives it
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
  std::size_t columns = 0;
  for (int line_no = 1; in.next(line); ++line_no) {
    std::string text = line;
    if (const auto hash = text.find('#'); hash != std::string::npos) text.erase(hash);
    const auto fields = fields_of(text);
    if (fields.empty()) continue;
    // The first line sets the columns: three, or four with the endpoints.
    if (columns == 0 && (fields.size() == 3 || fields.size() == 4)) columns = fields.size();
    bool whole = fields.size() == columns;
    for (const auto f : fields) whole = whole && parse_whole(f, kMaxMappingId).has_value();
    if (!whole)
      throw InputError(fmt::format(
          "{}:{}: {} is not 'rank node switch{}' ({} whole numbers up to {}, as the first line)",
          path, line_no, quoted_text(text.substr(text.find_first_not_of(" \t\r"))),
          columns == 4 ? " endpoint" : "", columns == 4 ? "four" : "three", kMaxMappingId));
    const Placed here{.node = id_of(fields[1]),
                      .sw = id_of(fields[2]),
                      .endpoint = columns == 4 ? id_of(fields[3]) : 0,
                      .line = line_no};
    const std::uint32_t rank = id_of(fields[0]);
    if (const auto [at, fresh] = ranks.emplace(rank, here); !fresh)
      throw InputError(fmt::format("{}:{}: rank {} is listed twice (first at line {})", path,
                                   line_no, rank, at->second.line));
    const auto [at, fresh] = nodes.emplace(here.node, here);
    if (!fresh && at->second.sw != here.sw)
      throw InputError(fmt::format("{}:{}: node {} on switch {}, and on switch {} at line {}", path,
                                   line_no, here.node, here.sw, at->second.sw, at->second.line));
    if (!fresh && at->second.endpoint != here.endpoint)
      throw InputError(fmt::format("{}:{}: node {} on endpoint {}, and on endpoint {} at line {}",
                                   path, line_no, here.node, here.endpoint, at->second.endpoint,
                                   at->second.line));
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
    if (columns == 4) out.endpoint_of.push_back(at->second.endpoint);
  }
  return out;
}

}  // namespace collnoise
