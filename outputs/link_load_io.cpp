#include "outputs/link_load_io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <span>

#include "core/errors.hpp"
#include "outputs/hdf5.hpp"
#include "outputs/replay_file.hpp"

namespace collnoise {
namespace {

using nlohmann::json;

// The table's columns in both formats, with what each means (HDF5's `meaning`).
constexpr const char* kTableName = "link_table";

// The writer's one division, so that a reader can check the stored value bit for bit.
double utilisation_of(std::uint64_t bytes, double bandwidth, double completion_ns) {
  return completion_ns > 0.0 ? static_cast<double>(bytes) / (bandwidth * completion_ns) : 0.0;
}

std::string table_problem(const LinkLoadFile& f) {
  const LinkLoadTable& t = f.table;
  const std::size_t n = t.rows();
  for (const std::size_t size :
       {t.link_name.size(), t.bytes_carried.size(), t.busy_ns.size(), t.mean_messages.size(),
        t.max_messages.size(), t.mean_rate.size(), t.max_rate.size(), t.bandwidth.size(),
        t.utilisation.size(), t.background_messages.size()})
    if (size != n) return fmt::format("its columns have {} and {} rows", n, size);
  if (!(f.completion_ns >= 0.0) || !std::isfinite(f.completion_ns))
    return fmt::format("completion_ns {} is not a time", f.completion_ns);
  for (std::size_t r = 0; r < n; ++r) {
    if (r > 0 && (t.bytes_carried[r] > t.bytes_carried[r - 1] ||
                  (t.bytes_carried[r] == t.bytes_carried[r - 1] && t.link[r] <= t.link[r - 1])))
      return fmt::format("row {} (link {}) is out of the ranking's order", r, t.link[r]);
    if (!(t.busy_ns[r] >= 0.0) || t.busy_ns[r] > f.completion_ns)
      return fmt::format("link {} is busy {} ns of a {} ns run", t.link[r], t.busy_ns[r],
                         f.completion_ns);
    if (!(t.bandwidth[r] > 0.0) ||
        t.utilisation[r] != utilisation_of(t.bytes_carried[r], t.bandwidth[r], f.completion_ns))
      return fmt::format("link {}'s utilisation {} is not its bytes over bandwidth x completion",
                         t.link[r], t.utilisation[r]);
    if (t.max_messages[r] < t.background_messages[r] || !(t.mean_messages[r] >= 0.0))
      return fmt::format("link {}'s loads (mean {}, largest {}) are below its background {}",
                         t.link[r], t.mean_messages[r], t.max_messages[r],
                         t.background_messages[r]);
  }
  return "";
}

std::string trace_problem(const LinkLoadFile& f, std::size_t i) {
  const LinkLoadSteps& s = f.steps;
  if (s.offsets[i + 1] < s.offsets[i] || s.offsets[i + 1] > s.times_ns.size())
    return fmt::format("traced link {}'s step offsets {} to {} do not index its {} steps", i,
                       s.offsets[i], s.offsets[i + 1], s.times_ns.size());
  std::uint64_t most = 0;
  for (std::uint64_t k = s.offsets[i]; k < s.offsets[i + 1]; ++k) {
    const bool first = k == s.offsets[i];
    if ((first && s.times_ns[k] != 0.0) || (!first && !(s.times_ns[k] > s.times_ns[k - 1])) ||
        !(s.times_ns[k] < s.end_ns[i]))
      return fmt::format("link {}'s steps are not increasing from 0 to {} ns", f.table.link[i],
                         s.end_ns[i]);
    most = std::max(most, s.messages[k]);
  }
  if (s.truncated[i] > 1 || (s.truncated[i] == 0 && s.end_ns[i] != f.completion_ns))
    return fmt::format("link {}'s steps end at {} ns, not at the completion, and are not cut",
                       f.table.link[i], s.end_ns[i]);
  if (s.truncated[i] == 0 && most != f.table.max_messages[i] && f.completion_ns > 0.0)
    return fmt::format("link {}'s steps reach {} messages, its largest load says {}",
                       f.table.link[i], most, f.table.max_messages[i]);
  return "";
}

std::string steps_problem(const LinkLoadFile& f) {
  const LinkLoadSteps& s = f.steps;
  const std::size_t traced = s.traced();
  if (traced > f.table.rows())
    return fmt::format("{} traced links of {} rows", traced, f.table.rows());
  if (s.truncated.size() != traced || s.offsets.size() != traced + 1)
    return fmt::format("{} step ends, {} truncation flags and {} offsets (traced + 1)", traced,
                       s.truncated.size(), s.offsets.size());
  if (s.messages.size() != s.times_ns.size() || s.rates.size() != s.times_ns.size())
    return fmt::format("{} step times, {} step loads and {} step rates", s.times_ns.size(),
                       s.messages.size(), s.rates.size());
  if (s.offsets.front() != 0 || s.offsets.back() != s.times_ns.size())
    return fmt::format("step offsets from {} to {} for {} steps", s.offsets.front(),
                       s.offsets.back(), s.times_ns.size());
  for (std::size_t i = 0; i < traced; ++i)
    if (std::string p = trace_problem(f, i); !p.empty()) return p;
  return "";
}

template <class T>
json lists_of(const LinkLoadSteps& s, const std::vector<T>& values) {
  json lists = json::array();
  for (std::size_t i = 0; i < s.traced(); ++i)
    lists.push_back(
        std::span<const T>(values).subspan(s.offsets[i], s.offsets[i + 1] - s.offsets[i]));
  return lists;
}

std::string json_text(const LinkLoadFile& f) {
  const LinkLoadTable& t = f.table;
  json j = {{"format", kLinkLoadType},
            {"format_version", kLinkLoadVersion},
            {"title", f.title},
            {"model", f.model},
            {"rule", f.rule},
            {"ranking", f.ranking},
            {"completion_ns", f.completion_ns},
            {"link", t.link},
            {"link_name", t.link_name},
            {"bytes_carried", t.bytes_carried},
            {"busy_ns", t.busy_ns},
            {"mean_messages", t.mean_messages},
            {"max_messages", t.max_messages},
            {"mean_rate", t.mean_rate},
            {"max_rate", t.max_rate},
            {"bandwidth", t.bandwidth},
            {"utilisation", t.utilisation},
            {"background_messages", t.background_messages},
            {"step_times_ns", lists_of(f.steps, f.steps.times_ns)},
            {"step_messages", lists_of(f.steps, f.steps.messages)},
            {"step_rates", lists_of(f.steps, f.steps.rates)},
            {"step_end_ns", f.steps.end_ns},
            {"steps_truncated", f.steps.truncated}};
  return j.dump() + "\n";
}

std::vector<std::int64_t> signed_of(const std::vector<std::uint64_t>& v) {
  return {v.begin(), v.end()};
}

void write_h5(const LinkLoadFile& f, const std::string& path) {
  const LinkLoadTable& t = f.table;
  h5::File file = h5::File::create();
  {
    const h5::Group root = file.root();
    root.set_attribute("filetype", Field(std::string(kLinkLoadType)));
    root.set_attribute("format_version", Field(kLinkLoadVersion));
    root.set_attribute("title", Field(f.title));
    root.set_attribute("model", Field(f.model));
    root.set_attribute("rule", Field(f.rule));
    root.set_attribute("ranking", Field(f.ranking));
    root.set_attribute("completion_ns", Field(f.completion_ns));
    const std::vector<h5::Column> columns = {
        {"link", signed_of(t.link)},
        {"link_name", t.link_name},
        {"bytes_carried", signed_of(t.bytes_carried)},
        {"busy_ns", t.busy_ns},
        {"mean_messages", t.mean_messages},
        {"max_messages", signed_of(t.max_messages)},
        {"mean_rate", t.mean_rate},
        {"max_rate", t.max_rate},
        {"bandwidth", t.bandwidth},
        {"utilisation", t.utilisation},
        {"background_messages", signed_of(t.background_messages)},
    };
    root.write_table(kTableName, columns)
        .set_attribute("meaning",
                       Field(std::string("per link one of our messages crossed, busiest first "
                                         "(docs/timelines.md, \"Link load\"): times ns, bytes, "
                                         "rates and bandwidth bytes per ns")));
    const auto meaning = [](const h5::Dataset& d, const char* text) {
      d.set_attribute("meaning", Field(std::string(text)));
    };
    meaning(root.write_counts("step_offsets", f.steps.offsets),
            "traced links + 1: traced link i's change points are step_*[offsets[i] .. "
            "offsets[i + 1]), the table's first rows in its order");
    meaning(root.write_doubles("step_times_ns", f.steps.times_ns),
            "per change point: from when the load holds, ns");
    meaning(root.write_counts("step_messages", f.steps.messages),
            "per change point: the messages on the link, background included");
    meaning(root.write_doubles("step_rates", f.steps.rates),
            "per change point: our flows' rates summed, bytes per ns (0 under the simple model)");
    meaning(root.write_doubles("step_end_ns", f.steps.end_ns),
            "per traced link: the steps hold until then, ns (the completion unless cut)");
    meaning(root.write_counts("steps_truncated", f.steps.truncated),
            "per traced link: 1 when it had more change points than were kept");
  }
  file.commit(path);
}

LinkLoadFile read_json(const std::string& path) {
  const json j = replay_file::read_json(path, "link load", kLinkLoadType, kLinkLoadVersion);
  LinkLoadFile f{j.value("title", ""),
                 j.value("model", ""),
                 j.value("rule", ""),
                 j.value("ranking", ""),
                 j.value("completion_ns", -1.0),
                 {},
                 {}};
  LinkLoadTable& t = f.table;
  t.link = replay_file::json_list<std::uint64_t>(j, "link");
  t.link_name = replay_file::json_list<std::string>(j, "link_name");
  t.bytes_carried = replay_file::json_list<std::uint64_t>(j, "bytes_carried");
  t.busy_ns = replay_file::json_list<double>(j, "busy_ns");
  t.mean_messages = replay_file::json_list<double>(j, "mean_messages");
  t.max_messages = replay_file::json_list<std::uint64_t>(j, "max_messages");
  t.mean_rate = replay_file::json_list<double>(j, "mean_rate");
  t.max_rate = replay_file::json_list<double>(j, "max_rate");
  t.bandwidth = replay_file::json_list<double>(j, "bandwidth");
  t.utilisation = replay_file::json_list<double>(j, "utilisation");
  t.background_messages = replay_file::json_list<std::uint64_t>(j, "background_messages");
  const auto times = replay_file::json_list<std::vector<double>>(j, "step_times_ns");
  const auto messages = replay_file::json_list<std::vector<std::uint64_t>>(j, "step_messages");
  const auto rates = replay_file::json_list<std::vector<double>>(j, "step_rates");
  if (messages.size() != times.size() || rates.size() != times.size())
    throw InputError(fmt::format("{} lists of step times, {} of loads, {} of rates", times.size(),
                                 messages.size(), rates.size()));
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (messages[i].size() != times[i].size() || rates[i].size() != times[i].size())
      throw InputError(fmt::format("traced link {} has {} step times, {} loads, {} rates", i,
                                   times[i].size(), messages[i].size(), rates[i].size()));
    f.steps.times_ns.insert(f.steps.times_ns.end(), times[i].begin(), times[i].end());
    f.steps.messages.insert(f.steps.messages.end(), messages[i].begin(), messages[i].end());
    f.steps.rates.insert(f.steps.rates.end(), rates[i].begin(), rates[i].end());
    f.steps.offsets.push_back(f.steps.times_ns.size());
  }
  f.steps.end_ns = replay_file::json_list<double>(j, "step_end_ns");
  f.steps.truncated = replay_file::json_list<std::uint64_t>(j, "steps_truncated");
  return f;
}

template <class T>
const std::vector<T>& column(const std::vector<h5::Column>& columns, const char* name) {
  for (const h5::Column& c : columns)
    if (c.name == name && std::holds_alternative<std::vector<T>>(c.values))
      return std::get<std::vector<T>>(c.values);
  throw InputError(fmt::format("its {} lacks the column '{}' of its type", kTableName, name));
}

std::vector<std::uint64_t> counts_of(const std::vector<h5::Column>& columns, const char* name) {
  const std::vector<std::int64_t>& v = column<std::int64_t>(columns, name);
  std::vector<std::uint64_t> out;
  for (const std::int64_t x : v) {
    if (x < 0) throw InputError(fmt::format("its column '{}' holds {}", name, x));
    out.push_back(static_cast<std::uint64_t>(x));
  }
  return out;
}

LinkLoadFile read_h5(const std::string& path) {
  const h5::File file = h5::File::open(path);  // its seal checked first
  const h5::Group root = file.root();
  replay_file::check_h5_type(root, kLinkLoadType, kLinkLoadVersion);
  const auto completion = root.attribute("completion_ns");
  LinkLoadFile f{replay_file::text_attribute(root, "title"),
                 replay_file::text_attribute(root, "model"),
                 replay_file::text_attribute(root, "rule"),
                 replay_file::text_attribute(root, "ranking"),
                 completion && std::holds_alternative<double>(*completion)
                     ? std::get<double>(*completion)
                     : -1.0,
                 {},
                 {}};
  const std::vector<h5::Column> columns = root.read_table(kTableName);
  LinkLoadTable& t = f.table;
  t.link = counts_of(columns, "link");
  t.link_name = column<std::string>(columns, "link_name");
  t.bytes_carried = counts_of(columns, "bytes_carried");
  t.busy_ns = column<double>(columns, "busy_ns");
  t.mean_messages = column<double>(columns, "mean_messages");
  t.max_messages = counts_of(columns, "max_messages");
  t.mean_rate = column<double>(columns, "mean_rate");
  t.max_rate = column<double>(columns, "max_rate");
  t.bandwidth = column<double>(columns, "bandwidth");
  t.utilisation = column<double>(columns, "utilisation");
  t.background_messages = counts_of(columns, "background_messages");
  f.steps.offsets = root.read_counts("step_offsets");
  f.steps.times_ns = root.read_doubles("step_times_ns");
  f.steps.messages = root.read_counts("step_messages");
  f.steps.rates = root.read_doubles("step_rates");
  f.steps.end_ns = root.read_doubles("step_end_ns");
  f.steps.truncated = root.read_counts("steps_truncated");
  return f;
}

}  // namespace

std::string link_load_problem(const LinkLoadFile& file) {
  if (std::string p = table_problem(file); !p.empty()) return p;
  return steps_problem(file);
}

void check_link_load_path(const std::string& path, const std::string& option) {
  replay_file::check_path(path, option);
}

void write_link_load(const LinkLoadFile& file, const std::string& path, bool force) {
  replay_file::check_path(path, "link load");
  if (const std::string p = link_load_problem(file); !p.empty())
    throw RuntimeFailure(fmt::format("link load: {}", p));
  replay_file::write(
      path, force, "link load", [&] { write_h5(file, path); }, [&] { return json_text(file); });
}

LinkLoadFile read_link_load(const std::string& path) {
  return replay_file::read<LinkLoadFile>(path, "link load", [&] {
    LinkLoadFile f = replay_file::has_suffix(path, ".h5") ? read_h5(path) : read_json(path);
    if (const std::string p = link_load_problem(f); !p.empty())
      throw InputError(fmt::format("its tables disagree: {}", p));
    return f;
  });
}

}  // namespace collnoise
