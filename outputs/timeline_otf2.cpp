#include "outputs/timeline_otf2.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/stop_poll.hpp"
#include "outputs/atomic_file.hpp"

namespace fs = std::filesystem;

namespace collnoise {
namespace {

constexpr const char* kArchiveFiles = "traces/, traces.def, traces.otf2";

// "<digits>.evt" or "<digits>.def": a location's event or local definition file.
bool is_location_file(const fs::directory_entry& entry) {
  const std::string name = entry.path().filename().string();
  const std::string stem = entry.path().stem().string();
  const std::string ext = entry.path().extension().string();
  std::error_code error;
  return entry.is_regular_file(error) && !entry.is_symlink(error) && !stem.empty() &&
         stem.find_first_not_of("0123456789") == std::string::npos &&
         (ext == ".evt" || ext == ".def") && name == stem + ext;
}

// What shows `directory` is not an archive written by write_otf2, in words: the first entry such
// an archive does not hold ("holding 'notes.txt'") or a file it needs that is missing ("without
// traces.otf2"); empty when it is one.
std::string foreign_entry(const fs::path& directory) {
  std::error_code error;
  bool anchor = false, definitions = false, traces = false;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    const std::string name = entry.path().filename().string();
    const bool regular = entry.is_regular_file(error) && !entry.is_symlink(error);
    if (name == "traces.otf2" && regular) {
      anchor = true;
    } else if (name == "traces.def" && regular) {
      definitions = true;
    } else if (name == "traces" && entry.is_directory(error) && !entry.is_symlink(error)) {
      for (const auto& inner : fs::directory_iterator(entry.path(), error))
        if (!is_location_file(inner))
          return "holding 'traces/" + inner.path().filename().string() + "'";
      if (error)
        return fmt::format("holding 'traces/', which cannot be read ({})", error.message());
      traces = true;
    } else {
      return "holding '" + name + "'";
    }
  }
  if (error) return fmt::format("that cannot be read ({})", error.message());
  if (!anchor) return "without traces.otf2";
  if (!definitions) return "without traces.def";
  if (!traces) return "without traces/";
  return {};
}

}  // namespace

bool is_collnoise_otf2_archive(const fs::path& directory) {
  std::error_code error;
  const auto status = fs::symlink_status(directory, error);
  return !error && fs::is_directory(status) && foreign_entry(directory).empty();
}

void check_otf2_target(const fs::path& archive, bool force, const std::string& role) {
  const fs::path target = archive.has_filename() ? archive : archive.parent_path();
  std::error_code error;
  const auto status = fs::symlink_status(target, error);
  if (status.type() == fs::file_type::not_found) return;
  const std::string refused = fmt::format(
      "collnoise replaces only an OTF2 archive it wrote ({}), --force or not: name a new "
      "folder",
      kArchiveFiles);
  if (error)
    throw InputError(fmt::format("{} '{}' cannot be examined ({}): {}", role, target.string(),
                                 error.message(), refused));
  if (fs::is_symlink(status))
    throw InputError(fmt::format("{} '{}' is a symbolic link, not an OTF2 archive: {}", role,
                                 target.string(), refused));
  if (!fs::is_directory(status))
    throw InputError(fmt::format("{} '{}' is {}, not an OTF2 archive: {}", role, target.string(),
                                 fs::is_regular_file(status) ? "a file" : "a special file",
                                 refused));
  if (const std::string foreign = foreign_entry(target); !foreign.empty())
    throw InputError(fmt::format("{} '{}' is a folder {}, not an OTF2 archive: {}", role,
                                 target.string(), foreign, refused));
  if (!force)
    throw InputError(fmt::format(
        "{} '{}' exists and holds an OTF2 archive: --force replaces it (and only an OTF2 "
        "archive collnoise wrote, {})",
        role, target.string(), kArchiveFiles));
}

}  // namespace collnoise

#ifndef COLLNOISE_WITH_OTF2

