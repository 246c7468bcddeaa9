#include "engine/schedules/goal/goal_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/input_file.hpp"
#include "core/memory_limit.hpp"
#include "core/stop_poll.hpp"
#include "core/stop_request.hpp"
#include "engine/schedules/schedule/rank_classes.hpp"

namespace collnoise {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// Lines of a file or a string, read in blocks of 4 MiB: the text is never held whole.
class LineSource {
 public:
  explicit LineSource(std::FILE* file) : file_(file) {}
  explicit LineSource(std::string_view text) : text_(text) {}

  /// The next line without its end (and without a '\r' before it); false at the end.
  bool next(std::string_view& line) {
    while (true) {
      const char* begin = buffer_.data() + at_;
      const char* end = buffer_.data() + filled_;
      if (const void* nl = std::memchr(begin, '\n', static_cast<std::size_t>(end - begin))) {
        const char* stop = static_cast<const char*>(nl);
        at_ = static_cast<std::size_t>(stop - buffer_.data()) + 1;
        line = trim_cr(std::string_view(begin, static_cast<std::size_t>(stop - begin)));
        return true;
      }
      if (eof_) {
        if (begin == end) return false;
        line = trim_cr(std::string_view(begin, static_cast<std::size_t>(end - begin)));
        at_ = filled_;
        return true;
      }
      refill();
    }
  }

 private:
  static std::string_view trim_cr(std::string_view s) {
    if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
    return s;
  }

  void refill() {
    // Keep the unfinished line, then append a block.
    const std::size_t rest = filled_ - at_;
    if (at_ > 0 && rest > 0) std::memmove(buffer_.data(), buffer_.data() + at_, rest);
    filled_ = rest;
    at_ = 0;
    // GOAL lines are short: one of 64 MiB is no GOAL file (and would grow this buffer at will).
    if (rest >= kMaxLine) throw InputError("a line longer than 64 MiB: this is not GOAL text");
    if (buffer_.size() < filled_ + kBlock)
      buffer_.resize(std::max(buffer_.size() * 2, filled_ + kBlock));
    if (file_) {
      throw_if_stop_requested();
      const std::size_t got = std::fread(buffer_.data() + filled_, 1, kBlock, file_);
      if (got < kBlock) {
        if (std::ferror(file_))
          throw InputError(fmt::format("read error: {}", std::strerror(errno)));
        eof_ = true;
      }
      filled_ += got;
    } else {
      const std::size_t got = std::min(kBlock, text_.size() - text_at_);
      std::memcpy(buffer_.data() + filled_, text_.data() + text_at_, got);
      text_at_ += got;
      filled_ += got;
      eof_ = text_at_ == text_.size();
    }
  }

  static constexpr std::size_t kBlock = std::size_t{4} << 20;
  static constexpr std::size_t kMaxLine = std::size_t{64} << 20;
  std::FILE* file_ = nullptr;
  std::string_view text_;
  std::size_t text_at_ = 0;
  std::vector<char> buffer_ = std::vector<char>(kBlock);
  std::size_t at_ = 0;
  std::size_t filled_ = 0;
  bool eof_ = false;
};

bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_ident(char c) {
  return is_alpha(c) || is_digit(c) || c == '_';
}

// Whether a token is the keyword `k` (inline: a library memcmp per token was a tenth of the
// parse).
template <std::size_t N>
bool is_keyword(std::string_view token, const char (&k)[N]) {
  if (token.size() != N - 1) return false;
  for (std::size_t i = 0; i + 1 < N; ++i)
    if (token[i] != k[i]) return false;
  return true;
}

// The ranges of a GOAL file's values (docs/run-files.md), those of the run-file keys: a message
// of at most 2^40 bytes (collective.message_bytes), a computation of at most 10^6 seconds
// (collective.W), in nanoseconds.
constexpr std::uint64_t kMaxGoalMessageBytes = std::uint64_t{1} << 40;
constexpr std::uint64_t kMaxGoalCalcNanoseconds = 1'000'000'000'000'000;

// A label as a dependency names it: Schedgen's "l<number>" by its number, others by name.
struct LabelRef {
  static constexpr std::uint64_t kNamed = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t number = kNamed;
  std::string name;  ///< only when named (so Schedgen's labels cost no string)
};

// A dependency as written, resolved when its rank block closes (labels may come later).
struct PendingDependency {
  LabelRef later, earlier;
  bool started;
  std::uint64_t line;
  std::size_t column;
};

class GoalParser {
 public:
  /// `as_classes`: hand each rank to a RankClassCollector as soon as it is read, keeping none
  /// stored while the ranks fit in classes.
  GoalParser(std::string origin, bool as_classes)
      : origin_(std::move(origin)), as_classes_(as_classes) {}
  void reserve_operations(std::uint64_t n) {
    // A hint from the file's size: never more than a third of the memory limit.
    reserve_ = std::min(n, static_cast<std::uint64_t>(memory_limit() / 3.0 / kBytesPerOperation));
    if (!as_classes_) builder_.reserve(reserve_);
  }

