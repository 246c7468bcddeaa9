// Progress: the fraction done weighs each point by its estimated cost, the lines mode
// writes timestamped lines at its interval, --progress none writes nothing, every point's wall
// time is in the result (outside what runs are compared on), and under MPI only rank 0 reports.
// No assertion depends on how fast anything runs: clocks are replaced where timing matters.
#include <fmt/format.h>
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdio>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "core/work_in_flight.hpp"
#include "engine/network/topology_keys.hpp"
#include "outputs/result_file.hpp"
#include "runs/point_factory.hpp"
#include "runs/progress_display.hpp"
#include "runs/progress_tracker.hpp"
#include "runs/run_file.hpp"
#include "runs/work_estimate.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/points_table_reader.hpp"

using namespace collnoise;
using collnoise::testing::run_command_line;
using collnoise::testing::write_text;

namespace {

using Steady = std::chrono::steady_clock;

// A sweep whose points grow a thousandfold: per-rank sampling costs in proportion to N.
const char* kGrowing = R"(name = "growing"
seed = 4
samples = 2000
chunk_size = 250
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
sampling = "per_rank"
[noise]
law = "exponential"
f = 0.01
[sweep]
N = [100, 10000, 100000]
)";

// ISO 8601 local time with its UTC offset, then the message.
const std::regex kStamped(R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2} collnoise: .*)");

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < text.size()) {
    const auto end = text.find('\n', at);
    lines.push_back(text.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return lines;
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string summary_json(const std::string& result) {
  const auto r = run_command_line("summary " + result + " --json");
  REQUIRE(r.code == 0);
  return r.output;
}

// A bar of `width` columns on the test's clock, each write kept in `writes`.
template <class Clock>
ProgressDisplayOptions bar_options(const Clock& clock, std::vector<std::string>& writes,
                                   int width) {
  ProgressDisplayOptions options;
  options.mode = ProgressMode::kBar;
  options.bar_width = width;
  options.steady = clock;
  options.sink = [&writes](std::string_view text) { writes.emplace_back(text); };
  return options;
}

// Status lines only, on the test's clock, with `cores` cores.
template <class Clock>
ProgressDisplayOptions status_options(const Clock& clock, int cores) {
  ProgressDisplayOptions options;
  options.cores = cores;
  options.steady = clock;
  options.sink = [](std::string_view) {};
  return options;
}

}  // namespace

TEST_CASE("progress: the fraction done of a growing sweep is the ratio of estimated costs") {
  write_text("growing.toml", kGrowing);
  const RunSpec run = load_run_file("growing.toml");
  const auto points = prepare_points(run);
  REQUIRE(points.size() == 3);
  const RunEstimate estimate = estimate_run(run, points, 1, 1.0);
  // Each point's cost, by hand from its model's cost model: samples times the cost of one,
  // its fixed cost, and the 2 ms every point takes besides (runs/work_estimate.cpp).
  std::vector<double> cost;
  for (const auto& p : points)
    cost.push_back(2000.0 * p.sampled->cost_per_sample() + p.sampled->fixed_cost() + 2.0e-3);
  for (std::size_t i = 0; i < 3; ++i) CHECK(estimate.points[i].core_seconds == Approx(cost[i]));
  CHECK(cost[2] > 10.0 * cost[0]);  // the sweep grows: counting samples would be far off

  const ProgressTracker tracker(progress_points(run, points, estimate, PartSpec{}));
  REQUIRE(tracker.points()[1].units == 2000);
  CHECK(tracker.total_samples() == 6000);
  const double total = cost[0] + cost[1] + cost[2];
  CHECK(tracker.total_cost() == Approx(total));
  // Point 0 done and half of point 1: half the samples, far less than half the work.
  CHECK(tracker.cost_done(1, 1000) / tracker.total_cost() ==
        Approx((cost[0] + 0.5 * cost[1]) / total));
  CHECK(tracker.cost_done(1, 1000) / tracker.total_cost() < 0.2);
  CHECK(tracker.cost_done(2, 0) == Approx(cost[0] + cost[1]));
  CHECK(tracker.cost_done(3, 0) == Approx(total));

  // A part's points count the samples of its own chunks (8 chunks: part 2/3 holds 3 of them).
  const ProgressTracker part(progress_points(run, points, estimate, PartSpec{2, 3}));
  CHECK(part.points()[0].units == 750);
}

TEST_CASE("work estimate: a shared network adds its messages' links, by model") {
  // One message (two operations) on a two-level fat tree, under noise so that samples are
  // simulated: the network adds 0.5 us (simple) or 0.7 us (flows) per message and link of the
  // longest route to a sample, and to the noiseless run (engine/schedules/schedule_study.cpp).
  write_text("one_message.goal",
             "num_ranks 4\nrank 0 {\nl1: send 4096b to 3 tag 0\n}\nrank 1 {\n}\nrank 2 {\n}\n"
             "rank 3 {\nl1: recv 4096b from 0 tag 0\n}\n");
  const std::string head =
      "name = \"estimate\"\nseed = 1\nsamples = 8\n[collective]\nkind = \"schedule\"\n"
      "goal = \"one_message.goal\"\n[loggops]\nL = 1.0e-6\no = 1.0e-9\ng = 0.0\nG = 1.0e-9\n"
      "[noise]\nlaw = \"periodic\"\nP = 1.0e-3\nD = 1.0e-4\n";
  const std::string topology = "xgft(2; 2,2; 1,2)";
  const auto cost_of = [&](const std::string& network) {
    write_text("estimate.toml", head + network);
    const RunSpec run = load_run_file("estimate.toml");
    const auto points = prepare_points(run);
    REQUIRE(points.size() == 1);
    return std::pair{points[0].sampled->cost_per_sample(), points[0].sampled->fixed_cost()};
  };
  const auto plain = cost_of("");
  const auto simple =
      cost_of("[network]\ntopology = \"" + topology + "\"\ncontention = \"simple\"\n");
  const auto flows =
      cost_of("[network]\ntopology = \"" + topology + "\"\ncontention = \"flows\"\n");
  const double links = parse_topology(topology)->diameter();
  REQUIRE(links >= 2);
  CHECK(simple.first - plain.first == Approx(1 * links * 0.5e-6).epsilon(1e-9));
  CHECK(flows.first - plain.first == Approx(1 * links * 0.7e-6).epsilon(1e-9));
  CHECK(simple.second - plain.second == Approx(1 * links * 0.5e-6).epsilon(1e-9));
}

TEST_CASE("progress: the tracker's snapshots are consistent while another thread publishes") {
  // The writer keeps units = 7 * point; a torn read would see another pair.
  ProgressTracker tracker(std::vector<ProgressPoint>(200, ProgressPoint{1.0, 10000, true}));
  tracker.begin(0, 0);
  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (std::size_t round = 0; round < 50; ++round)
      for (std::size_t p = 0; p < 200; ++p) tracker.update(p, 7 * p);
    done = true;
  });
  std::size_t torn = 0;
  std::size_t reads = 0;
  while (!done || reads < 1000) {
    const ProgressSnapshot s = tracker.snapshot();
    if (s.units_done != 7 * s.point) ++torn;
    ++reads;
  }
  writer.join();
  CHECK(torn == 0);
}

