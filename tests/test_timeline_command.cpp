// collnoise timeline (app/timeline_command.hpp): a replayed sample's times equal the run's
// record of the same sample, its files follow their formats, and what cannot be replayed is
// refused.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "outputs/atomic_file.hpp"
#include "tests/command_line.hpp"

using namespace collnoise::testing;

namespace {

const char* const kRun = R"(name = "timeline"
seed = 3
samples = 8
[collective]
kind = "schedule"
algorithm = "recursive_doubling_allreduce"
log2_N = 3
message_bytes = 8
finish_sample = 5
[loggops]
L = 1.0e-6
o = 1.0e-7
g = 0.0
G = 1.0e-9
[noise]
law = "periodic"
P = 1.0e-5
D = 1.0e-6
)";

nlohmann::json first_point(const std::string& result) {
  const auto r = run_command_line("summary " + result + " --json");
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(r.output)["points"][0];
}

}  // namespace

TEST_CASE("timeline: the replayed sample finishes as it did in the run") {
  write_text("tl_run.toml", kRun);
  REQUIRE(run_command_line("run tl_run.toml --out tl_run.h5 --force --quiet").code == 0);
  const auto r = run_command_line(
      "timeline tl_run.h5 --sample 5 --out tl_run.json --otf2 tl_run_otf2 --force");
  INFO(r.output);
  REQUIRE(r.code == 0);
  const nlohmann::json trace = nlohmann::json::parse(slurp("tl_run.json"));
  const nlohmann::json recorded = first_point("tl_run.h5")["sample_finish"];
  // Every rank's last CPU occupation ends when the run says the rank finished (exactly: the
  // JSON keeps each span's end in ns as the engine computed it).
  std::map<int, double> cpu_end;
  std::size_t critical = 0;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] != "X") continue;
    CHECK(e["dur"].get<double>() >= 0.0);
    CHECK(e["ts"].get<double>() * 1000.0 == Approx(e["args"]["start_ns"].get<double>()));
    if (e["args"]["critical"].get<bool>()) ++critical;
    if (e["args"]["lane"] == "CPU") {
      const int rank = e["pid"].get<int>();
      cpu_end[rank] = std::max(cpu_end[rank], e["args"]["end_ns"].get<double>());
    }
  }
  REQUIRE(cpu_end.size() == 8);
  for (const auto& [rank, end] : cpu_end)
    CHECK(end * 1e-9 == recorded[static_cast<std::size_t>(rank)].get<double>());
  CHECK(critical > 0);
  double latest = 0.0;
  for (const auto& x : recorded) latest = std::max(latest, x.get<double>());
  CHECK(trace["otherData"]["completion_ns"].get<double>() * 1e-9 == latest);
  CHECK_FALSE(trace["otherData"]["path_leaves_chosen"].get<bool>());
  // The OTF2 archive, read back by otf2-print: every message of the 3 rounds of 8 ranks.
  const auto printed = run_shell("otf2-print tl_run_otf2/traces.otf2");
  REQUIRE(printed.code == 0);
  CHECK(count_lines_starting(printed.output, "MPI_SEND") == 24);
  CHECK(count_lines_starting(printed.output, "MPI_RECV") == 24);
  CHECK(count_lines_starting(printed.output, "ENTER") ==
        count_lines_starting(printed.output, "LEAVE"));
}

TEST_CASE("timeline: chosen ranks and a window") {
  write_text("tl_some.toml", kRun);
  REQUIRE(run_command_line("run tl_some.toml --out tl_some.h5 --force --quiet").code == 0);
  REQUIRE(run_command_line("timeline tl_some.h5 --sample 2 --ranks 0-1,6 --window 0,2e-6 --out "
                           "tl_some.json --force")
              .code == 0);
  const nlohmann::json trace = nlohmann::json::parse(slurp("tl_some.json"));
  CHECK(trace["otherData"]["ranks"] == nlohmann::json::array({0, 1, 6}));
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] != "X") continue;
    CHECK((e["pid"] == 0 || e["pid"] == 1 || e["pid"] == 6));
    CHECK(e["args"]["start_ns"].get<double>() <= 2000.0);
  }
  // Recursive doubling's path crosses ranks in every round: with three of eight shown it
  // passes through ranks not shown.
  CHECK(trace["otherData"]["path_leaves_chosen"].get<bool>());
}

TEST_CASE("timeline: what cannot be replayed is refused") {
  write_text("tl_bad.toml", kRun);
  REQUIRE(run_command_line("run tl_bad.toml --out tl_bad.h5 --force --quiet").code == 0);
  expect_refused(run_command_line("timeline tl_bad.h5 --sample 8 --out tl_bad.json"),
                 {"--sample 8", "samples 0 to 7"});
  expect_refused(run_command_line("timeline tl_bad.h5 --sample 1 --ranks 3-9 --out tl_bad.json"),
                 {"--ranks", "rank 9"});
  expect_refused(run_command_line("timeline tl_bad.h5 --sample 1 --out tl_bad.h5 --force"),
                 {"tl_bad.h5"});
  write_text("tl_tree.toml", R"(name = "tree"
seed = 1
samples = 10
[collective]
kind = "tree_barrier"
N = 15
w = 1.0e-6
[noise]
law = "exponential"
f = 0.1
)");
  REQUIRE(run_command_line("run tl_tree.toml --out tl_tree.h5 --force --quiet").code == 0);
  expect_refused(run_command_line("timeline tl_tree.h5 --sample 1 --out tl_tree.json"),
                 {"--point 0", "tree_barrier", "schedule points"});
}

TEST_CASE("timeline: an archive a killed run left half-written is removed, a live one's kept") {
  namespace fs = std::filesystem;
  write_text("tl_stale.toml", kRun);
  REQUIRE(run_command_line("run tl_stale.toml --out tl_stale.h5 --force --quiet").code == 0);
  // Temporaries are named after the host and the process that writes them: one of a process
  // that no longer runs (no pid is that large), one of this test's own process, which runs.
  const std::string prefix = "tl_stale_otf2.tmp-" + collnoise::host_name() + "-";
  const std::string dead = prefix + "999999999", live = prefix + std::to_string(::getpid());
  for (const std::string& d : {dead, live}) {
    fs::remove_all(d);
    fs::create_directories(d + "/traces");
    write_text(d + "/traces.otf2", "half-written");
  }
  const auto r = run_command_line(
      "timeline tl_stale.h5 --sample 5 --out tl_stale.json --otf2 tl_stale_otf2/ --force");
  INFO(r.output);
  REQUIRE(r.code == 0);
  CHECK_FALSE(fs::exists(dead));
  CHECK(fs::exists(live + "/traces.otf2"));
  CHECK(r.output.find("removed './" + dead) != std::string::npos);
  CHECK(fs::exists("tl_stale_otf2/traces.otf2"));
  fs::remove_all(live);
}
