#include "engine/network/dot_topology.hpp"

#include <fmt/format.h>
#include <graphviz/cgraph.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <memory>
#include <mutex>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <utility>

#include "core/errors.hpp"
#include "core/input_file.hpp"

namespace collnoise {

namespace {

// --- cgraph: one reader at a time, its messages captured ------------------------------------

// cgraph's parser, its line counter and its error hook are process-wide.
std::mutex& cgraph_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::string& cgraph_messages() {
  static std::string messages;
  return messages;
}

int collect_cgraph_message(char* text) {
  cgraph_messages() += text;
  return 0;
}

// The name cgraph gives the input in its messages (it keeps the pointer: a static, never a
// temporary); removed again from what we report.
char kCgraphInputName[] = "dot";

struct GraphCloser {
  void operator()(Agraph_t* graph) const { agclose(graph); }
};
using GraphPtr = std::unique_ptr<Agraph_t, GraphCloser>;

// Holds the lock for as long as cgraph is used, sends its messages to cgraph_messages() instead
// of stderr, and gives the next parse a clean lexer: cgraph's lexer keeps the rest of the last
// line it read after a successful parse (it would be read before the next input, and shift its
// line numbers), and counts lines on from the last input unless agsetfile resets the count.
class CgraphSession {
 public:
  CgraphSession() : lock_(cgraph_mutex()) {
    previous_hook_ = agseterrf(&collect_cgraph_message);
    previous_level_ = agseterr(AGWARN);
    while (Agraph_t* leftover = agmemread("")) agclose(leftover);
    cgraph_messages().clear();
    agreseterrors();
    agsetfile(kCgraphInputName);
  }
  ~CgraphSession() {
    agseterrf(previous_hook_);
    agseterr(previous_level_);
  }
  CgraphSession(const CgraphSession&) = delete;
  CgraphSession& operator=(const CgraphSession&) = delete;

 private:
  std::lock_guard<std::mutex> lock_;
  agusererrf previous_hook_ = nullptr;
  agerrlevel_t previous_level_ = AGWARN;
};

// cgraph's messages ("Error: dot: syntax error in line 4 near '}'\n", warnings alike) as one
// line: its errors (or, without any, its warnings) without their prefixes, and the first line
// number they name (0: none).
std::pair<std::string, int> cgraph_error(const std::string& messages) {
  std::string errors, warnings;
  std::string_view rest = messages;
  while (!rest.empty()) {
    const std::size_t end = std::min(rest.find('\n'), rest.size());
    std::string_view line = rest.substr(0, end);
    rest.remove_prefix(std::min(end + 1, rest.size()));
    const bool error = line.starts_with("Error: ");
    if (error) line.remove_prefix(7);
    if (line.starts_with("Warning: ")) line.remove_prefix(9);
    if (line.starts_with("dot: ")) line.remove_prefix(5);
    if (line.empty()) continue;
    std::string& to = error ? errors : warnings;
    if (!to.empty()) to += "; ";
    to += line;
  }
  std::string text = errors.empty() ? warnings : errors;
  int line = 0;
  if (const std::size_t at = text.find("in line "); at != std::string::npos) {
    const char* digits = text.data() + at + 8;
    std::from_chars(digits, text.data() + text.size(), line);
  }
  return {std::move(text), line};
}

// --- the text, for line numbers in messages (scanned only when a message needs one) -----------

struct Token {
  enum Kind : std::uint8_t { kName, kEdgeOp, kPunct } kind;
  std::string text;  // a name unquoted ("\"" and line continuations undone), or the punctuation
  int line;
  bool quoted;
};

bool is_name_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || u >= 0x80;
}

// Where a /* comment */ that starts at `i` ends; counts its newlines.
std::size_t skip_block_comment(std::string_view s, std::size_t i, int& line) {
  const std::size_t end = std::min(s.find("*/", i + 2), s.size());
  line += static_cast<int>(std::count(s.begin() + static_cast<std::ptrdiff_t>(i),
                                      s.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
  return std::min(end + 2, s.size());
}

// A "string" or an <html> string that starts at `i`: appends its text to `out`, counts its
// newlines, returns where it ends.
std::size_t read_quoted(std::string_view s, std::size_t i, int& line, std::string& out) {
  for (++i; i < s.size() && s[i] != '"'; ++i) {
    if (s[i] == '\n') ++line;
    if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '"' || s[i + 1] == '\n')) {
      if (s[++i] == '\n') {
        ++line;
        continue;
      }
    }
    out += s[i];
  }
  return std::min(i + 1, s.size());
}

std::size_t read_html(std::string_view s, std::size_t i, int& line, std::string& out) {
  int depth = 0;
  for (; i < s.size(); ++i) {
    if (s[i] == '\n') ++line;
    if (s[i] == '<') ++depth;
    if (s[i] == '>' && --depth == 0) break;
    if (depth > 1 || s[i] != '<') out += s[i];
  }
  return std::min(i + 1, s.size());
}

// The dot text as tokens, each with the line it starts on: names (identifiers, numerals, quoted
// and HTML strings), edge operators and punctuation; comments and '#' lines skipped.
std::vector<Token> dot_tokens(std::string_view s) {
  std::vector<Token> out;
  int line = 1;
  bool line_start = true;
  for (std::size_t i = 0; i < s.size();) {
    const char c = s[i];
    const int at = line;
    if (c == '\n' || (line_start && c == '#') || s.substr(i, 2) == "//") {
      if (c != '\n') i = std::min(s.find('\n', i), s.size());
      if (i < s.size()) {
        ++line;
        ++i;
      }
      line_start = true;
      continue;
    }
    line_start = false;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
    } else if (s.substr(i, 2) == "/*") {
      i = skip_block_comment(s, i, line);
    } else if (c == '"' || c == '<') {
      Token token{Token::kName, "", at, true};
      i = c == '"' ? read_quoted(s, i, line, token.text) : read_html(s, i, line, token.text);
      out.push_back(std::move(token));
    } else if (s.substr(i, 2) == "->" || s.substr(i, 2) == "--") {
      out.push_back({Token::kEdgeOp, std::string(s.substr(i, 2)), at, false});
      i += 2;
    } else if (is_name_char(c) || c == '-') {
      std::size_t end = i + 1;
      while (end < s.size() && is_name_char(s[end])) ++end;
      out.push_back({Token::kName, std::string(s.substr(i, end - i)), at, false});
      i = end;
    } else {
      out.push_back({Token::kPunct, std::string(1, c), at, false});
      ++i;
    }
  }
  return out;
}

