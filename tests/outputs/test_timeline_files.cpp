// Timelines of chosen samples as files (docs/timelines.md): a hand-made timeline of three chosen
// ranks out of four, written as Chrome trace-event JSON (read back with nlohmann-json) and as an
// OTF2 archive (read back by otf2-print, from Debian's otf2-tools).
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/timeline.hpp"
#include "outputs/timeline_chrome.hpp"
#include "outputs/timeline_otf2.hpp"
#include "tests/fixtures/command_line.hpp"

namespace fs = std::filesystem;
using collnoise::SpanKind;
using collnoise::Timeline;
using collnoise::TimelineLane;
using nlohmann::json;

namespace {

// Rank 0 computes (hit by noise), then sends 8 bytes to rank 1 on the critical path; rank 2
// sends to rank 3, which is not shown, and receives from it. Rank 1 finishes last at 7500 ns.
Timeline sample_timeline() {
  Timeline t;
  t.title = "point 0, sample 3: hand-made, 4 ranks";
  t.ranks_total = 4;
  t.ranks = {0, 1, 2};
  t.completion_ns = 7500;
  t.last_rank = 1;
  t.path_leaves_chosen = true;
  const auto cpu = TimelineLane::kCpu;
  t.spans = {
      {0, cpu, 0, SpanKind::kCalc, true, 0, 1500, 4000},
      {0, cpu, 0, SpanKind::kNoise, false, 0, 2000, 2500},
      {0, cpu, 0, SpanKind::kSendOverhead, true, 1, 4000, 4500},
      {0, TimelineLane::kSendNic, 0, SpanKind::kSendGap, true, 1, 4500, 5500},
      {1, TimelineLane::kReceiveNic, 0, SpanKind::kReceiveGap, true, 0, 6000, 7000},
      {1, cpu, 0, SpanKind::kReceiveOverhead, true, 0, 7000, 7500},
      {2, cpu, 0, SpanKind::kCalc, false, 0, 0, 1000},
      {2, cpu, 0, SpanKind::kSendOverhead, false, 1, 1000, 1250},
      {2, TimelineLane::kSendNic, 0, SpanKind::kSendGap, false, 1, 1250, 2250},
  };
  t.messages = {
      {0, 1, 1, 8, 5, 4500, 7000, true},
      {2, 3, 1, 64, 9, 1250, 3000, false},
      {3, 2, 0, 16, 2, 500, 2500, false},
  };
  return t;
}

json read_json(const fs::path& path) {
  return json::parse(collnoise::testing::slurp(path.string()));
}

std::vector<json> events_with(const json& trace, const std::string& ph) {
  std::vector<json> out;
  for (const json& e : trace.at("traceEvents"))
    if (e.at("ph") == ph) out.push_back(e);
  return out;
}

const json& span_starting(const std::vector<json>& spans, int pid, double start_ns) {
  for (const json& e : spans)
    if (e.at("pid") == pid && e.at("args").at("start_ns") == start_ns) return e;
  FAIL("no span of rank " << pid << " starting at " << start_ns << " ns");
  return spans.front();
}

std::string metadata_name(const json& trace, const std::string& kind, int pid, int tid) {
  for (const json& e : events_with(trace, "M"))
    if (e.at("name") == kind && e.at("pid") == pid && e.at("tid") == tid)
      return e.at("args").at("name");
  return "";
}

// otf2-print's event lines ("ENTER   <location>   <time>  ..."), counted by event and location.
std::map<std::pair<std::string, std::uint64_t>, int> event_counts(const std::string& text) {
  std::map<std::pair<std::string, std::uint64_t>, int> counts;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string event;
    std::uint64_t location = 0, time = 0;
    if (fields >> event >> location >> time) ++counts[{event, location}];
  }
  return counts;
}

// The location of rank r's lane: rank << 16 | lane number (CPU 0: 0, send NIC 0: 256, ...).
std::uint64_t location(std::uint64_t rank, std::uint64_t lane) {
  return rank << 16 | lane;
}

}  // namespace