TEST_CASE("progress: lines mode writes timestamped lines at its interval") {
  Steady::time_point now{};  // the fake clock both the tracker and the display read
  const auto clock = [&] { return now; };
  ProgressTracker tracker({{1.0, 100, true}, {3.0, 100, true}, {6.0, 100, true}}, clock);
  std::string out;
  ProgressDisplayOptions options;
  options.mode = ProgressMode::kLines;
  options.every_s = 60.0;
  options.cores = 2;
  options.sink = [&](std::string_view text) { out += text; };
  options.steady = clock;
  ProgressDisplay display(tracker, options);
  display.start("3 points, 300 samples; estimated work 10 core-seconds");
  tracker.begin(0, 0);
  CHECK(lines_of(out).size() == 1);
  CHECK(out.find("collnoise: start: 3 points, 300 samples; estimated work") != std::string::npos);

  const auto at = [&](double s) {
    now = Steady::time_point{} +
          std::chrono::duration_cast<Steady::duration>(std::chrono::duration<double>(s));
    display.poll();
  };
  at(30.0);
  CHECK(lines_of(out).size() == 1);  // not yet due
  tracker.finish_point(0);           // point 1 starts at 30 s
  now = Steady::time_point{} + std::chrono::seconds(30);
  tracker.start_point(1, 0);
  now = Steady::time_point{} + std::chrono::seconds(50);
  tracker.update(1, 50);
  at(60.0);
  REQUIRE(lines_of(out).size() == 2);
  // 1 + 1.5 of 10 core-seconds in 60 s: 7.5 left at that pace take 180 s; 50 samples in 30 s.
  CHECK(lines_of(out)[1].find("collnoise: progress 25.0% of the estimated work; 1/3 points done; "
                              "point 2: 50/100 samples; elapsed 0:01:00; ETA 0:03:00; "
                              "1.67 samples/s") != std::string::npos);
  at(61.0);
  at(119.0);
  CHECK(lines_of(out).size() == 2);
  at(125.0);  // the line due at 120 s
  CHECK(lines_of(out).size() == 3);
  at(400.0);  // 180 s to 360 s slept through: one line, the next due at 420 s
  CHECK(lines_of(out).size() == 4);
  at(419.0);
  CHECK(lines_of(out).size() == 4);
  at(420.0);
  CHECK(lines_of(out).size() == 5);
  tracker.finish_point(1);
  tracker.finish_point(2);
  display.finish(true);
  const auto lines = lines_of(out);
  REQUIRE(lines.size() == 6);
  CHECK(lines[5].find("collnoise: done: 3 points in 0:07:00") != std::string::npos);
  for (const auto& line : lines) {
    INFO(line);
    CHECK(std::regex_match(line, kStamped));
  }
}

