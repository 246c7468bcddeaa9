// Every phase is interruptible and bounded (docs/cli.md, "What collnoise promises"): reading and
// validating a GOAL file, the schedule engine's matching, repeated cycles and `collnoise
// schedule` act on SIGTERM within a second or two and keep to --max-memory-gib (peak resident
// memory below the limit, or a refusal naming the memory before the work starts).
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "tests/fixtures/command_line.hpp"
#include "core/errors.hpp"
#include "core/stop_request.hpp"
#include "engine/schedules/algorithms.hpp"
#include "engine/schedules/goal_reader.hpp"
#include "engine/schedules/goal_writer.hpp"
#include "engine/schedules/schedule_engine.hpp"

namespace collnoise {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using testing::write_text;

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
// Under AddressSanitizer a process's resident memory holds the sanitizer's shadow and quarantine
// (a streamed 2^17-rank GOAL file peaked at 588 MiB against 20 MiB without): tight bounds on it
// hold only in the optimised build, which CI runs too.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kResidentMemoryIsOurs = false;
#else
constexpr bool kResidentMemoryIsOurs = true;
#endif
// The promise is 2 s from the signal to the exit; CI machines are shared and slow, so the tests
// allow this much.
constexpr double kStopBound = 5.0;

struct Finished {
  int code = -1;            ///< exit code, or -signal
  std::string output;       ///< stdout and stderr
  double peak_bytes = 0.0;  ///< the child's peak resident memory
  double seconds = 0.0;     ///< from `signal_after` (or the start) to the exit
};

// Runs collnoise with `args` as a child of its own, sending it SIGTERM after `signal_after`
// seconds if positive. Its peak memory comes from wait4: forked (not spawned, which would lend it
// this process's memory map and so its peak), after this process gave its free heap back, so
// the peak is the child's own or this process's resident memory at the fork, whichever is larger.
Finished run_collnoise(const std::vector<std::string>& args, double signal_after = 0.0) {
  const std::string log = "bounded-child.log";
  std::vector<std::string> all{COLLNOISE_BINARY};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::malloc_trim(0);
  const auto start = Clock::now();
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ::dup2(fd, 1) < 0 || ::dup2(fd, 2) < 0) ::_exit(127);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  auto from = start;
  if (signal_after > 0.0) {
    std::this_thread::sleep_for(std::chrono::duration<double>(signal_after));
    from = Clock::now();
    ::kill(pid, SIGTERM);
  }
  int status = 0;
  struct rusage usage {};
  REQUIRE(::wait4(pid, &status, 0, &usage) == pid);
  Finished f;
  f.seconds = std::chrono::duration<double>(Clock::now() - from).count();
  f.code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  f.peak_bytes = static_cast<double>(usage.ru_maxrss) * 1024.0;
  std::ifstream in(log);
  f.output.assign(std::istreambuf_iterator<char>(in), {});
  f.output += fmt::format("\n[peak resident memory {:.1f} MiB, {:.2f} s]", f.peak_bytes / 1048576.0,
                          f.seconds);
  return f;
}

// A linear gather whose root posts its N - 1 receives in reverse order while the messages
// arrive in rank order: each message searches the whole list, N^2 / 2 entries in all.
std::string reversed_gather(std::uint32_t ranks) {
  std::string text = fmt::format("num_ranks {}\nrank 0 {{\n", ranks);
  for (std::uint32_t from = ranks - 1, k = 0; from >= 1; --from, ++k)
    text += fmt::format("l{}: recv 8b from {} tag 0\n", k, from);
  text += "}\n";
  for (std::uint32_t r = 1; r < ranks; ++r)
    text += fmt::format("rank {} {{\nl0: send 8b to 0 tag 0\n}}\n", r);
  return text;
}

std::string goal_run_file(const std::string& name, const std::string& goal,
                          const std::string& extra = "") {
  return write_text(name + ".toml", fmt::format(R"(name = "{}"
seed = 1
samples = 4
[collective]
kind = "schedule"
goal = "{}"
{}
)",
                                                name, goal, extra));
}

bool mentions(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

}  // namespace