TEST_CASE(
    "timeline as Chrome trace JSON: microsecond times, ranks as processes, lanes as "
    "threads, messages as flows, the critical path marked",
    "[timeline]") {
  const fs::path path = "timeline-chrome.json";
  fs::remove(path);
  collnoise::write_chrome_trace(sample_timeline(), path, false);
  const json trace = read_json(path);
  CHECK(trace.at("displayTimeUnit") == "ns");

  const auto spans = events_with(trace, "X");
  REQUIRE(spans.size() == 9);
  const json& calc = span_starting(spans, 0, 1500);
  CHECK(calc.at("ts").get<double>() == 1.5);
  CHECK(calc.at("dur").get<double>() == 2.5);
  CHECK(calc.at("tid") == 0);
  CHECK(calc.at("name") == "calc");
  CHECK(calc.at("cat") == "critical");
  CHECK(calc.at("cname") == "terrible");
  CHECK(calc.at("args").at("critical") == true);
  CHECK(calc.at("args").at("op") == 0);
  CHECK(calc.at("args").at("end_ns") == 4000.0);
  const json& noise = span_starting(spans, 0, 2000);
  CHECK(noise.at("name") == "noise");
  CHECK(noise.at("cat") == "span");
  CHECK(noise.at("cname") == "grey");
  CHECK(noise.at("args").at("critical") == false);
  CHECK(noise.at("ts").get<double>() == 2.0);
  CHECK(noise.at("dur").get<double>() == 0.5);
  const json& send_gap = span_starting(spans, 0, 4500);
  CHECK(send_gap.at("tid") == 256);
  CHECK(send_gap.at("args").at("lane") == "send NIC");
  CHECK(send_gap.at("args").at("op") == 1);
  CHECK(span_starting(spans, 1, 6000).at("tid") == 512);
  CHECK(span_starting(spans, 2, 1000).at("dur").get<double>() == 0.25);
  CHECK(span_starting(spans, 2, 1000).count("cname") == 0);
  int critical = 0;
  for (const json& s : spans) critical += s.at("cat") == "critical" ? 1 : 0;
  CHECK(critical == 5);

  SECTION("names: a process per chosen rank, a thread per lane") {
    CHECK(metadata_name(trace, "process_name", 0, 0) == "rank 0");
    CHECK(metadata_name(trace, "process_name", 2, 0) == "rank 2");
    CHECK(metadata_name(trace, "process_name", 3, 0).empty());
    CHECK(metadata_name(trace, "thread_name", 0, 0) == "CPU 0");
    CHECK(metadata_name(trace, "thread_name", 0, 256) == "send NIC 0");
    CHECK(metadata_name(trace, "thread_name", 1, 512) == "receive NIC 0");
    CHECK(metadata_name(trace, "thread_name", 1, 256).empty());
  }
  SECTION("the message between chosen ranks: one flow from the send NIC to the receive") {
    const auto starts = events_with(trace, "s");
    const auto finishes = events_with(trace, "f");
    REQUIRE(starts.size() == 1);
    REQUIRE(finishes.size() == 1);
    const json &s = starts[0], &f = finishes[0];
    CHECK(s.at("id") == f.at("id"));
    CHECK(s.at("cat") == f.at("cat"));
    CHECK(s.at("cat") == "message,critical");
    CHECK(s.at("pid") == 0);
    CHECK(s.at("tid") == 256);
    CHECK(s.at("ts").get<double>() == 4.5);
    CHECK(s.at("args").at("bytes") == 8);
    CHECK(s.at("args").at("tag") == 5);
    CHECK(s.at("args").at("to") == 1);
    CHECK(s.at("args").at("critical") == true);
    // It ends in the receive overhead that starts at its arrival, on rank 1's CPU 0.
    CHECK(f.at("pid") == 1);
    CHECK(f.at("tid") == 0);
    CHECK(f.at("ts").get<double>() == 7.0);
    CHECK(f.at("bp") == "e");
  }
  SECTION("messages to and from a rank not shown: marks on the end that is") {
    std::vector<std::string> names;
    for (const json& e : events_with(trace, "i"))
      if (e.at("cat") != "completion") {
        CHECK(e.at("pid") == 2);
        CHECK(e.at("args").at("critical") == false);
        names.push_back(e.at("name"));
      }
    CHECK(names == std::vector<std::string>{"message to rank 3 (not shown)",
                                            "message from rank 3 (not shown)"});
  }
  SECTION("title, completion and the note on the critical path") {
    const json& data = trace.at("otherData");
    CHECK(data.at("title") == "point 0, sample 3: hand-made, 4 ranks");
    CHECK(data.at("completion_ns") == 7500.0);
    CHECK(data.at("last_rank") == 1);
    CHECK(data.at("ranks") == json({0, 1, 2}));
    CHECK(data.at("ranks_total") == 4);
    CHECK(data.at("window_end_ns").is_null());
    CHECK(data.at("note") == "the critical path passes through ranks not shown");
    for (const json& e : events_with(trace, "i"))
      if (e.at("cat") == "completion") {
        CHECK(e.at("pid") == 1);
        CHECK(e.at("ts").get<double>() == 7.5);
        CHECK(e.at("args").at("note") == "the critical path passes through ranks not shown");
      }
  }
}