bool is_keyword(const Token& t, std::initializer_list<std::string_view> words) {
  if (t.kind != Token::kName || t.quoted) return false;
  return std::any_of(words.begin(), words.end(), [&](std::string_view w) {
    return std::equal(w.begin(), w.end(), t.text.begin(), t.text.end(), [](char a, char b) {
      return a == (b >= 'A' && b <= 'Z' ? b - 'A' + 'a' : b);
    });
  });
}

bool is_punct(const std::vector<Token>& t, std::size_t i, char c) {
  return i < t.size() && t[i].kind == Token::kPunct && t[i].text[0] == c;
}

// The file and, where a light scan of its text finds it, the line of a node's first appearance
// or of an edge: "fat.dot:12" or "fat.dot".
class DotText {
 public:
  DotText(const std::string& path, std::string_view text) : path_(path), text_(text) {}

  std::string at(int line) const { return line > 0 ? fmt::format("{}:{}", path_, line) : path_; }
  std::string at_first_token() const { return at(tokens().empty() ? 0 : tokens().front().line); }
  // Outside attribute lists, not a keyword, a graph's name, an attribute's name or value or a
  // port.
  std::string at_node(std::string_view name) const {
    for (std::size_t i = 0; i < tokens().size(); ++i)
      if (is_node_here(i) && tokens()[i].text == name) return at(tokens()[i].line);
    return path_;
  }
  // The `ordinal`-th (from 1) "tail -> head", ports allowed; not found through subgraphs.
  std::string at_edge(std::string_view tail, std::string_view head, std::uint32_t ordinal) const {
    const std::vector<Token>& t = tokens();
    std::uint32_t seen = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (!is_node_here(i) || t[i].text != tail) continue;
      std::size_t j = i + 1;
      while (is_punct(t, j, ':') && j + 1 < t.size()) j += 2;
      if (j + 1 < t.size() && t[j].kind == Token::kEdgeOp && t[j + 1].kind == Token::kName &&
          t[j + 1].text == head && ++seen == ordinal)
        return at(t[i].line);
    }
    return path_;
  }

 private:
  const std::vector<Token>& tokens() const {
    if (!scanned_) {
      tokens_ = dot_tokens(text_);
      outside_.assign(tokens_.size(), false);
      int depth = 0;
      for (std::size_t i = 0; i < tokens_.size(); ++i) {
        if (is_punct(tokens_, i, '[')) ++depth;
        if (is_punct(tokens_, i, ']')) --depth;
        outside_[i] = depth == 0;
      }
      scanned_ = true;
    }
    return tokens_;
  }
  bool is_node_here(std::size_t i) const {
    const std::vector<Token>& t = tokens();
    if (t[i].kind != Token::kName || !outside_[i]) return false;
    if (is_keyword(t[i], {"graph", "digraph", "subgraph", "node", "edge", "strict"})) return false;
    if (i > 0 && is_keyword(t[i - 1], {"graph", "digraph", "subgraph"})) return false;
    if (is_punct(t, i + 1, '=')) return false;
    return i == 0 || !(is_punct(t, i - 1, '=') || is_punct(t, i - 1, ':'));
  }

  const std::string& path_;
  std::string_view text_;
  mutable bool scanned_ = false;
  mutable std::vector<Token> tokens_;
  mutable std::vector<bool> outside_;  // outside any [attribute list]
};