namespace collnoise {

bool otf2_supported() {
  return false;
}

void write_otf2(const Timeline&, const fs::path& archive, bool) {
  throw RuntimeFailure(
      fmt::format("cannot write the OTF2 archive '{}': this collnoise was built "
                  "without OTF2 (COLLNOISE_OTF2=OFF)",
                  archive.string()));
}

}  // namespace collnoise

#else

#include <otf2/otf2.h>

namespace collnoise {
namespace {

constexpr const char* kArchiveName = "traces";  // traces.otf2, traces.def, traces/
constexpr const char* kNotShownNote = "the critical path passes through ranks not shown";

// Identifiers of the global definitions that are not per rank or lane.
constexpr OTF2_AttributeRef kCriticalAttribute = 0;
constexpr OTF2_AttributeRef kOperationAttribute = 1;
constexpr OTF2_ParameterRef kToHiddenParameter = 0;
constexpr OTF2_ParameterRef kFromHiddenParameter = 1;
constexpr OTF2_GroupRef kLocationsGroup = 0;
constexpr OTF2_GroupRef kRanksGroup = 1;
constexpr OTF2_CommRef kChosenRanksComm = 0;
constexpr OTF2_SystemTreeNodeRef kMachineNode = 0;
constexpr std::uint32_t kSpanKinds = static_cast<std::uint32_t>(SpanKind::kRendezvousWait) + 1;

OTF2_TimeStamp ticks(double ns) {
  return ns <= 0 ? 0 : static_cast<OTF2_TimeStamp>(std::llround(ns));
}

// A lane's thread number, as in the Chrome trace: index, 256 + index, 512 + index.
int lane_number(TimelineLane lane, std::uint8_t index) {
  return static_cast<int>(lane) * 256 + index;
}

OTF2_LocationRef location_id(std::uint32_t rank, int lane) {
  return (static_cast<OTF2_LocationRef>(rank) << 16) | static_cast<OTF2_LocationRef>(lane);
}

struct Event {
  enum class Type { kEnter, kLeave, kSend, kReceive, kToHidden, kFromHidden };
  OTF2_TimeStamp time = 0;
  Type type = Type::kEnter;
  const TimelineSpan* span = nullptr;
  const TimelineMessage* message = nullptr;
};

struct Location {
  std::uint32_t rank = 0;
  int lane = 0;
  std::vector<Event> events;
};

using Locations = std::map<std::pair<std::uint32_t, int>, Location>;

// A lane's Enter and Leave events, nested: a span is left once a later one starts at or after
// its end (timeline_problem has ruled out partial overlaps).
void add_span_events(const std::vector<TimelineSpan>& spans, Location& location) {
  std::vector<const TimelineSpan*> open;
  for (const TimelineSpan& s : spans) {
    while (!open.empty() && open.back()->end_ns <= s.start_ns) {
      location.events.push_back({ticks(open.back()->end_ns), Event::Type::kLeave, open.back()});
      open.pop_back();
    }
    location.events.push_back({ticks(s.start_ns), Event::Type::kEnter, &s});
    open.push_back(&s);
  }
  for (; !open.empty(); open.pop_back())
    location.events.push_back({ticks(open.back()->end_ns), Event::Type::kLeave, open.back()});
}

// The events of every location. `ordered` keeps each lane's spans (in Enter order) alive for
// the events pointing at them.
Locations collect_events(
    const Timeline& timeline,
    std::map<std::pair<std::uint32_t, int>, std::vector<TimelineSpan> >& ordered, StopPoll& poll) {
  Locations locations;
  for (const std::uint32_t rank : timeline.ranks) locations[{rank, 0}] = {rank, 0, {}};
  for (const TimelineSpan& s : timeline.spans) {
    poll.tick();
    ordered[{s.rank, lane_number(s.lane, s.index)}].push_back(s);
  }
  for (auto& [key, spans] : ordered) {
    poll.tick(spans.size());
    spans = spans_in_order(std::move(spans));
    Location& location = locations[key];
    location.rank = key.first;
    location.lane = key.second;
    add_span_events(spans, location);
  }
  for (const TimelineMessage& m : timeline.messages) {
    poll.tick();
    const bool from_shown = is_chosen(timeline, m.from);
    const bool to_shown = is_chosen(timeline, m.to);
    if (from_shown)
      locations[{m.from, 0}].events.push_back(
          {ticks(m.sent_ns), to_shown ? Event::Type::kSend : Event::Type::kToHidden, nullptr, &m});
    if (to_shown)
      locations[{m.to, 0}].events.push_back(
          {ticks(m.arrived_ns), from_shown ? Event::Type::kReceive : Event::Type::kFromHidden,
           nullptr, &m});
  }
  // Spans first, in nesting order, then messages: a stable sort by time keeps both orders.
  for (auto& [key, location] : locations) {
    poll.tick(location.events.size());
    std::stable_sort(location.events.begin(), location.events.end(),
                     [](const Event& a, const Event& b) { return a.time < b.time; });
  }
  return locations;
}

// --- writing ------------------------------------------------------------------------------------

class Otf2Writer {
 public:
  Otf2Writer(const Timeline& timeline, const fs::path& directory)
      : timeline_(timeline), directory_(directory) {}