TEST_CASE(
    "timeline as Chrome trace JSON: an existing file is kept unless forced, no note when "
    "the critical path stays on the chosen ranks",
    "[timeline]") {
  const fs::path path = "timeline-chrome-force.json";
  collnoise::testing::write_text(path.string(), "keep me");
  Timeline t = sample_timeline();
  t.path_leaves_chosen = false;
  CHECK_THROWS_AS(collnoise::write_chrome_trace(t, path, false), collnoise::InputError);
  CHECK(collnoise::testing::slurp(path.string()) == "keep me");
  collnoise::write_chrome_trace(t, path, true);
  const json trace = read_json(path);
  CHECK(trace.at("otherData").at("path_leaves_chosen") == false);
  CHECK(trace.at("otherData").count("note") == 0);
  // No temporary of this file is left (other tests of the same process may leave their own).
  for (const auto& entry : fs::directory_iterator("."))
    CHECK(entry.path().filename().string().find(path.string() + ".tmp-") == std::string::npos);
}

TEST_CASE("timeline writers refuse a timeline breaking its promises", "[timeline]") {
  Timeline overlapping = sample_timeline();
  overlapping.spans.push_back({0, TimelineLane::kCpu, 0, SpanKind::kNoise, false, 0, 3500, 4200});
  CHECK_THAT(collnoise::timeline_problem(overlapping),
             Catch::Contains("rank 0 on CPU 0 overlap partially"));
  CHECK_THROWS_AS(collnoise::chrome_trace_json(overlapping), collnoise::RuntimeFailure);
  Timeline hidden = sample_timeline();
  hidden.spans.push_back({3, TimelineLane::kCpu, 0, SpanKind::kCalc, true, 0, 0, 10});
  CHECK_THAT(collnoise::timeline_problem(hidden), Catch::Contains("rank 3"));
  Timeline unordered = sample_timeline();
  unordered.ranks = {1, 0, 2};
  CHECK_FALSE(collnoise::timeline_problem(unordered).empty());
  CHECK(collnoise::timeline_problem(sample_timeline()).empty());
  if (collnoise::otf2_supported())
    CHECK_THROWS_AS(collnoise::write_otf2(overlapping, "refused-otf2", false),
                    collnoise::RuntimeFailure);
  CHECK_FALSE(fs::exists("refused-otf2"));
}