TEST_CASE("the schedule engine acts on a stop inside a quadratic matching search", "[bounded]") {
  // 2^17 ranks: some 8.6e9 entries searched, seconds of work; before, the stop was polled every
  // 2^20 events, which this schedule never reaches after its start.
  const Schedule s = read_goal_text(reversed_gather(1U << 17), "reversed.goal");
  clear_stop_request();
  const ScheduleNet net{.L = 1000.0, .o = 100.0, .g = 10.0, .G = 1.0};
  auto running = std::async(std::launch::async, [&] { return simulate_schedule(s, net); });
  REQUIRE(running.wait_for(std::chrono::milliseconds(500)) == std::future_status::timeout);
  const auto asked = Clock::now();
  request_stop(SIGTERM);
  CHECK_THROWS_AS(running.get(), StopRequested);
  const double seconds = std::chrono::duration<double>(Clock::now() - asked).count();
  clear_stop_request();
  CHECK(seconds < kStopBound);
}

TEST_CASE("the noiseless run counts its match-list searches for the estimate", "[bounded]") {
  const Schedule s = read_goal_text(reversed_gather(1024), "reversed.goal");
  const ScheduleNet net{.L = 1000.0, .o = 100.0, .g = 10.0, .G = 1.0};
  const ScheduleRun run = simulate_schedule(s, net);
  REQUIRE(run.complete);
  // Message from rank r meets the receives of ranks 1023 .. r + 1 before its own (the first
  // entry of a list, held with its rank, is not counted): at least a third of N^2 / 2.
  CHECK(run.searched > 1024ULL * 1024 / 6);
  const Schedule in_order = read_goal_text(
      "num_ranks 3\nrank 0 {\nl0: recv 8b from 1 tag 0\nl1: recv 8b from 2 tag 0\n}\n"
      "rank 1 {\nl0: send 8b to 0 tag 0\n}\nrank 2 {\nl0: send 8b to 0 tag 0\n}\n",
      "in_order.goal");
  CHECK(simulate_schedule(in_order, net).searched <= 2);
}

TEST_CASE("a GOAL file being validated stops within seconds of SIGTERM, and says so",
          "[bounded][slow]") {
  // 2^18 ranks: read in a fraction of a second, then about 10 s of matching in the noiseless run
  // that validates it.
  { std::ofstream("reversed18.goal") << reversed_gather(1U << 18); }
  const std::string run = goal_run_file("reversed18", "reversed18.goal");
  const Finished f = run_collnoise({"run", run, "--validate-only"}, 2.5);
  INFO(f.output);
  CHECK(f.code == 3);
  CHECK(mentions(f.output, "interrupted by signal 15"));
  CHECK(f.seconds < kStopBound);
}

TEST_CASE("the validation estimate counts the matching of a GOAL file's validation", "[bounded]") {
  // 2^15 ranks: some 2e8 entries searched, a fifth of a core-second at 1 ns an entry; before,
  // the estimate counted 1.5 events an operation only (0.02 core-seconds with the overheads).
  { std::ofstream("reversed15.goal") << reversed_gather(1U << 15); }
  const std::string run = goal_run_file("reversed15", "reversed15.goal");
  const Finished f = run_collnoise({"run", run, "--validate-only"});
  INFO(f.output);
  REQUIRE(f.code == 0);
  const auto at = f.output.find("estimated work ");
  REQUIRE(at != std::string::npos);
  const double seconds = std::stod(f.output.substr(at + 15));
  CHECK(mentions(f.output.substr(at), "core-seconds"));
  CHECK(seconds > 0.1);
}

TEST_CASE("a sparse GOAL label takes no memory in proportion to its value", "[bounded]") {
  // Before: "l500000000" grew a table of 5e8 entries (1.97 GB at its peak).
  write_text("sparse-label.goal", "num_ranks 1\nrank 0 {\nl500000000: calc 100\n}\n");
  const Schedule s = read_goal_text(
      "num_ranks 1\nrank 0 {\nl500000000: calc 100\n"
      "l7: calc 5\nl7 requires l500000000\n}\n",
      "sparse.goal");
  CHECK(s.operations() == 2);
  CHECK(s.dependencies(1) == 1);
  CHECK_THROWS_WITH(read_goal_text("num_ranks 1\nrank 0 {\nl900000000: calc 1\nl900000000: calc "
                                   "2\n}\n",
                                   "twice.goal"),
                    Catch::Contains("defined twice"));
  const std::string run = goal_run_file("sparse-label", "sparse-label.goal");
  const Finished f = run_collnoise({"run", run, "--validate-only", "--max-memory-gib", "0.5"});
  INFO(f.output);
  CHECK(f.code == 0);
  CHECK(f.peak_bytes < 0.5 * kGiB);
}