  AnySchedule parse(LineSource& source) {
    std::string_view line;
    while (next_line(source, line)) {
      ++line_no_;
      poll_.tick();
      if ((line_no_ & 0x3fff) == 0) check_memory();
      parse_line(line);
    }
    ++line_no_;
    if (in_block_comment_) fail(1, "the file ends inside a /* comment");
    if (rank_open_)
      fail(1, fmt::format("the file ends inside the block of rank {}: a '}}' is missing", rank_));
    if (!num_ranks_) fail(1, "the file has no num_ranks line");
    if (ranks_read_ != *num_ranks_)
      fail(1, fmt::format("num_ranks is {}, but the file ends after {} rank block(s)", *num_ranks_,
                          ranks_read_));
    check_messages_balance();
    if (classes_) {
      if (std::optional<GeneratedSchedule> g = classes_->finish()) return std::move(*g);
      classes_->replay(builder_);  // classes would save too little: stored after all
    }
    return builder_.finish();
  }

 private:
  [[noreturn]] void fail(std::size_t column, const std::string& what) const {
    throw InputError(fmt::format("{}:{}:{}: {}", origin_, line_no_, column, what));
  }

  // The source's next line; its errors (a read error, a line beyond any GOAL line's length)
  // name the file and the line.
  bool next_line(LineSource& source, std::string_view& line) {
    try {
      return source.next(line);
    } catch (const InputError& e) {
      ++line_no_;
      fail(1, e.what());
    }
  }

  // ---- tokens --------------------------------------------------------------------------------

  struct Cursor {
    std::string_view s;
    std::size_t at = 0;
    void skip_space() {
      while (at < s.size() && (s[at] == ' ' || s[at] == '\t')) ++at;
    }
    bool done() {
      skip_space();
      return at >= s.size();
    }
    std::size_t column() const { return at + 1; }
  };

  // Removes comments from the line (and tracks /* */ across lines).
  std::string_view strip_comments(std::string_view line) {
    scratch_.clear();
    std::size_t i = 0;
    bool copied = false;
    while (i < line.size()) {
      if (in_block_comment_) {
        const auto close = line.find("*/", i);
        if (close == std::string_view::npos) {
          i = line.size();
          break;
        }
        in_block_comment_ = false;
        // Columns stay right: the comment becomes spaces.
        scratch_.append(close + 2 - i, ' ');
        i = close + 2;
        copied = true;
        continue;
      }
      const auto slash = line.find('/', i);
      if (slash == std::string_view::npos || slash + 1 >= line.size()) {
        if (!copied) return line.substr(0, line.size());
        scratch_.append(line.substr(i));
        break;
      }
      if (line[slash + 1] == '/') {
        if (!copied) return line.substr(0, slash);
        scratch_.append(line.substr(i, slash - i));
        break;
      }
      if (line[slash + 1] == '*') {
        scratch_.append(line.substr(i, slash - i));
        scratch_.append(2, ' ');
        in_block_comment_ = true;
        copied = true;
        i = slash + 2;
        continue;
      }
      scratch_.append(line.substr(i, slash + 1 - i));
      copied = true;
      i = slash + 1;
    }
    return scratch_;
  }

  std::string_view word(Cursor& c) {
    c.skip_space();
    const std::size_t start = c.at;
    if (c.at < c.s.size() && is_alpha(c.s[c.at])) {
      while (c.at < c.s.size() && is_ident(c.s[c.at])) ++c.at;
    }
    return c.s.substr(start, c.at - start);
  }

