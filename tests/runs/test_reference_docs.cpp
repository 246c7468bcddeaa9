// Documentation checked against the code: the generated tables of docs/reference/ against the
// registries that define them, the counts and lists written by hand in the README and the docs
// against the same registries, and every source or documentation path the docs name against
// the tree.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/key_spec.hpp"
#include "distributions/law_kind.hpp"
#include "distributions/time_noise_kind.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/study.hpp"
#include "runs/reference_docs.hpp"
#include "runs/run_settings.hpp"

using namespace collnoise;
namespace fs = std::filesystem;

namespace {

const fs::path kSource = COLLNOISE_SOURCE_DIR;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Where two texts first differ, for a message that points at the line.
std::string first_difference(const std::string& committed, const std::string& rendered) {
  const auto a = lines_of(committed);
  const auto b = lines_of(rendered);
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const std::string x = i < a.size() ? a[i] : "(end of file)";
    const std::string y = i < b.size() ? b[i] : "(end of file)";
    if (x != y)
      return "line " + std::to_string(i + 1) + ":\n  committed:  " + x + "\n  registries: " + y;
  }
  return "the line ends differ";
}

std::vector<std::string> names_of(const auto& kinds) {
  std::vector<std::string> names;
  for (const auto& kind : kinds) names.push_back(kind.name);
  return names;
}

// The first cells of the rows of the Markdown table whose header line is `header`, the
// `occurrence`-th such table of `text` (from 0), each cell's `names` split at commas.
std::vector<std::string> first_column(const std::string& text, const std::string& header,
                                      int occurrence) {
  const auto lines = lines_of(text);
  std::size_t i = 0;
  for (int seen = -1; i < lines.size(); ++i)
    if (lines[i] == header && ++seen == occurrence) break;
  std::vector<std::string> names;
  for (i += 2; i < lines.size() && lines[i].starts_with("|"); ++i) {
    const std::string first = lines[i].substr(1, lines[i].find('|', 1) - 1);
    for (std::size_t at = first.find('`'); at != std::string::npos;) {
      const std::size_t end = first.find('`', at + 1);
      names.push_back(first.substr(at + 1, end - at - 1));
      at = first.find('`', end + 1);
    }
  }
  return names;
}

// "twelve" -> 12: the counts the docs write in words.
int number_word(const std::string& word) {
  static const std::vector<std::string> words = {
      "zero",     "one",     "two",     "three",     "four",     "five",     "six",
      "seven",    "eight",   "nine",    "ten",       "eleven",   "twelve",   "thirteen",
      "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"};
  std::string lower;
  for (const char c : word) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::size_t n = 0; n < words.size(); ++n)
    if (words[n] == lower) return static_cast<int>(n);
  return -1;
}

// Every "<number word> <noun>" of `text` (the words "twelve laws"), as numbers.
std::vector<int> counts_before(const std::string& text, const std::string& noun) {
  std::vector<int> counts;
  const std::string after = " " + noun;
  for (std::size_t at = text.find(after); at != std::string::npos; at = text.find(after, at + 1)) {
    const auto end_of_noun = at + after.size();
    if (end_of_noun < text.size() && std::isalpha(static_cast<unsigned char>(text[end_of_noun])))
      continue;
    std::size_t start = at;
    while (start > 0 && std::isalpha(static_cast<unsigned char>(text[start - 1]))) --start;
    const int n = number_word(text.substr(start, at - start));
    if (n >= 0) counts.push_back(n);
  }
  return counts;
}

bool path_character(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
         c == '/';
}