// A `bandwidth` or `latency` value: a finite number (as std::from_chars reads it: "12.5", "1e-3";
// spaces and tabs around it allowed), or nothing (unset); `valid` false for anything else.
std::optional<double> number_of(std::string_view text, bool& valid) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  valid = true;
  if (text.empty()) return std::nullopt;
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  valid = error == std::errc() && end == text.data() + text.size() && std::isfinite(value);
  return value;
}

}  // namespace

// --- the reader ---------------------------------------------------------------------------------

// Builds a DotTopology from cgraph's graph (under the session's lock), then checks its routes.
class DotReader {
 public:
  DotReader(DotTopology& t, const std::string& text) : t_(t), text_(t.path_, text) {}

  void read_graph(Agraph_t* graph);
  void check_routes();

 private:
  static constexpr std::uint32_t kSwitch = ~std::uint32_t{0};

  void read_nodes(Agraph_t* graph);
  void read_node_links(Agraph_t* graph, Agnode_t* node, std::uint32_t index);
  void read_comment(Agedge_t* edge, LinkId link);
  void read_number(Agedge_t* edge, LinkId link, const Agsym_t* symbol, std::vector<double>& values,
                   bool positive);
  void build_table(std::uint32_t node);
  std::uint32_t walk(std::uint32_t src, std::uint32_t dst, std::uint32_t walking,
                     std::uint32_t known);
  [[noreturn]] void refuse_edge(LinkId link, const std::string& what) const;
  [[noreturn]] void refuse_stuck(std::uint32_t node, std::uint32_t src, std::uint32_t dst) const;
  [[noreturn]] void refuse_loop(std::uint32_t node, std::uint32_t src, std::uint32_t dst) const;

  DotTopology& t_;
  DotText text_;
  std::unordered_map<Agnode_t*, std::uint32_t> index_of_;
  std::unordered_map<std::string_view, std::uint32_t> node_of_name_;
  std::vector<std::uint32_t> rank_of_node_;  // kSwitch for a switch
  Agsym_t* comment_ = nullptr;
  Agsym_t* bandwidth_ = nullptr;
  Agsym_t* latency_ = nullptr;
  std::vector<DotTopology::Entry> entries_;  // the current node's, in the file's order
  // The route check: per node, the destination it was last walked for (2 d + 1 while walking,
  // 2 d + 2 once its distance to d is known) and that distance.
  std::vector<std::uint32_t> mark_, depth_, stack_;
};

void DotReader::read_nodes(Agraph_t* graph) {
  for (Agnode_t* node = agfstnode(graph); node; node = agnxtnode(graph, node)) {
    const auto index = static_cast<std::uint32_t>(t_.names_.size());
    index_of_.emplace(node, index);
    t_.names_.emplace_back(agnameof(node));
    const bool host = t_.names_.back().starts_with('H');
    rank_of_node_.push_back(host ? static_cast<std::uint32_t>(t_.host_node_.size()) : kSwitch);
    if (host) t_.host_node_.push_back(index);
    if (t_.host_node_.size() > DotTopology::kMaxHosts)
      throw InputError(fmt::format("{}: more than 2^30 hosts", t_.path_));
  }
  // The names are in place: views of them stay valid.
  for (std::uint32_t i = 0; i < t_.names_.size(); ++i) node_of_name_.emplace(t_.names_[i], i);
  if (t_.host_node_.empty())
    throw InputError(fmt::format(
        "{}: no hosts: a host is a node whose name starts with a capital 'H' (as LogGOPSim "
        "reads it); every other node is a switch",
        t_.path_));
  if (t_.host_node_.size() < 2)
    throw InputError(fmt::format("{}: only one host ({}): a network needs at least 2", t_.path_,
                                 t_.names_[t_.host_node_[0]]));
}