TEST_CASE("progress: before anything is done the ETA is the estimate over the cores") {
  Steady::time_point now{};
  const auto clock = [&] { return now; };
  ProgressTracker tracker({{3600.0, 10, false}}, clock);
  ProgressDisplay display(tracker, status_options(clock, 4));
  display.start("x");
  tracker.begin(0, 0);
  CHECK(display.status(now) ==
        "0.0% of the estimated work; 0/1 points done; point 1: 0/10 steps; elapsed 0:00:00; "
        "ETA ~0:15:00");
  CHECK(clock_duration(100000.0) == "27:46:40");
  CHECK(clock_duration(3.0 * 86400 + 3725.0) == "3d 01:02:05");
}

TEST_CASE("progress: samples under way move the fraction and the ETA before they finish") {
  // One point of 4 samples costing 400 s; two samples on their way, at 30 % and 20 %.
  Steady::time_point now{};
  const auto clock = [&] { return now; };
  WorkInFlight in_flight;
  ProgressTracker tracker({{400.0, 4, true}}, clock, in_flight);
  ProgressDisplay display(tracker, status_options(clock, 2));
  display.start("x");
  tracker.begin(0, 0);
  {
    UnitInFlight a(in_flight), b(in_flight);
    a.at(0.1);
    a.at(0.3);  // a replaces what it reported
    b.at(0.2);
    now += std::chrono::seconds(25);
    CHECK(tracker.snapshot().in_flight == Approx(0.5));
    // 0.5 of 4 samples: 12.5 %, 50 of 400 core-seconds in 25 s, so 350 more take 175 s.
    CHECK(display.status(now) ==
          "12.5% of the estimated work; 0/1 points done; point 1: 0/4 samples (+0.5 under way); "
          "elapsed 0:00:25; ETA 0:02:55");
    a.at(2.0);  // a unit is whole only when finished
    CHECK(in_flight.units() == Approx(0.99 + 0.2));
    a.finish();
  }  // b stops unfinished: it takes back its 0.2; a, finished, stays in flight until counted
  CHECK(in_flight.units() == Approx(1.0));
  in_flight.add(-1.0);  // (what the study does once the chunk is counted)
  CHECK(in_flight.units() == 0.0);
  CHECK(tracker.snapshot().in_flight == 0.0);
}

