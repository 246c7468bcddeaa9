// A user's background job beside a collective (docs/models/contention.md, "A background job"):
// its ranks after the collective's, its messages on the same links, the collective's ranks the
// only ones timed.
#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <string>

#include "engine/network/contention_spec.hpp"
#include "engine/network/topology_keys.hpp"
#include "engine/schedules/engine/schedule_engine_impl.hpp"
#include "engine/schedules/engine/schedule_noise.hpp"
#include "engine/schedules/goal/goal_reader.hpp"
#include "engine/schedules/schedule/background_job.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/schedule_nets.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;
using collnoise::test::net_of;

namespace {

// One 1000-byte message from rank 0 to rank 1.
const std::string kPair =
    "num_ranks 2\nrank 0 {\nl1: send 1000b to 1 tag 0\n}\nrank 1 {\nl1: recv 1000b from 0 tag "
    "0\n}\n";

// Two leaves of two endpoints under one top switch: endpoints 0 and 1 send up the same link and
// endpoints 2 and 3 take the same link down. Ranks on endpoints 0, 2, 1, 3: the collective's
// message (0 -> 2) and the job's (1 -> 3) share both.
ScheduleNet shared_leaves(ContentionModel model) {
  ScheduleNet net = net_of(100, 10, 5, 1, 0, 65535);
  auto spec = std::make_shared<ContentionSpec>();
  spec->topology = parse_topology("xgft(2; 2,2; 1,1)");
  spec->model = model;
  spec->bytes_per_ns = 1.0;
  spec->endpoint_of = {0, 2, 1, 3};
  net.contention = std::move(spec);
  return net;
}

ScheduleRun quiet_run(const Schedule& s, const ScheduleNet& net) {
  QuietSchedule quiet;
  ScheduleRun run = simulate_schedule(s, net, quiet);
  REQUIRE(run.complete);
  return run;
}

}  // namespace

TEST_CASE("background job: its ranks follow the collective's, its peers moved past them") {
  const Schedule job = read_goal_text(
      "num_ranks 3\nrank 0 {\nl1: send 8b to 2 tag 4\n}\nrank 1 {\n}\n"
      "rank 2 {\nl1: recv 8b from -1 tag 4\n}\n",
      "job.goal");
  const Schedule both = with_background_job(AnySchedule(read_goal_text(kPair, "pair.goal")), job);
  REQUIRE(both.ranks() == 5);
  CHECK(both.timed_ranks() == 2);
  CHECK(both.operations() == 4);
  CHECK(both.peer(both.first_op(0)) == 1);  // the collective's own, unmoved
  CHECK(both.peer(both.first_op(2)) == 4);  // job rank 2 is rank 4
  CHECK(both.tag(both.first_op(2)) == 4);
  CHECK(both.peer(both.first_op(4)) == kAnyPeer);  // any source stays any
  CHECK(both.ops_of(3) == 0);
}

TEST_CASE("background job: its message on the collective's links, as one schedule of both") {
  const Schedule pair = read_goal_text(kPair, "pair.goal");
  const Schedule both = with_background_job(AnySchedule(pair), pair);
  // The same four ranks as one schedule whose every rank is timed.
  const Schedule together = read_goal_text(
      "num_ranks 4\nrank 0 {\nl1: send 1000b to 1 tag 0\n}\nrank 1 {\nl1: recv 1000b from 0 tag "
      "0\n}\nrank 2 {\nl1: send 1000b to 3 tag 0\n}\nrank 3 {\nl1: recv 1000b from 2 tag 0\n}\n",
      "together.goal");
  for (const ContentionModel model : {ContentionModel::kSimple, ContentionModel::kFlows}) {
    const ScheduleNet net = shared_leaves(model);
    const ScheduleRun with_job = quiet_run(both, net);
    const ScheduleRun one = quiet_run(together, net);
    REQUIRE(with_job.finish.size() == 2);  // the job's ranks are not timed
    CHECK(with_job.finish[0] == one.finish[0]);
    CHECK(with_job.finish[1] == one.finish[1]);
    CHECK(with_job.untimed_finish == std::max(one.finish[2], one.finish[3]));
  }
  // By hand, simple model (L 100, o 10 ns, G 1 ns a byte): alone, the message leaves at its
  // 1000 bytes' 1000 ns, and its receive takes o + (s - 1)G = 1009 ns on the CPU: done at 2009.
  // Beside the job's, both count 2 on the shared links from time 0 and move half a byte per ns:
  // they leave at 2000 ns, received by 3009.
  const Schedule alone = read_goal_text(
      "num_ranks 4\nrank 0 {\nl1: send 1000b to 1 tag 0\n}\nrank 1 {\nl1: recv 1000b from 0 tag "
      "0\n}\nrank 2 {\n}\nrank 3 {\n}\n",
      "alone.goal");
  CHECK(quiet_run(alone, shared_leaves(ContentionModel::kSimple)).finish[1] == 2009.0);
  const ScheduleRun simple = quiet_run(both, shared_leaves(ContentionModel::kSimple));
  CHECK(simple.finish[1] == 3009.0);
  CHECK(simple.untimed_finish == 3009.0);
}