  std::uint64_t number(Cursor& c, const char* what, std::uint64_t max) {
    c.skip_space();
    const std::size_t start = c.at;
    if (c.at >= c.s.size() || !is_digit(c.s[c.at]))
      fail(c.column(), fmt::format("expected {} (an integer)", what));
    std::uint64_t v = 0;
    while (c.at < c.s.size() && is_digit(c.s[c.at])) {
      const auto d = static_cast<std::uint64_t>(c.s[c.at] - '0');
      if (v > (max - d) / 10) fail(start + 1, out_of_range(c, start, what, max));
      v = v * 10 + d;
      ++c.at;
    }
    return v;
  }

  // "<what> <the digits as written> is too large: the range is [0, max]".
  static std::string out_of_range(const Cursor& c, std::size_t start, const char* what,
                                  std::uint64_t max) {
    std::size_t end = start;
    while (end < c.s.size() && is_digit(c.s[end])) ++end;
    return fmt::format("{} {} is too large: the range is [0, {}]", what,
                       c.s.substr(start, end - start), max);
  }

  // An integer or -1 (a wildcard).
  std::uint32_t number_or_any(Cursor& c, const char* what, std::uint32_t any) {
    c.skip_space();
    if (c.at + 1 < c.s.size() && c.s[c.at] == '-' && c.s[c.at + 1] == '1' &&
        (c.at + 2 >= c.s.size() || !is_digit(c.s[c.at + 2]))) {
      c.at += 2;
      return any;
    }
    return static_cast<std::uint32_t>(
        number(c, what, std::numeric_limits<std::uint32_t>::max() - 1));
  }

  void expect_end(Cursor& c) {
    if (!c.done())
      fail(c.column(),
           fmt::format("unexpected '{}' at the end of the statement", c.s.substr(c.at)));
  }

  // ---- statements ----------------------------------------------------------------------------

  void parse_line(std::string_view raw) {
    const std::string_view line = strip_comments(raw);
    Cursor c{line};
    if (c.done()) return;
    if (c.s[c.at] == '}') {
      if (!rank_open_) fail(c.column(), "'}' outside a rank block");
      ++c.at;
      expect_end(c);
      close_rank();
      return;
    }
    const std::size_t word_column = c.column();
    const std::string_view first = word(c);
    if (first.empty()) fail(word_column, fmt::format("unexpected '{}'", c.s.substr(c.at, 1)));
    if (!rank_open_) {
      if (is_keyword(first, "num_ranks")) return parse_num_ranks(c);
      if (is_keyword(first, "rank")) return open_rank(c, word_column);
      fail(word_column, fmt::format("expected \"num_ranks\" or \"rank\", found \"{}\"", first));
    }
    if (is_keyword(first, "send") || is_keyword(first, "recv") || is_keyword(first, "calc"))
      return parse_op(c, first, {}, word_column);
    if (is_keyword(first, "rank") || is_keyword(first, "num_ranks"))
      fail(word_column,
           fmt::format("\"{}\" inside the block of rank {}: a '}}' is missing", first, rank_));
    // A label: "label: op" or "label requires label".
    c.skip_space();
    if (c.at < c.s.size() && c.s[c.at] == ':') {
      ++c.at;
      const std::size_t op_column = c.column();
      const std::string_view op = word(c);
      if (!is_keyword(op, "send") && !is_keyword(op, "recv") && !is_keyword(op, "calc"))
        fail(op_column,
             fmt::format("expected \"send\", \"recv\" or \"calc\" after \"{}:\"", first));
      return parse_op(c, op, first, op_column);
    }
    const std::size_t dep_column = c.column();
    const std::string_view dep = word(c);
    if (!is_keyword(dep, "requires") && !is_keyword(dep, "irequires"))
      fail(dep_column,
           fmt::format("expected ':', \"requires\" or \"irequires\" after \"{}\"", first));
    c.skip_space();
    const std::size_t target_column = c.column();
    const std::string_view earlier = word(c);
    if (earlier.empty()) fail(target_column, "expected a label");
    expect_end(c);
    pending_.push_back({label_ref(first), label_ref(earlier), is_keyword(dep, "irequires"),
                        line_no_, word_column});
  }

  void parse_num_ranks(Cursor& c) {
    if (num_ranks_) fail(c.column(), "a second num_ranks line");
    const auto n = number(c, "the number of ranks", 0x7fffffffULL);
    if (n == 0) fail(c.column(), "num_ranks must be at least 1");
    expect_end(c);
    num_ranks_ = static_cast<std::uint32_t>(n);
    // Nothing per rank yet: a tiny file may claim 2^31 ranks (its arrays grow as ranks are read).
  }