  void write() {
    std::map<std::pair<std::uint32_t, int>, std::vector<TimelineSpan> > ordered;
    const Locations locations = collect_events(timeline_, ordered, poll_);
    open_archive();
    check(OTF2_Archive_OpenEvtFiles(archive_.get()), "opening the event files");
    for (const auto& [key, location] : locations) write_events(location);
    check(OTF2_Archive_CloseEvtFiles(archive_.get()), "closing the event files");
    // Every location has its (empty) local definitions, as readers expect.
    check(OTF2_Archive_OpenDefFiles(archive_.get()), "opening the definition files");
    for (const auto& [key, location] : locations) {
      OTF2_DefWriter* writer =
          OTF2_Archive_GetDefWriter(archive_.get(), location_id(location.rank, location.lane));
      if (writer == nullptr) fail("a local definition writer");
      check(OTF2_Archive_CloseDefWriter(archive_.get(), writer), "a local definition file");
    }
    check(OTF2_Archive_CloseDefFiles(archive_.get()), "closing the definition files");
    write_definitions(locations);
    check(OTF2_Archive_Close(archive_.release()), "closing the archive");
  }

 private:
  struct ArchiveClose {
    void operator()(OTF2_Archive* archive) const { OTF2_Archive_Close(archive); }
  };
  struct AttributeListDelete {
    void operator()(OTF2_AttributeList* list) const { OTF2_AttributeList_Delete(list); }
  };

  [[noreturn]] void fail(const std::string& what) const {
    throw RuntimeFailure(
        fmt::format("cannot write the OTF2 archive in '{}': {}", directory_.string(), what));
  }

  void check(OTF2_ErrorCode code, const char* what) const {
    if (code != OTF2_SUCCESS) fail(fmt::format("{}: {}", what, OTF2_Error_GetDescription(code)));
  }

  void open_archive() {
    archive_.reset(OTF2_Archive_Open(directory_.c_str(), kArchiveName, OTF2_FILEMODE_WRITE,
                                     1024 * 1024, 4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX,
                                     OTF2_COMPRESSION_NONE));
    if (!archive_) fail("OTF2_Archive_Open failed");
    // No flush record: the timestamps are simulated times, not when the buffers were written.
    static OTF2_FlushCallbacks flush = {
        .otf2_pre_flush = [](void*, OTF2_FileType, OTF2_LocationRef, void*,
                             bool) -> OTF2_FlushType { return OTF2_FLUSH; },
        .otf2_post_flush = nullptr};
    check(OTF2_Archive_SetFlushCallbacks(archive_.get(), &flush, nullptr), "flush callbacks");
    check(OTF2_Archive_SetSerialCollectiveCallbacks(archive_.get()), "collective callbacks");
    check(OTF2_Archive_SetCreator(archive_.get(), "collnoise"), "the creator");
    check(OTF2_Archive_SetMachineName(archive_.get(), "collnoise simulation"), "the machine");
    check(OTF2_Archive_SetDescription(archive_.get(), description().c_str()), "the description");
    set_property("COLLNOISE::TITLE", timeline_.title);
    set_property("COLLNOISE::COMPLETION_NS", fmt::format("{}", timeline_.completion_ns));
    set_property("COLLNOISE::LAST_RANK", fmt::format("{}", timeline_.last_rank));
    set_property("COLLNOISE::RANKS_TOTAL", fmt::format("{}", timeline_.ranks_total));
    check(OTF2_Archive_SetBoolProperty(archive_.get(), "COLLNOISE::PATH_LEAVES_CHOSEN",
                                       timeline_.path_leaves_chosen, false),
          "a property");
  }