TEST_CASE("progress: the bar is redrawn in place, fits the terminal and is cleared") {
  Steady::time_point now{};
  const auto clock = [&] { return now; };
  ProgressTracker tracker({{1.0, 100, true}, {3.0, 100, true}}, clock);
  std::vector<std::string> writes;
  ProgressDisplay display(tracker, bar_options(clock, writes, 62));
  display.start("2 points");
  tracker.begin(0, 0);
  REQUIRE(writes.size() == 1);
  CHECK(writes[0] == "collnoise: note: 2 points\n");  // the start, once, as a note
  tracker.finish_point(0);
  now = Steady::time_point{} + std::chrono::seconds(10);
  display.poll();
  REQUIRE(writes.size() == 2);
  CHECK(writes[1] ==
        std::string("\r\033[K") + " 25.0% [#####...............] ETA 0:00:30, elapsed 0:00:10, p");
  CHECK(writes[1].size() == 4 + 61);  // cut to the terminal's width less one column
  display.finish(true);
  REQUIRE(writes.size() == 3);
  CHECK(writes[2] == "\r\033[K");
}

TEST_CASE("progress: a warning under the bar clears it, takes its own line, and the bar returns") {
  Steady::time_point now{};
  const auto clock = [&] { return now; };
  ProgressTracker tracker({{1.0, 100, true}}, clock);
  std::vector<std::string> writes;
  ProgressDisplay display(tracker, bar_options(clock, writes, 30));
  display.start("1 point");
  tracker.begin(0, 0);
  display.message("collnoise: warning: before the bar");  // no bar yet: the line alone
  REQUIRE(writes.size() == 2);
  CHECK(writes[1] == "collnoise: warning: before the bar\n");
  display.poll();
  REQUIRE(writes.size() == 3);
  const std::string bar = writes[2].substr(4);  // after "\r\033[K"
  display.message("collnoise: warning: w");
  REQUIRE(writes.size() == 4);
  CHECK(writes[3] == std::string("\r\033[K") + "collnoise: warning: w\n" + bar);
  display.finish(true);
  display.message("collnoise: warning: after");  // the bar is gone: the line alone
  CHECK(writes.back() == "collnoise: warning: after\n");
}