  void open_rank(Cursor& c, std::size_t word_column) {
    if (!num_ranks_) fail(word_column, "a rank block before the num_ranks line");
    const std::size_t column = c.column();
    const auto r = number(c, "a rank", std::numeric_limits<std::uint32_t>::max());
    if (r != ranks_read_)
      fail(column + 1, r >= *num_ranks_
                           ? fmt::format("rank {} does not exist (num_ranks {})", r, *num_ranks_)
                           : fmt::format("rank {} comes out of order: rank {} is next (ranks are "
                                         "given once each, in order)",
                                         r, ranks_read_));
    c.skip_space();
    if (c.at >= c.s.size() || c.s[c.at] != '{') fail(c.column(), "expected '{' after the rank");
    ++c.at;
    expect_end(c);
    rank_ = static_cast<std::uint32_t>(r);
    rank_open_ = true;
    labels_.clear();
    numbered_.clear();
    sparse_numbered_.clear();
    receives_in_rank_ = 0;
  }

  void parse_op(Cursor& c, std::string_view op, std::string_view label, std::size_t op_column) {
    Operation o;
    if (is_keyword(op, "calc")) {
      o.kind = OpKind::kCalc;
      o.size = number(c, "the computation's length (nanoseconds)", kMaxGoalCalcNanoseconds);
    } else {
      o.kind = is_keyword(op, "send") ? OpKind::kSend : OpKind::kRecv;
      o.size = number(c, "the message size (bytes)", kMaxGoalMessageBytes);
      c.skip_space();
      if (c.at >= c.s.size() || c.s[c.at] != 'b') fail(c.column(), "expected 'b' after the size");
      ++c.at;
      const std::size_t dir_column = c.column();
      const std::string_view dir = word(c);
      if (o.kind == OpKind::kSend ? !is_keyword(dir, "to") : !is_keyword(dir, "from"))
        fail(dir_column, fmt::format("expected \"{}\"", o.kind == OpKind::kSend ? "to" : "from"));
      const std::size_t peer_column = c.column();
      o.peer = o.kind == OpKind::kRecv
                   ? number_or_any(c, "the source rank", kAnyPeer)
                   : static_cast<std::uint32_t>(number(c, "the destination rank", 0xfffffffeULL));
      if (o.peer != kAnyPeer && o.peer >= *num_ranks_)
        fail(peer_column + 1, fmt::format("unknown peer {}: num_ranks is {}", o.peer, *num_ranks_));
    }
    // Options in LogGOPSim's order: tag (messages), cpu, nic (messages).
    std::size_t stage = 0;
    while (!c.done()) {
      const std::size_t column = c.column();
      const std::string_view key = word(c);
      if (is_keyword(key, "tag") && o.kind != OpKind::kCalc && stage < 1) {
        o.tag = number_or_any(c, "the tag", kAnyTag);
        stage = 1;
      } else if (is_keyword(key, "cpu") && stage < 2) {
        o.cpu = static_cast<std::uint8_t>(number(c, "the cpu", 255));
        stage = 2;
      } else if (is_keyword(key, "nic") && o.kind != OpKind::kCalc && stage < 3) {
        o.nic = static_cast<std::uint8_t>(number(c, "the nic", 255));
        stage = 3;
      } else {
        fail(column, key.empty()
                         ? fmt::format("unexpected '{}'", c.s.substr(c.at, 1))
                         : fmt::format("unexpected \"{}\" (the options are {}, in this order)", key,
                                       o.kind == OpKind::kCalc ? "cpu" : "tag, cpu, nic"));
      }
    }
    const std::uint32_t local = builder_.add(o);
    if (o.kind == OpKind::kSend) count_send_to(o.peer);
    if (o.kind == OpKind::kRecv) ++receives_in_rank_;
    if (!label.empty()) define_label(label, local, op_column);
  }

  // Labels "l<number>" (Schedgen's) go to a vector by number; others to a hash map.
  static std::optional<std::uint64_t> numbered_label(std::string_view label) {
    // Not with a leading zero: "l07" is another label than "l7", as LogGOPSim compares text.
    if (label.size() < 2 || label.size() > 11 || label[0] != 'l' || !is_digit(label[1]) ||
        (label[1] == '0' && label.size() > 2))
      return std::nullopt;
    std::uint64_t n = 0;
    for (std::size_t i = 1; i < label.size(); ++i) {
      if (!is_digit(label[i])) return std::nullopt;
      n = n * 10 + static_cast<std::uint64_t>(label[i] - '0');
    }
    return n < (std::uint64_t{1} << 31) ? std::optional(n) : std::nullopt;
  }