void DotReader::read_graph(Agraph_t* graph) {
  if (!agisdirected(graph))
    throw InputError(fmt::format(
        "{}: an undirected graph: LogGOPSim would keep each edge in one direction only; write a "
        "digraph, with an edge each way for every cable",
        text_.at_first_token()));
  read_nodes(graph);
  if (static_cast<std::uint64_t>(agnedges(graph)) >= DotTopology::kNoLink)
    throw InputError(fmt::format("{}: 2^32 links or more", t_.path_));
  comment_ = agattr(graph, AGEDGE, const_cast<char*>("comment"), nullptr);
  bandwidth_ = agattr(graph, AGEDGE, const_cast<char*>("bandwidth"), nullptr);
  latency_ = agattr(graph, AGEDGE, const_cast<char*>("latency"), nullptr);
  const auto nan = std::numeric_limits<double>::quiet_NaN();
  if (bandwidth_) t_.bandwidth_.assign(static_cast<std::size_t>(agnedges(graph)), nan);
  if (latency_) t_.latency_.assign(static_cast<std::size_t>(agnedges(graph)), nan);
  std::uint32_t index = 0;
  for (Agnode_t* node = agfstnode(graph); node; node = agnxtnode(graph, node))
    read_node_links(graph, node, index++);
  t_.first_link_.push_back(static_cast<std::uint32_t>(t_.head_.size()));
}

void DotReader::read_node_links(Agraph_t* graph, Agnode_t* node, std::uint32_t index) {
  t_.first_link_.push_back(static_cast<std::uint32_t>(t_.head_.size()));
  entries_.clear();
  for (Agedge_t* edge = agfstout(graph, node); edge; edge = agnxtout(graph, edge)) {
    const auto link = static_cast<LinkId>(t_.head_.size());
    t_.head_.push_back(index_of_.at(aghead(edge)));
    read_comment(edge, link);
    if (bandwidth_) read_number(edge, link, bandwidth_, t_.bandwidth_, true);
    if (latency_) read_number(edge, link, latency_, t_.latency_, false);
  }
  build_table(index);
}

void DotReader::read_comment(Agedge_t* edge, LinkId link) {
  if (!comment_) return;
  const std::string_view list = agxget(edge, comment_);
  if (list == "*") return;  // as LogGOPSim: no entries
  constexpr std::string_view kSeparators = ", \t\n";
  for (std::size_t at = list.find_first_not_of(kSeparators); at != std::string_view::npos;) {
    const std::size_t end = std::min(list.find_first_of(kSeparators, at), list.size());
    const std::string_view name = list.substr(at, end - at);
    at = list.find_first_not_of(kSeparators, end);
    const auto found = node_of_name_.find(name);
    if (found == node_of_name_.end())
      refuse_edge(link, fmt::format("its comment names '{}', which is no node of the graph", name));
    const std::uint32_t rank = rank_of_node_[found->second];
    if (rank == kSwitch)
      refuse_edge(link, fmt::format("its comment names '{}', a switch: only hosts (names starting "
                                    "with 'H') are destinations",
                                    name));
    entries_.push_back({rank, link});
  }
}

void DotReader::read_number(Agedge_t* edge, LinkId link, const Agsym_t* symbol,
                            std::vector<double>& values, bool positive) {
  const std::string_view text = agxget(edge, const_cast<Agsym_t*>(symbol));
  bool valid = false;
  const std::optional<double> value = number_of(text, valid);
  if (valid && !value) return;  // declared elsewhere, not set here
  if (!valid || (positive ? !(*value > 0) : !(*value >= 0)))
    refuse_edge(link, fmt::format("{} = \"{}\" is not a finite number {} ({})", symbol->name, text,
                                  positive ? "> 0" : ">= 0", positive ? "bytes per ns" : "ns"));
  values[link] = *value;
}