// The paths a page names: words of letters, digits, '_', '-', '.' and '/' with at least one '/'
// that end in a source or documentation extension. "runs/run_file.hpp/.cpp" names two files.
// Skipped: absolute paths and addresses (a leading '/'), what follows a placeholder
// ("<prefix>/share/..."), system headers (<catch2/catch.hpp>), installed files (share/...), and
// the user's own files in examples.
std::vector<std::string> named_paths(const std::string& text) {
  static const std::vector<std::string> extensions = {".hpp", ".cpp", ".md", ".py", ".sh", ".toml"};
  static const std::set<std::string> examples = {"runs/big.toml", "runs/x.toml", "./x.toml"};
  const auto has_extension = [&](const std::string& word) {
    for (const auto& e : extensions)
      if (word.size() > e.size() && word.ends_with(e)) return true;
    return false;
  };
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < text.size();) {
    if (!path_character(text[i])) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < text.size() && path_character(text[i])) ++i;
    std::string word = text.substr(start, i - start);
    while (word.ends_with(".")) word.pop_back();
    if (word.find('/') == std::string::npos || word.starts_with("/") ||
        word.starts_with("share/") ||
        (start > 0 &&
         (text[start - 1] == '>' || text[start - 1] == ':' || text[start - 1] == '<')) ||
        examples.contains(word))
      continue;
    std::string stem = word;
    std::vector<std::string> alternatives;
    for (auto slash_dot = stem.rfind("/."); slash_dot != std::string::npos;
         slash_dot = stem.rfind("/.")) {
      alternatives.push_back(stem.substr(slash_dot + 1));
      stem.erase(slash_dot);
    }
    if (!has_extension(stem) || stem.find('/') == std::string::npos) continue;
    paths.push_back(stem);
    const std::string base = stem.substr(0, stem.rfind('.'));
    for (const auto& extension : alternatives) paths.push_back(base + extension);
  }
  return paths;
}

// A bound as the docs write it: "10^6", "2^40", "2^31 - 1", "1.001", "10^-9".
double bound_value(std::string text) {
  while (!text.empty() && text.front() == ' ') text.erase(0, 1);
  while (!text.empty() && text.back() == ' ') text.pop_back();
  if (const auto minus = text.find(" - "); minus != std::string::npos)
    return bound_value(text.substr(0, minus)) - bound_value(text.substr(minus + 3));
  if (const auto power = text.find('^'); power != std::string::npos)
    return std::pow(std::stod(text.substr(0, power)), std::stod(text.substr(power + 1)));
  return text == "inf" ? HUGE_VAL : std::stod(text);
}

// Every interval "[a, b]", "(a, b]", ... of a cell.
std::vector<Bounds> intervals(const std::string& cell) {
  std::vector<Bounds> out;
  for (std::size_t at = cell.find_first_of("[("); at != std::string::npos;
       at = cell.find_first_of("[(", at + 1)) {
    const auto comma = cell.find(',', at);
    const auto end = cell.find_first_of("])", at);
    if (comma == std::string::npos || end == std::string::npos || comma > end) continue;
    try {
      out.push_back({bound_value(cell.substr(at + 1, comma - at - 1)),
                     bound_value(cell.substr(comma + 1, end - comma - 1)), cell[at] == '(',
                     cell[end] == ')'});
    } catch (const std::exception&) {  // not an interval ("(0: no noise)")
    }
  }
  return out;
}

bool same_interval(const Bounds& a, const Bounds& b) {
  const auto close = [](double x, double y) {
    return x == y || std::fabs(x - y) <= 1e-12 * std::max(std::fabs(x), std::fabs(y));
  };
  return close(a.lo, b.lo) && close(a.hi, b.hi) && a.lo_open == b.lo_open && a.hi_open == b.hi_open;
}

// Every key that declares a finite range, by its full name ("noise." before a law's keys).
std::map<std::string, std::vector<Bounds>> declared_ranges() {
  std::map<std::string, std::vector<Bounds>> out;
  const auto add = [&](const std::string& prefix, const KeySpec& key) {
    if (std::isfinite(key.bounds.lo) || std::isfinite(key.bounds.hi))
      out[prefix + key.name].push_back(key.bounds);
  };
  for (const auto& model : model_kinds()) {
    for (const auto& key : model.keys) add("", key);
    for (const auto& key : model.settings) add("", key);
  }
  for (const auto& key : run_setting_keys()) add("", key);
  add("noise.", overhead_fraction_key());
  for (const auto& law : law_kinds()) {
    for (const auto& key : law.shape_keys) add("noise.", key);
    for (const auto& key : law.scale_keys) add("noise.", key);
  }
  for (const auto& kind : time_noise_kinds())
    for (const auto& key : kind.keys) add("noise.", key);
  return out;
}

}  // namespace