  void define_label(std::string_view label, std::uint32_t local, std::size_t column) {
    if (const auto n = numbered_label(label)) {
      // By number in a table while the numbers are dense (a few per operation of the rank);
      // sparse ones ("l500000000" in a one-line rank) in a hash map, so the table never takes
      // memory in proportion to a label's value.
      if (*n >= numbered_.size()) {
        const std::size_t grown = std::max<std::size_t>(*n + 1, numbered_.size() * 2);
        if (grown <= 4 * std::size_t{builder_.ops_in_rank()} + 1024) numbered_.resize(grown, 0);
      }
      const bool twice = *n < numbered_.size() ? std::exchange(numbered_[*n], local + 1) != 0
                                               : !sparse_numbered_.emplace(*n, local).second;
      if (twice)
        fail(column, fmt::format("label \"{}\" is defined twice in rank {}", label, rank_));
      return;
    }
    if (!labels_.emplace(std::string(label), local).second)
      fail(column, fmt::format("label \"{}\" is defined twice in rank {}", label, rank_));
  }

  static LabelRef label_ref(std::string_view label) {
    if (const auto n = numbered_label(label)) return {*n, {}};
    return {LabelRef::kNamed, std::string(label)};
  }
  static std::string label_text(const LabelRef& label) {
    return label.number == LabelRef::kNamed ? label.name : fmt::format("l{}", label.number);
  }

  std::optional<std::uint32_t> find_label(const LabelRef& label) const {
    if (label.number != LabelRef::kNamed) {
      if (label.number < numbered_.size() && numbered_[label.number] != 0)
        return numbered_[label.number] - 1;
      if (const auto it = sparse_numbered_.find(label.number); it != sparse_numbered_.end())
        return it->second;
      return std::nullopt;
    }
    const auto it = labels_.find(label.name);
    if (it == labels_.end()) return std::nullopt;
    return it->second;
  }

  void close_rank() {
    for (const auto& d : pending_) {
      poll_.tick();
      const auto later = find_label(d.later);
      const auto earlier = find_label(d.earlier);
      if (!later || !earlier) {
        const std::string missing = label_text(!later ? d.later : d.earlier);
        throw InputError(fmt::format("{}:{}:{}: label \"{}\" is not defined in rank {}", origin_,
                                     d.line, d.column, missing, rank_));
      }
      if (*later == *earlier)
        throw InputError(fmt::format("{}:{}:{}: \"{}\" depends on itself", origin_, d.line,
                                     d.column, label_text(d.later)));
      builder_.depend(*later, *earlier, d.started);
    }
    pending_.clear();
    builder_.end_rank([&] { return fmt::format("{}:{}: rank {}", origin_, line_no_, rank_); });
    receives_at_.push_back(receives_in_rank_);
    ++ranks_read_;
    rank_open_ = false;
    if (as_classes_) collect_last_rank();
    check_memory();
  }

  // The rank just read joins the classes (and leaves the builder), or the schedule goes on
  // stored: every rank read so far back into the builder, from the classes.
  void collect_last_rank() {
    if (!classes_) {
      if (ranks_read_ != 1) return;  // gone stored already
      classes_.emplace(*num_ranks_);
    }
    if (classes_->add(builder_.last_rank())) {
      builder_.drop_last_rank();
      return;
    }
    ScheduleBuilder stored;
    stored.reserve(reserve_);
    classes_->replay(stored);
    stored.append_rank(builder_.last_rank());
    builder_ = std::move(stored);
    classes_.reset();
  }

  // Every receive needs a message: per destination, as many sends as receives (tags and
  // wildcards aside, which only the simulation can match).
  void check_messages_balance() {
    for (std::uint32_t r = 0; r < *num_ranks_; ++r) {
      poll_.tick();
      const std::uint64_t sent = r < sends_to_.size() ? sends_to_[r] : 0;
      if (sent != receives_at_[r])
        throw InputError(fmt::format(
            "{}: rank {} posts {} receive(s) but {} message(s) are sent to it: some operations can "
            "never be matched",
            origin_, r, receives_at_[r], sent));
    }
  }