  std::string description() const {
    std::string text = fmt::format("{}; completed at {} ns by rank {}", timeline_.title,
                                   timeline_.completion_ns, timeline_.last_rank);
    if (timeline_.path_leaves_chosen) text += fmt::format("; {}", kNotShownNote);
    return text;
  }

  void set_property(const char* name, const std::string& value) {
    check(OTF2_Archive_SetProperty(archive_.get(), name, value.c_str(), false), "a property");
  }

  void write_events(const Location& location) {
    OTF2_EvtWriter* writer =
        OTF2_Archive_GetEvtWriter(archive_.get(), location_id(location.rank, location.lane));
    if (writer == nullptr) fail("an event writer");
    for (const Event& e : location.events) {
      poll_.tick();
      write_event(writer, e);
    }
    check(OTF2_Archive_CloseEvtWriter(archive_.get(), writer), "an event file");
  }

  OTF2_AttributeList* attributes(bool critical, std::uint64_t op) {
    OTF2_AttributeList_RemoveAllAttributes(attributes_.get());
    OTF2_AttributeList_AddUint8(attributes_.get(), kCriticalAttribute, critical ? 1 : 0);
    OTF2_AttributeList_AddUint64(attributes_.get(), kOperationAttribute, op);
    return attributes_.get();
  }

  std::uint32_t comm_rank(std::uint32_t rank) const {
    const auto at = std::lower_bound(timeline_.ranks.begin(), timeline_.ranks.end(), rank);
    return static_cast<std::uint32_t>(at - timeline_.ranks.begin());
  }

  void write_event(OTF2_EvtWriter* writer, const Event& e) {
    const auto region = [](const TimelineSpan* s) { return static_cast<OTF2_RegionRef>(s->kind); };
    const TimelineMessage* m = e.message;
    switch (e.type) {
      case Event::Type::kEnter:
        return check(OTF2_EvtWriter_Enter(writer, attributes(e.span->critical, e.span->op), e.time,
                                          region(e.span)),
                     "an Enter event");
      case Event::Type::kLeave:
        return check(OTF2_EvtWriter_Leave(writer, nullptr, e.time, region(e.span)),
                     "a Leave event");
      case Event::Type::kSend:
        return check(OTF2_EvtWriter_MpiSend(writer, attributes(m->critical, m->send_op), e.time,
                                            comm_rank(m->to), kChosenRanksComm, m->tag, m->bytes),
                     "an MpiSend event");
      case Event::Type::kReceive:
        return check(OTF2_EvtWriter_MpiRecv(writer, attributes(m->critical, m->send_op), e.time,
                                            comm_rank(m->from), kChosenRanksComm, m->tag, m->bytes),
                     "an MpiRecv event");
      case Event::Type::kToHidden:
        return check(
            OTF2_EvtWriter_ParameterUnsignedInt(writer, attributes(m->critical, m->send_op), e.time,
                                                kToHiddenParameter, m->to),
            "a parameter event");
      case Event::Type::kFromHidden:
        return check(
            OTF2_EvtWriter_ParameterUnsignedInt(writer, attributes(m->critical, m->send_op), e.time,
                                                kFromHiddenParameter, m->from),
            "a parameter event");
    }
  }