TEST_CASE("background job: a run file's job, its summary, the same on 1 and 2 threads") {
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  // The job: 8 ranks exchanging 1 MiB in pairs across the tree, on the 8 endpoints after the
  // collective's (linear placement), drawn anew with random placement.
  std::string job = "num_ranks 8\n";
  for (int r = 0; r < 8; ++r)
    job += fmt::format(
        "rank {} {{\nl1: send 1048576b to {} tag 0\nl2: recv 1048576b from {} tag 0\n}}\n", r,
        (r + 4) % 8, (r + 4) % 8);
  write_text("background-job.goal", job);
  const std::string run = R"toml(name = "j"
seed = 3
samples = 4
[collective]
kind = "schedule"
algorithm = "recursive_doubling_allreduce"
N = 8
message_bytes = 65536
[loggops]
L = 1.0e-6
o = 1.0e-7
g = 5.0e-8
G = 1.0e-10
[noise]
law = "periodic"
P = 1.0e-5
D = 1.0e-6
[network]
topology = "xgft(2; 4,4; 1,2)"
contention = "flows"
placement = "random"
background_schedule = "background-job.goal"
)toml";
  write_text("background-job.toml", run);
  for (const char* out : {"background-job1.h5", "background-job2.h5"}) std::filesystem::remove(out);
  REQUIRE(run_command_line("run background-job.toml --out background-job1.h5 --threads 1 --quiet")
              .code == 0);
  REQUIRE(run_command_line("run background-job.toml --out background-job2.h5 --threads 2 --quiet")
              .code == 0);
  const auto one = run_command_line("summary background-job1.h5 --json").output;
  CHECK(one == run_command_line("summary background-job2.h5 --json").output);
  CHECK_THAT(one, Contains("\"background_job_ranks\": 8") &&
                      Contains("\"background_job\": \"GOAL file ") && Contains("\"ranks\": 8"));
  // The replay's link load spans the job's messages, which outlast the collective here.
  const auto links = run_command_line(
      "timeline background-job1.h5 --sample 1 --out background-job-tl.json --links "
      "background-job-links.json --force");
  CHECK(links.code == 0);
  CHECK_THAT(links.output, Contains("wrote background-job-links.json"));
  // Without a topology, or with a benchmark loop, refused with the key.
  write_text("background-job-bare.toml",
             collnoise::testing::replace_text(
                 run,
                 "topology = \"xgft(2; 4,4; 1,2)\"\ncontention = \"flows\"\nplacement = "
                 "\"random\"\n",
                 ""));
  const auto bare = run_command_line("run background-job-bare.toml --out bj-bare.h5 --quiet");
  CHECK(bare.code != 0);
  CHECK_THAT(bare.output, Contains("network.background_schedule"));
  // The job's ranks need endpoints of their own.
  write_text("background-job-big.toml", collnoise::testing::replace_text(run, "N = 8", "N = 16"));
  const auto big = run_command_line("run background-job-big.toml --out bj-big.h5 --quiet");
  CHECK(big.code != 0);
  CHECK_THAT(big.output, Contains("network.background_schedule: its 8 ranks beside the "
                                  "collective's 16 need 24 endpoints"));
  write_text("background-job-loop.toml", run + "[loop]\niterations = 3\n");
  const auto loop = run_command_line("run background-job-loop.toml --out bj-loop.h5 --quiet");
  CHECK(loop.code != 0);
  CHECK_THAT(loop.output, Contains("network.background_schedule") && Contains("loop"));
}