TEST_CASE("progress: the background thread writes lines and stops at finish") {
  ProgressTracker tracker({{1.0, 10, true}});
  std::mutex mutex;
  std::string out;
  ProgressDisplayOptions options;
  options.every_s = 0.001;
  options.sink = [&](std::string_view text) {
    const std::lock_guard lock(mutex);
    out += text;
  };
  ProgressDisplay display(tracker, options);
  display.start("1 point");
  tracker.begin(0, 0);
  display.run_in_background();
  // Waits for the thread's first line however slow the machine is (no timing asserted).
  for (;;) {
    {
      const std::lock_guard lock(mutex);
      if (out.find("collnoise: progress") != std::string::npos) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  tracker.finish_point(0);
  display.finish(true);
  const std::string after = out;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(out == after);  // nothing once finished
  CHECK(count_of(out, "collnoise: done:") == 1);
}

TEST_CASE("run --progress: lines in a log, none, --quiet, each point's wall time recorded") {
  write_text("growing.toml", kGrowing);
  // stderr is a pipe here, as in a batch job: auto means lines.
  const auto lines = run_command_line(
      "run growing.toml --out lines.h5 --force --threads 1 --progress-every 0.001");
  INFO(lines.output);
  REQUIRE(lines.code == 0);
  CHECK(count_of(lines.output, "collnoise: start: 3 points, 6000 samples; estimated work") == 1);
  CHECK(count_of(lines.output, "collnoise: done: 3 points in") == 1);
  for (const auto& line : lines_of(lines.output))
    if (line.find(" collnoise: ") != std::string::npos) {
      INFO(line);
      CHECK(std::regex_match(line, kStamped));
    }
  CHECK(lines.output.find('\r') == std::string::npos);  // no bar in a log

  for (const char* quiet : {"--progress none", "--quiet", "--progress=none --quiet"}) {
    const auto none =
        run_command_line(fmt::format("run growing.toml --out none.h5 --force {}", quiet));
    INFO(none.output);
    REQUIRE(none.code == 0);
    CHECK(none.output.find("collnoise: start") == std::string::npos);
    CHECK(none.output.find("collnoise: progress") == std::string::npos);
    CHECK(none.output.find("collnoise: done") == std::string::npos);
    CHECK(none.output.find('\r') == std::string::npos);
  }
  const auto explicit_lines =
      run_command_line("run growing.toml --out quiet.h5 --force --quiet --progress lines");
  CHECK(count_of(explicit_lines.output, "collnoise: start:") == 1);
  CHECK(explicit_lines.output.find("wrote") == std::string::npos);  // still no table
  CHECK(run_command_line("run growing.toml --out x.h5 --progress sometimes").code == 2);
  CHECK(run_command_line("run growing.toml --out x.h5 --progress-every 0").code == 2);

  // Every point's wall time is beside its kind, in seconds; not in the summary nor the points
  // table, which are the same bits for every thread count, process count, split and sitting.
  const ResultFile file = read_result_file("lines.h5");
  REQUIRE(file.wall_times_s.size() == 3);
  for (const auto& wall : file.wall_times_s) {
    REQUIRE(wall.has_value());
    CHECK(*wall >= 0.0);
  }
  for (const auto& summary : file.summaries) CHECK(summary.find("wall_time_s") == nullptr);
  CHECK(summary_json("lines.h5").find("wall_time_s") == std::string::npos);
  const testing::PointsTableReader table("lines.h5");
  const auto names = table.names();
  CHECK(std::find(names.begin(), names.end(), "wall_time_s") == names.end());
  CHECK(testing::PointsTableReader("none.h5").bytes() == table.bytes());

  // Parts record theirs and a merge sums them; a resumed run carries them over its sittings.
  for (int i = 1; i <= 2; ++i)
    REQUIRE(run_command_line(
                fmt::format("run growing.toml --part {}/2 --out p{}.h5 --force --quiet", i, i))
                .code == 0);
  REQUIRE(run_command_line("merge p1.h5 p2.h5 --out merged.h5 --force --quiet").code == 0);
  const auto p1 = read_result_file("p1.h5").wall_times_s;
  const auto p2 = read_result_file("p2.h5").wall_times_s;
  const auto merged = read_result_file("merged.h5").wall_times_s;
  for (std::size_t i = 0; i < 3; ++i) {
    REQUIRE(merged[i].has_value());
    CHECK(*merged[i] == *p1[i] + *p2[i]);
  }
  std::remove("cut.h5");
  const auto cut = run_command_line(
      "run growing.toml --out cut.h5 --progress lines --interrupt-after-chunks 10");
  INFO(cut.output);
  REQUIRE(cut.code == 3);
  CHECK(count_of(cut.output, "collnoise: stopped: ") == 1);
  const auto resumed =
      run_command_line("run growing.toml --out cut.h5 --resume cut.h5.ckpt --progress lines");
  INFO(resumed.output);
  REQUIRE(resumed.code == 0);
  CHECK(count_of(resumed.output, "collnoise: done:") == 1);
  CHECK(summary_json("cut.h5") == summary_json("lines.h5"));
  for (const auto& wall : read_result_file("cut.h5").wall_times_s) CHECK(wall.has_value());
}

#ifdef COLLNOISE_WITH_MPI
TEST_CASE("MPI: rank 0 alone reports progress, and the results are one process's", "[mpi]") {
  const std::string mpirun =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0 "
      "mpirun --oversubscribe -np 2";
  write_text("growing.toml", kGrowing);
  REQUIRE(run_command_line("run growing.toml --out one.h5 --force --quiet --threads 2").code == 0);
  const auto two = run_command_line(
      "run growing.toml --out two.h5 --force --threads 1 --progress lines --progress-every 0.001",
      mpirun);
  INFO(two.output);
  REQUIRE(two.code == 0);
  CHECK(count_of(two.output, "collnoise: start: 3 points, 6000 samples") == 1);
  CHECK(count_of(two.output, "collnoise: done: 3 points") == 1);
  CHECK(count_of(two.output, "on 2 cores") == 2);  // the start and done lines: both processes
  CHECK(summary_json("two.h5") == summary_json("one.h5"));
  CHECK(testing::PointsTableReader("two.h5").bytes() ==
        testing::PointsTableReader("one.h5").bytes());
}
#endif