void DotReader::build_table(std::uint32_t node) {
  DotTopology::Table& table = t_.tables_.emplace_back();
  const std::uint32_t out_links =
      static_cast<std::uint32_t>(t_.head_.size()) - t_.first_link_[node];
  if (out_links == 1) table.kind = DotTopology::TableKind::kSingle;
  if (out_links < 2 || entries_.empty()) return;
  // The first out-edge listing a host wins (LogGOPSim's std::map::insert keeps the first).
  std::stable_sort(entries_.begin(), entries_.end(),
                   [](const auto& a, const auto& b) { return a.host < b.host; });
  entries_.erase(std::unique(entries_.begin(), entries_.end(),
                             [](const auto& a, const auto& b) { return a.host == b.host; }),
                 entries_.end());
  const std::size_t hosts = t_.host_node_.size();
  if (2 * entries_.size() >= hosts) {
    table.kind = DotTopology::TableKind::kDense;
    table.offset = t_.dense_.size();
    t_.dense_.resize(t_.dense_.size() + hosts, DotTopology::kNoLink);
    for (const auto& e : entries_) t_.dense_[table.offset + e.host] = e.link;
  } else {
    table.kind = DotTopology::TableKind::kSparse;
    table.offset = t_.sparse_.size();
    table.size = static_cast<std::uint32_t>(entries_.size());
    t_.sparse_.insert(t_.sparse_.end(), entries_.begin(), entries_.end());
  }
}

void DotReader::check_routes() {
  const auto hosts = static_cast<std::uint32_t>(t_.host_node_.size());
  mark_.assign(t_.names_.size(), 0);
  depth_.assign(t_.names_.size(), 0);
  std::uint32_t diameter = 0;
  for (std::uint32_t dst = 0; dst < hosts; ++dst) {
    const std::uint32_t walking = 2 * dst + 1, known = 2 * dst + 2;  // below 2^31 + 3
    mark_[t_.host_node_[dst]] = known;
    depth_[t_.host_node_[dst]] = 0;
    for (std::uint32_t src = 0; src < hosts; ++src) {
      // Most hosts have one uplink to a switch whose distance is known by then: the shortcut
      // takes three quarters off the check's time (not through the host itself, since a host
      // on the switch's route is known too).
      const std::uint32_t node = t_.host_node_[src];
      if (t_.tables_[node].kind == DotTopology::TableKind::kSingle) {
        const std::uint32_t head = t_.head_[t_.first_link_[node]];
        if (mark_[head] == known && mark_[node] != known) {
          diameter = std::max(diameter, depth_[head] + 1);
          continue;
        }
      }
      diameter = std::max(diameter, walk(src, dst, walking, known));
    }
  }
  t_.diameter_ = static_cast<int>(diameter);  // at most the node count, below 2^31
}

// Follows the route from host src towards host dst until a node whose distance to dst is
// known, then gives the nodes walked theirs; returns src's.
std::uint32_t DotReader::walk(std::uint32_t src, std::uint32_t dst, std::uint32_t walking,
                              std::uint32_t known) {
  std::uint32_t node = t_.host_node_[src];
  stack_.clear();
  while (mark_[node] != known) {
    if (mark_[node] == walking) refuse_loop(node, src, dst);
    mark_[node] = walking;
    stack_.push_back(node);
    const LinkId link = t_.next_link(node, dst);
    if (link == DotTopology::kNoLink) refuse_stuck(node, src, dst);
    node = t_.head_[link];
  }
  std::uint32_t depth = depth_[node];
  for (std::size_t i = stack_.size(); i-- > 0;) {
    depth_[stack_[i]] = ++depth;
    mark_[stack_[i]] = known;
  }
  return depth_[t_.host_node_[src]];
}

void DotReader::refuse_edge(LinkId link, const std::string& what) const {
  const std::uint32_t tail = t_.tail_of(link);
  throw InputError(fmt::format(
      "{}: edge {}: {}",
      text_.at_edge(t_.names_[tail], t_.names_[t_.head_[link]], t_.parallel_ordinal(link)),
      t_.link_name(link), what));
}

void DotReader::refuse_stuck(std::uint32_t node, std::uint32_t src, std::uint32_t dst) const {
  const std::string& name = t_.names_[node];
  const std::string& to = t_.host_name(dst);
  const std::uint32_t out_links = t_.first_link_[node + 1] - t_.first_link_[node];
  const std::string what =
      out_links == 0 ? fmt::format("node {} has no out-edge", name)
                     : fmt::format("node {} has {} out-edges and the comment of none lists {}",
                                   name, out_links, to);
  throw InputError(fmt::format("{}: {}: the route from {} to {} cannot go on", text_.at_node(name),
                               what, t_.host_name(src), to));
}