TEST_CASE("the tables of docs/reference/ are those the registries give", "[reference]") {
  const std::string regenerate = std::string("regenerate them from the source directory with `") +
                                 kRegenerateReferenceCommand + "` and commit them";
  std::set<std::string> rendered;
  for (const ReferencePage& page : reference_pages()) {
    rendered.insert(page.file);
    const fs::path path = kSource / "docs" / "reference" / page.file;
    const std::string committed = read_text(path);
    INFO("docs/reference/" << page.file << " differs from the registries, at "
                           << first_difference(committed, page.text) << "\n"
                           << regenerate);
    const bool same = committed == page.text;  // not the texts: the message says where
    CHECK(same);
  }
  // A page the renderer no longer writes is stale.
  for (const auto& entry : fs::directory_iterator(kSource / "docs" / "reference")) {
    INFO("docs/reference/" << entry.path().filename().string()
                           << " is not generated any more: remove it");
    CHECK(rendered.contains(entry.path().filename().string()));
  }
}

TEST_CASE("the Python package's list of summary fields is the declarations'", "[reference]") {
  // python/collnoise/fields.py is generated from the same declarations as summary-fields.md.
  const std::string committed = read_text(kSource / kPythonFieldsModule);
  INFO(kPythonFieldsModule << " differs from the declarations: run "
                           << kRegenerateReferenceCommand);
  CHECK(committed == python_fields_module());
}

TEST_CASE("the reference renderer marks open and closed ends and every default", "[reference]") {
  const auto pages = reference_pages();
  REQUIRE(pages.size() == 6);
  const std::string& keys = pages[0].text;
  // network.rho: [0, 1); isoefficiency.efficiency: (0, 1); the default sampling path.
  CHECK(keys.find("| `network.rho` | number |") != std::string::npos);
  CHECK(keys.find("[0, 1)") != std::string::npos);
  CHECK(keys.find("(0, 1)") != std::string::npos);
  CHECK(keys.find("`\"per_rank\"`") != std::string::npos);
  const std::string& laws = pages[1].text;
  CHECK(laws.find("| `noise.beta` | number |  | required | [1.001, 1000] | yes |") !=
        std::string::npos);
  CHECK(laws.find("| `noise.f` | number |  | required | [0, 1) | yes |") != std::string::npos);
  for (const auto& name : names_of(law_kinds()))
    CHECK(laws.find("\n## `" + name + "`\n") != std::string::npos);
  for (const auto& name : names_of(time_noise_kinds()))
    CHECK(pages[2].text.find("\n## `" + name + "`\n") != std::string::npos);
  for (const auto& name : names_of(algorithm_kinds()))
    CHECK(pages[3].text.find("| `" + name + "` |") != std::string::npos);
}

TEST_CASE("the README and the docs count and list the laws and algorithms the registries hold",
          "[reference]") {
  const std::string readme = read_text(kSource / "README.md");
  const std::string run_files = read_text(kSource / "docs/run-files.md");
  const std::string time_noise = read_text(kSource / "docs/models/time-noise.md");
  const std::string schedules = read_text(kSource / "docs/models/schedules.md");
  const int laws = static_cast<int>(law_kinds().size());
  const int algorithms = static_cast<int>(algorithm_kinds().size());
  const int time_noises = static_cast<int>(time_noise_kinds().size());

  SECTION("counts in words") {
    // "twelve laws", "one of twelve algorithms".
    const auto law_counts = counts_before(readme, "laws");
    const auto algorithm_counts = counts_before(readme, "algorithms");
    CHECK(law_counts.size() == 1);
    CHECK(algorithm_counts.size() == 1);
    for (const int n : law_counts) CHECK(n == laws);
    for (const int n : algorithm_counts) CHECK(n == algorithms);
    for (const int n : counts_before(run_files, "laws")) CHECK(n == laws);
    for (const int n : counts_before(run_files, "algorithms")) CHECK(n == algorithms);
    // "Three kinds are available: `periodic`, `poisson` and `trace`."
    const auto kinds = counts_before(time_noise, "kinds are available");
    REQUIRE(kinds.size() == 1);
    CHECK(kinds[0] == time_noises);
    const auto at = time_noise.find("kinds are available:");
    const std::string sentence = time_noise.substr(at, time_noise.find('.', at) - at);
    for (const auto& name : names_of(time_noise_kinds()))
      CHECK(sentence.find("`" + name + "`") != std::string::npos);
  }
  SECTION("tables of names") {
    const std::string header = "| `noise.law` | keys | notes |";
    CHECK(first_column(run_files, header, 0) == names_of(law_kinds()));
    CHECK(first_column(run_files, header, 1) == names_of(time_noise_kinds()));
    CHECK(first_column(schedules, "| name | what | used by |", 0) == names_of(algorithm_kinds()));
  }
  SECTION("pointers to the generated tables") {
    for (const std::string page : {"keys.md", "laws.md", "time-noise.md", "algorithms.md"}) {
      INFO(page);
      CHECK(run_files.find("(reference/" + page + ")") != std::string::npos);
      CHECK(read_text(kSource / "docs/extending.md").find("(reference/" + page + ")") !=
            std::string::npos);
    }
  }
}