TEST_CASE("a GOAL line beyond any GOAL line's length is refused, not buffered", "[bounded]") {
  // Before, the reader's buffer grew to hold the whole line, however long.
  const std::string endless(std::size_t{80} << 20, 'x');
  std::string error;
  try {
    read_goal_text(endless, "endless.goal");
  } catch (const InputError& e) {
    error = e.what();
  }
  // (compared by hand: Catch would format a message of 80 MiB for ever)
  REQUIRE(error.size() < 200);
  CHECK(error == "endless.goal:1:1: a line longer than 64 MiB: this is not GOAL text");
}

TEST_CASE("num_ranks in a tiny GOAL file allocates nothing per rank up front", "[bounded]") {
  // Before: num_ranks 100000000 took 1.6 GB before its error; 2147483647 asked for 32 GiB.
  write_text("many-ranks.goal", "num_ranks 100000000\n");
  const Finished many = run_collnoise({"run", goal_run_file("many-ranks", "many-ranks.goal"),
                                       "--validate-only", "--max-memory-gib", "0.5"});
  INFO(many.output);
  CHECK(many.code == 2);
  CHECK(mentions(many.output, "after 0 rank block(s)"));
  CHECK(many.peak_bytes < 0.5 * kGiB);
  // A send to the last of 2^31 - 1 ranks would count messages for every one of them: refused
  // by the memory it needs, before it is taken.
  write_text("far-peer.goal",
             "num_ranks 2147483647\nrank 0 {\nl0: send 8b to 2147483646 tag 0\n}\n");
  const Finished far = run_collnoise({"run", goal_run_file("far-peer", "far-peer.goal"),
                                      "--validate-only", "--max-memory-gib", "0.5"});
  INFO(far.output);
  CHECK(far.code == 2);
  CHECK(mentions(far.output, "reading GOAL file "));
  CHECK(mentions(far.output, "far-peer.goal (at line 3, rank 0) would need about 16 GiB"));
  CHECK(mentions(far.output, "of memory, beyond the limit of 512 MiB"));
  CHECK(far.peak_bytes < 0.5 * kGiB);
}

TEST_CASE("validating a GOAL file keeps to the memory limit", "[bounded]") {
  // The engine's memory for 2^16 ranks all ready at once is some 16 MiB: refused at 8 MiB.
  { std::ofstream("reversed16.goal") << reversed_gather(1U << 16); }
  const Finished f = run_collnoise({"run", goal_run_file("reversed16", "reversed16.goal"),
                                    "--validate-only", "--max-memory-gib", "0.0078125"});
  INFO(f.output);
  CHECK(f.code == 2);
  CHECK(mentions(f.output, "would need about"));
  CHECK(mentions(f.output, "of memory, beyond the limit of 8 MiB"));
}

TEST_CASE("repeated cycles count the dependencies between cycles", "[bounded]") {
  // cycles = 2 on a 2^18-rank linear scatter: the root's (N - 1)^2 = 6.9e10 dependencies between
  // its cycles, 256 GiB, were not counted (the estimate said some 50 MiB).
  write_text("scatter-cycles.toml", R"(name = "scatter-cycles"
seed = 1
samples = 4
[collective]
kind = "schedule"
algorithm = "linear_scatter"
N = 262144
cycles = 2
)");
  const Finished f =
      run_collnoise({"run", "scatter-cycles.toml", "--validate-only", "--max-memory-gib", "4"});
  INFO(f.output);
  CHECK(f.code == 2);
  CHECK(mentions(f.output, "memory"));
  // The repetition itself refuses before building what cannot fit.
  AlgorithmParams p;
  p.ranks = 1U << 12;
  const Schedule one = find_algorithm("linear_scatter")->generate(p);
  CHECK(cycle_join_dependencies(one.view(0), false) == 4095.0 * 4095.0);
  CHECK(cycle_joins_of(*find_algorithm("linear_scatter"), p, false) == 4095.0 * 4095.0 + 4095.0);
  // Exactly, from the rank classes of an algorithm generated on the fly.
  const AlgorithmKind& barrier = *find_algorithm("dissemination_barrier");
  const Schedule stored = barrier.generate(p);
  double joins = 0.0;
  for (std::uint32_t r = 0; r < stored.ranks(); ++r)
    joins += cycle_join_dependencies(stored.view(r), false);
  CHECK(cycle_joins_of(barrier, p, false) == joins);
}