TEST_CASE(
    "timeline as an OTF2 archive: otf2-print reads Enter/Leave per lane and the message "
    "as MpiSend/MpiRecv",
    "[timeline]") {
  if (!collnoise::otf2_supported()) {
    WARN("built without OTF2 (COLLNOISE_OTF2=OFF): not checked");
    return;
  }
  const fs::path archive = "timeline-otf2";
  fs::remove_all(archive);
  collnoise::write_otf2(sample_timeline(), archive, false);
  const fs::path anchor = archive / collnoise::kOtf2AnchorName;
  REQUIRE(fs::exists(anchor));
  REQUIRE(fs::exists(archive / "traces.def"));
  REQUIRE(fs::is_directory(archive / "traces"));

  const auto printed = collnoise::testing::run_shell("otf2-print -Werror " + anchor.string());
  INFO(printed.output);
  REQUIRE(printed.code == 0);
  const auto counts = event_counts(printed.output);
  const auto count = [&](const char* event, std::uint64_t where) {
    const auto at = counts.find({event, where});
    return at == counts.end() ? 0 : at->second;
  };
  // Rank 0's CPU: calc with the noise nested in it, the send overhead, then the send.
  CHECK(count("ENTER", location(0, 0)) == 3);
  CHECK(count("LEAVE", location(0, 0)) == 3);
  CHECK(count("MPI_SEND", location(0, 0)) == 1);
  CHECK(count("ENTER", location(0, 256)) == 1);
  CHECK(count("LEAVE", location(0, 256)) == 1);
  CHECK(count("ENTER", location(1, 512)) == 1);
  CHECK(count("LEAVE", location(1, 512)) == 1);
  CHECK(count("ENTER", location(1, 0)) == 1);
  CHECK(count("MPI_RECV", location(1, 0)) == 1);
  CHECK(count("ENTER", location(2, 0)) == 2);
  CHECK(count("LEAVE", location(2, 0)) == 2);
  CHECK(count("ENTER", location(2, 256)) == 1);
  CHECK(count("MPI_SEND", location(2, 0)) == 0);  // to rank 3, not shown: a parameter event
  CHECK(count("PARAMETER_UINT64", location(2, 0)) == 2);
  int events = 0;
  for (const auto& [key, n] : counts) events += n;
  CHECK(events == 9 * 2 + 2 + 2);

  SECTION("names, times in nanoseconds, attributes and properties") {
    const auto all = collnoise::testing::run_shell("otf2-print -A " + anchor.string());
    INFO(all.output);
    CHECK(all.code == 0);
    CHECK_THAT(all.output, Catch::Contains("\"rank 2\""));
    CHECK_THAT(all.output, Catch::Contains("\"send NIC 0\""));
    CHECK_THAT(all.output, Catch::Contains("\"receive overhead\""));
    CHECK_THAT(all.output, Catch::Contains("COLLNOISE::COMPLETION_NS"));
    CHECK_THAT(all.output, Catch::Contains("the critical path passes through ranks not shown"));
    CHECK_THAT(all.output, Catch::Contains("1000000000"));  // ticks per second
    CHECK_THAT(all.output, Catch::Contains("\"critical\""));
    std::istringstream in(printed.output);
    bool send_at_4500 = false;
    for (std::string line; std::getline(in, line);)
      if (line.starts_with("MPI_SEND") && line.find(" 4500 ") != std::string::npos)
        send_at_4500 = true;
    CHECK(send_at_4500);
  }
  SECTION("an existing archive is kept unless forced") {
    CHECK_THROWS_AS(collnoise::write_otf2(sample_timeline(), archive, false),
                    collnoise::InputError);
    Timeline fewer = sample_timeline();
    fewer.ranks = {0, 1};
    fewer.messages.resize(1);
    fewer.spans.resize(6);
    collnoise::write_otf2(fewer, archive, true);
    const auto again = collnoise::testing::run_shell("otf2-print " + anchor.string());
    CHECK(again.code == 0);
    CHECK(event_counts(again.output).count({"ENTER", location(2, 0)}) == 0);
    for (const auto& entry : fs::directory_iterator("."))
      CHECK(entry.path().filename().string().find("timeline-otf2.tmp-") == std::string::npos);
  }
}

// The Python figure (python/collnoise/figures/timeline.py, tests/python/test_timeline_figure.py)
// reads this same file: the writer's output for the hand-made timeline, kept in
// tests/fixtures/data. A change of the format shows here first; record the file anew by deleting it
// and running this test.
TEST_CASE("timeline as Chrome trace JSON: the file the Python figure's test reads", "[timeline]") {
  const fs::path recorded =
      fs::path(COLLNOISE_SOURCE_DIR) / "tests/fixtures/data/timeline-sample.json";
  const std::string written = collnoise::chrome_trace_json(sample_timeline());
  if (!fs::exists(recorded)) {
    collnoise::testing::write_text(recorded.string(), written);
    FAIL("recorded " << recorded << ": check it and run again");
  }
  CHECK(json::parse(written) == read_json(recorded));
}