TEST_CASE("every path the docs name exists", "[reference]") {
  std::vector<fs::path> pages = {kSource / "README.md"};
  for (const char* folder : {"docs", "docs/models"})
    for (const auto& entry : fs::directory_iterator(kSource / folder))
      if (entry.path().extension() == ".md") pages.push_back(entry.path());
  std::size_t checked = 0;
  for (const fs::path& page : pages) {
    const std::string text = read_text(page);
    // The files the extending guide's walk-through writes ("<!-- walkthrough: write PATH -->").
    std::set<std::string> written;
    const std::string marker = "<!-- walkthrough: write ";
    for (auto at = text.find(marker); at != std::string::npos; at = text.find(marker, at + 1)) {
      const auto start = at + marker.size();
      written.insert(text.substr(start, text.find(' ', start) - start));
    }
    for (const std::string& path : named_paths(text)) {
      // Relative to the page (Markdown links) or to the source directory.
      const bool exists = fs::exists(page.parent_path() / path) || fs::exists(kSource / path) ||
                          written.contains(path);
      INFO(fs::relative(page, kSource).string() << " names " << path << ", which does not exist");
      CHECK(exists);
      ++checked;
    }
  }
  CHECK(checked > 100);
}

TEST_CASE("the docs' path finder: placeholders, alternatives, addresses", "[reference]") {
  const auto paths = named_paths(
      "see `runs/run_file.hpp/.cpp`, distributions/<law>.hpp, <prefix>/share/x/y.py, "
      "#include <catch2/catch.hpp>, "
      "https://example.org/a/b.md and [link](models/streams.md).");
  CHECK(paths ==
        std::vector<std::string>{"runs/run_file.hpp", "runs/run_file.cpp", "models/streams.md"});
}

TEST_CASE("the \"Valid ranges\" of docs/run-files.md hold every range the keys declare",
          "[reference]") {
  const std::string run_files = read_text(kSource / "docs/run-files.md");
  const auto section = run_files.find("## Valid ranges");
  REQUIRE(section != std::string::npos);
  const auto declared = declared_ranges();
  std::size_t checked = 0;
  for (const std::string& line : lines_of(run_files.substr(section))) {
    if (!line.starts_with("| `")) continue;
    const auto first_end = line.find(" | ");
    const std::string keys = line.substr(0, first_end);
    const std::string ranges =
        line.substr(first_end + 3, line.find(" | ", first_end + 3) - first_end - 3);
    const auto written = intervals(ranges);
    for (std::size_t at = keys.find('`'); at != std::string::npos;) {
      const auto end = keys.find('`', at + 1);
      const std::string key = keys.substr(at + 1, end - at - 1);
      at = keys.find('`', end + 1);
      const auto it = declared.find(key);
      if (it == declared.end()) continue;
      for (const Bounds& range : it->second) {
        INFO(key << " declares " << range.describe() << "; docs/run-files.md writes " << ranges);
        CHECK(std::any_of(written.begin(), written.end(),
                          [&](const Bounds& w) { return same_interval(w, range); }));
        ++checked;
      }
    }
  }
  CHECK(checked > 40);
}