  // The sends to each rank, counted in an array that grows to the largest destination named (at
  // most num_ranks, checked against the memory limit before it grows).
  void count_send_to(std::uint32_t peer) {
    if (peer >= sends_to_.size()) {
      const std::size_t grown = std::min<std::size_t>(
          std::max<std::size_t>(peer + std::size_t{1}, 2 * sends_to_.size()), *num_ranks_);
      check_memory(8.0 * static_cast<double>(grown));
      sends_to_.resize(grown, 0);
    }
    ++sends_to_[peer];
  }

  // What reading holds (the schedule's arrays, the labels and counts), and may take at the next
  // growth of its largest array, against the memory limit; `more`: bytes about to be taken.
  void check_memory(double more = 0.0) const {
    const auto bytes = [](const auto& v) {
      return static_cast<double>(v.capacity() * sizeof(v[0]));
    };
    const double builder = static_cast<double>(builder_.memory_bytes());
    const double largest = std::max(builder_.largest_array_bytes(), bytes(sends_to_));
    const double held = builder + bytes(sends_to_) + bytes(receives_at_) + bytes(numbered_) +
                        bytes(pending_) +
                        64.0 * static_cast<double>(labels_.size() + sparse_numbered_.size()) +
                        4.0 * static_cast<double>(ranks_read_);
    const double need = held + std::max(largest, more);
    if (need > limit_)
      check_memory_limit(need, fmt::format("reading GOAL file {} (at line {}, rank {})", origin_,
                                           line_no_, ranks_read_));
  }

  std::string origin_;
  std::uint64_t line_no_ = 0;
  bool in_block_comment_ = false;
  std::string scratch_;
  std::optional<std::uint32_t> num_ranks_;
  bool rank_open_ = false;
  std::uint32_t rank_ = 0;
  ScheduleBuilder builder_;
  bool as_classes_;
  std::optional<RankClassCollector> classes_;
  std::uint32_t ranks_read_ = 0;
  std::uint64_t reserve_ = 0;
  std::unordered_map<std::string, std::uint32_t> labels_;
  std::vector<std::uint32_t> numbered_;  ///< local index + 1 of label "l<n>", 0 if undefined
  std::unordered_map<std::uint64_t, std::uint32_t> sparse_numbered_;  ///< "l<n>" beyond the table
  std::vector<PendingDependency> pending_;
  std::vector<std::uint64_t> sends_to_;     ///< per destination, up to the largest named
  std::vector<std::uint64_t> receives_at_;  ///< per rank read
  std::uint64_t receives_in_rank_ = 0;
  StopPoll poll_;
  double limit_ = memory_limit();
  // A stored schedule's bytes per operation (schedule.hpp), for the reservation.
  static constexpr double kBytesPerOperation = 32.0;
};

}  // namespace

namespace {

AnySchedule read_goal(const std::string& path, bool as_classes) {
  // A regular file only (a FIFO would block, a device never end), past a byte-order mark.
  InputFile input = InputFile::open_regular(path, fmt::format("GOAL file '{}'", path));
  input.skip_byte_order_mark();
  const std::uint64_t bytes = input.size();
  std::unique_ptr<std::FILE, FileCloser> file(input.release_to_stdio());
  LineSource source(file.get());
  try {
    GoalParser parser(path, as_classes);
    // Schedgen's lines average about 25 bytes: reserving for the file's size spares the
    // schedule's arrays their regrowth (each a copy of everything read so far).
    if (bytes > 0) parser.reserve_operations(bytes / 25);
    return parser.parse(source);
  } catch (const std::bad_alloc&) {
    throw InputError(fmt::format("GOAL file '{}' holds more than memory can: out of memory", path));
  }
}

}  // namespace

Schedule read_goal_file(const std::string& path) {
  return std::get<Schedule>(read_goal(path, false));
}

AnySchedule read_goal_schedule(const std::string& path) {
  return read_goal(path, true);
}

Schedule read_goal_text(const std::string& text, const std::string& origin) {
  LineSource source{std::string_view(text)};
  return std::get<Schedule>(GoalParser(origin, false).parse(source));
}

AnySchedule read_goal_schedule_text(const std::string& text, const std::string& origin) {
  LineSource source{std::string_view(text)};
  return GoalParser(origin, true).parse(source);
}

}  // namespace collnoise