  OTF2_StringRef string(const std::string& text) {
    const auto [at, added] =
        strings_.try_emplace(text, static_cast<OTF2_StringRef>(strings_.size()));
    return at->second;
  }

  void write_definitions(const Locations& locations);

  const Timeline& timeline_;
  fs::path directory_;
  std::unique_ptr<OTF2_Archive, ArchiveClose> archive_;
  std::unique_ptr<OTF2_AttributeList, AttributeListDelete> attributes_{OTF2_AttributeList_New()};
  std::map<std::string, OTF2_StringRef> strings_;
  StopPoll poll_;  // a stop request ends the writing (the temporary directory is removed)
};

// Messages: MpiSend and MpiRecv, not RMA or attributes, because Vampir and the other OTF2
// readers draw a message line only from that matched pair (sender, receiver, communicator,
// tag). Their communicator needs the MPI group pair below: the locations standing for the ranks
// (each rank's CPU 0) and the ranks of the communicator in it. It spans the chosen ranks only:
// a rank not shown has no location to name.
void Otf2Writer::write_definitions(const Locations& locations) {
  OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive_.get());
  if (defs == nullptr) fail("the global definition writer");
  OTF2_TimeStamp last = ticks(timeline_.completion_ns);
  for (const auto& [key, location] : locations)
    if (!location.events.empty()) last = std::max(last, location.events.back().time);
  check(OTF2_GlobalDefWriter_WriteClockProperties(defs, 1'000'000'000, 0, last + 1,
                                                  OTF2_UNDEFINED_TIMESTAMP),
        "the clock properties");
  // Strings are collected while the definitions are built, and written before them.
  std::vector<std::function<OTF2_ErrorCode()> > later;
  const auto empty = string("");
  for (std::uint32_t k = 0; k < kSpanKinds; ++k) {
    const auto kind = static_cast<SpanKind>(k);
    const bool communication = kind != SpanKind::kCalc && kind != SpanKind::kNoise;
    const auto name = string(std::string(span_kind_name(kind)));
    later.push_back([=] {
      return OTF2_GlobalDefWriter_WriteRegion(
          defs, k, name, name, empty,
          communication ? OTF2_REGION_ROLE_POINT2POINT : OTF2_REGION_ROLE_FUNCTION,
          communication ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, empty, 0,
          0);
    });
  }
  const auto attribute = [&](OTF2_AttributeRef id, const char* name, const char* what,
                             OTF2_Type type) {
    const auto n = string(name), d = string(what);
    later.push_back([=] { return OTF2_GlobalDefWriter_WriteAttribute(defs, id, n, d, type); });
  };
  attribute(kCriticalAttribute, "critical", "1: on the sample's critical path", OTF2_TYPE_UINT8);
  attribute(kOperationAttribute, "operation",
            "the operation's index within its rank (a "
            "message: its send's)",
            OTF2_TYPE_UINT64);
  for (const auto& [id, name] :
       {std::pair{kToHiddenParameter, "message to a rank not shown"},
        std::pair{kFromHiddenParameter, "message from a rank not shown"}}) {
    const auto n = string(name);
    later.push_back([=] {
      return OTF2_GlobalDefWriter_WriteParameter(defs, id, n, OTF2_PARAMETER_TYPE_UINT64);
    });
  }
  const auto machine = string("collnoise simulation"), node_class = string("machine");
  later.push_back([=] {
    return OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, kMachineNode, machine, node_class,
                                                    OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  });
  for (const std::uint32_t rank : timeline_.ranks) {
    const auto name = string(fmt::format("rank {}", rank));
    later.push_back([=] {
      return OTF2_GlobalDefWriter_WriteLocationGroup(defs, rank, name,
                                                     OTF2_LOCATION_GROUP_TYPE_PROCESS, kMachineNode,
                                                     OTF2_UNDEFINED_LOCATION_GROUP);
    });
  }
  for (const auto& [key, location] : locations) {
    const auto lane = static_cast<TimelineLane>(location.lane / 256);
    const auto name = string(lane_label(lane, static_cast<std::uint8_t>(location.lane % 256)));
    const auto id = location_id(location.rank, location.lane);
    const auto events = static_cast<std::uint64_t>(location.events.size());
    const auto group = location.rank;
    later.push_back([=] {
      return OTF2_GlobalDefWriter_WriteLocation(defs, id, name, OTF2_LOCATION_TYPE_CPU_THREAD,
                                                events, group);
    });
  }
  std::vector<std::uint64_t> members, ranks;
  for (const std::uint32_t rank : timeline_.ranks) {
    members.push_back(location_id(rank, 0));
    ranks.push_back(ranks.size());
  }
  const auto locations_name = string("the chosen ranks' locations"), ranks_name = string("");
  const auto comm_name = string("the chosen ranks");
  later.push_back([=] {
    const auto size = static_cast<std::uint32_t>(members.size());
    OTF2_ErrorCode code = OTF2_GlobalDefWriter_WriteGroup(
        defs, kLocationsGroup, locations_name, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
        OTF2_GROUP_FLAG_NONE, size, members.data());
    if (code == OTF2_SUCCESS)
      code = OTF2_GlobalDefWriter_WriteGroup(defs, kRanksGroup, ranks_name,
                                             OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                             OTF2_GROUP_FLAG_NONE, size, ranks.data());
    if (code == OTF2_SUCCESS)
      code = OTF2_GlobalDefWriter_WriteComm(defs, kChosenRanksComm, comm_name, kRanksGroup,
                                            OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    return code;
  });
  std::vector<std::pair<OTF2_StringRef, std::string> > by_id;
  for (const auto& [text, id] : strings_) by_id.emplace_back(id, text);
  std::sort(by_id.begin(), by_id.end());
  for (const auto& [id, text] : by_id)
    check(OTF2_GlobalDefWriter_WriteString(defs, id, text.c_str()), "a string definition");
  for (const auto& write : later) check(write(), "a global definition");
}

// Leaves `to` holding what `from` holds: renamed into place; an existing `to` (force) is moved
// aside first and removed once the new one is there.
void move_into_place(const fs::path& from, const fs::path& to) {
  const fs::path aside = temporary_name(to.string()) + "-old";
  std::error_code error;
  if (fs::exists(to)) {
    check_otf2_target(to, true);  // again: something may have been put there since
    fs::remove_all(aside, error);
    fs::rename(to, aside, error);
    if (error)
      throw RuntimeFailure(fmt::format("cannot replace '{}': {}", to.string(), error.message()));
  }
  fs::rename(from, to, error);
  if (error) {
    std::error_code ignored;
    if (fs::exists(aside)) fs::rename(aside, to, ignored);
    throw RuntimeFailure(
        fmt::format("cannot rename '{}' to '{}': {}", from.string(), to.string(), error.message()));
  }
  fs::remove_all(aside, error);
}

}  // namespace

bool otf2_supported() {
  return true;
}

void write_otf2(const Timeline& timeline, const fs::path& archive, bool force) {
  if (const auto problem = timeline_problem(timeline); !problem.empty())
    throw RuntimeFailure("timeline '" + timeline.title + "': " + problem);
  // "out/" names the directory "out".
  const fs::path target = archive.has_filename() ? archive : archive.parent_path();
  check_otf2_target(target, force);
  const fs::path temporary = temporary_name(target.string());
  std::error_code ignored;
  fs::remove_all(temporary, ignored);  // this process's own leftover
  check_writable(target.string());
  try {
    Otf2Writer(timeline, temporary).write();
    move_into_place(temporary, target);
  } catch (...) {
    fs::remove_all(temporary, ignored);
    throw;
  }
}

}  // namespace collnoise

#endif  // COLLNOISE_WITH_OTF2