TEST_CASE("collnoise schedule refuses what exceeds --max-memory-gib before building it",
          "[bounded]") {
  // A binomial broadcast is stored while it is built: 2^24 ranks, 2^25 operations, some 2 GiB.
  const Finished f = run_collnoise({"schedule", "binomial_broadcast", "--ranks", "16777216",
                                    "--goal", "big.goal", "--max-memory-gib", "0.5"});
  INFO(f.output);
  CHECK(f.code == 2);
  CHECK(mentions(f.output, "writing binomial_broadcast on 16777216 ranks as GOAL would need"));
  CHECK(f.seconds < 2.0);
  CHECK_FALSE(fs::exists("big.goal"));
  CHECK_FALSE(fs::exists("big.goal.lock"));
  // N^2 operations on the fly: terabytes of text, refused as such.
  const Finished huge = run_collnoise(
      {"schedule", "pairwise_alltoall", "--ranks", "16777216", "--goal", "huge.goal"});
  INFO(huge.output);
  CHECK(huge.code == 2);
  CHECK(mentions(huge.output, "operations, beyond"));
}

TEST_CASE("collnoise schedule streams a schedule generated on the fly", "[bounded]") {
  // A dissemination barrier written from its rank classes, never stored: the same
  // text as the stored schedule gives.
  AlgorithmParams p;
  p.ranks = 1000;
  const AlgorithmKind& barrier = *find_algorithm("dissemination_barrier");
  std::ostringstream stored, streamed;
  write_goal(barrier.generate(p), stored);
  write_goal(*barrier.generate_on_the_fly(p), streamed);
  CHECK(stored.str() == streamed.str());
  // 2^17 ranks, 4.5e6 operations: 150 MB stored, written within 64 MiB.
  const Finished f =
      run_collnoise({"schedule", "dissemination_barrier", "--ranks", "131072", "--goal",
                     "stream.goal", "--force", "--max-memory-gib", "0.0625"});
  INFO(f.output);
  CHECK(f.code == 0);
  if (kResidentMemoryIsOurs) CHECK(f.peak_bytes < 0.0625 * kGiB);
  fs::remove("stream.goal");
}

TEST_CASE("collnoise schedule --goal stops on SIGTERM: message, exit 3, no temporary, no lock",
          "[bounded]") {
  // 2^21 ranks, 9e7 operations: many seconds of writing; stopped after one.
  fs::remove("stopped.goal");
  const Finished f = run_collnoise(
      {"schedule", "dissemination_barrier", "--ranks", "2097152", "--goal", "stopped.goal"}, 1.0);
  INFO(f.output);
  CHECK(f.code == 3);
  CHECK(mentions(f.output, "interrupted by signal 15 while writing 'stopped.goal'"));
  CHECK(f.seconds < kStopBound);
  CHECK_FALSE(fs::exists("stopped.goal"));
  CHECK_FALSE(fs::exists("stopped.goal.lock"));
  for (const auto& entry : fs::directory_iterator("."))
    CHECK_FALSE(entry.path().filename().string().starts_with("stopped.goal.tmp"));
  // The next run finds nothing in its way and leaves nothing behind.
  const Finished again = run_collnoise(
      {"schedule", "dissemination_barrier", "--ranks", "16", "--goal", "stopped.goal"});
  INFO(again.output);
  CHECK(again.code == 0);
  CHECK(fs::exists("stopped.goal"));
  CHECK_FALSE(fs::exists("stopped.goal.lock"));
}

}  // namespace collnoise