void DotReader::refuse_loop(std::uint32_t node, std::uint32_t src, std::uint32_t dst) const {
  // The loop's nodes, from the first visit of `node` on (at most 8 of them named).
  const auto first = std::find(stack_.begin(), stack_.end(), node);
  std::string loop;
  const auto length = static_cast<std::size_t>(stack_.end() - first);
  for (auto it = first; it != stack_.end() && it - first < 8; ++it) loop += t_.names_[*it] + " -> ";
  loop += length > 8 ? "... -> " + t_.names_[node] : t_.names_[node];
  throw InputError(fmt::format("{}: a routing loop: the route from {} to {} goes round {}",
                               t_.path_, t_.host_name(src), t_.host_name(dst), loop));
}

// --- the topology -------------------------------------------------------------------------------

DotTopology DotTopology::read(const std::string& path) {
  const std::string text = read_regular_text(path, fmt::format("topology file '{}'", path));
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
    throw InputError(fmt::format(
        "{}:{}: a NUL byte: not a dot text file", path,
        1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n')));
  DotTopology t;
  t.path_ = path;
  DotReader reader(t, text);
  {
    const CgraphSession session;
    const GraphPtr graph(agmemread(text.c_str()));
    if (!graph) {
      const auto [what, line] = cgraph_error(cgraph_messages());
      throw InputError(fmt::format("{}{}: cgraph cannot read a graph from it: {}", path,
                                   line > 0 ? fmt::format(":{}", line) : "",
                                   what.empty() ? "no graph in it" : what));
    }
    reader.read_graph(graph.get());
  }
  reader.check_routes();
  return t;
}

std::string DotTopology::describe() const {
  return fmt::format("dot file '{}' ({} hosts, {} switch{})",
                     std::filesystem::path(path_).filename().string(), endpoints(), switches(),
                     switches() == 1 ? "" : "es");
}

LinkId DotTopology::next_link(std::uint32_t node, std::uint32_t host) const {
  const Table& table = tables_[node];
  switch (table.kind) {
    case TableKind::kSingle:
      return first_link_[node];
    case TableKind::kDense:
      return dense_[table.offset + host];
    case TableKind::kSparse: {
      const auto begin = sparse_.begin() + static_cast<std::ptrdiff_t>(table.offset);
      const auto end = begin + table.size;
      const auto at = std::lower_bound(begin, end, host,
                                       [](const Entry& e, std::uint32_t h) { return e.host < h; });
      return at != end && at->host == host ? at->link : kNoLink;
    }
    case TableKind::kNone:
      break;
  }
  return kNoLink;
}

std::size_t DotTopology::route(std::uint64_t src, std::uint64_t dst, std::span<LinkId> path) const {
  // Every pair was walked when the file was read: each step finds its link.
  std::uint32_t node = host_node_[src];
  const std::uint32_t target = host_node_[dst];
  const auto host = static_cast<std::uint32_t>(dst);
  std::size_t hops = 0;
  while (node != target) {
    const LinkId link = next_link(node, host);
    path[hops++] = link;
    node = head_[link];
  }
  return hops;
}

std::uint32_t DotTopology::tail_of(LinkId link) const {
  // A node's out-links are consecutive: the last node whose first link is at most `link`.
  const auto after = std::upper_bound(first_link_.begin(), first_link_.end(), link);
  return static_cast<std::uint32_t>(after - first_link_.begin() - 1);
}

std::uint32_t DotTopology::parallel_ordinal(LinkId link) const {
  const std::uint32_t tail = tail_of(link);
  std::uint32_t ordinal = 1;
  for (LinkId l = first_link_[tail]; l < link; ++l)
    if (head_[l] == head_[link]) ++ordinal;
  return ordinal;
}

std::string DotTopology::link_name(LinkId link) const {
  const std::uint32_t ordinal = parallel_ordinal(link);
  const std::string name = names_[tail_of(link)] + " -> " + names_[head_[link]];
  return ordinal == 1 ? name : fmt::format("{} (parallel {})", name, ordinal);
}

std::optional<double> DotTopology::attribute(const std::vector<double>& values, LinkId link) {
  if (values.empty() || std::isnan(values[link])) return std::nullopt;
  return values[link];
}

}  // namespace collnoise
