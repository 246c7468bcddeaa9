// How collnoise's threads wait (core/thread_policy.hpp), and loops whose grain changed for it give
// the same bits at any thread count.
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "core/parallel_for.hpp"
#include "core/thread_policy.hpp"
#include "distributions/time_noise.hpp"
#include "engine/tree_barrier/sampler.hpp"
#include "engine/tree_barrier/timed_tree_barrier.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/tree_barrier_models.hpp"

using namespace collnoise;
using collnoise::testing::run_command_line;

TEST_CASE("thread policy: a user's OMP_WAIT_POLICY or GOMP_SPINCOUNT is a choice, empty is none") {
  CHECK_FALSE(user_chose_openmp_wait(nullptr, nullptr));
  CHECK_FALSE(user_chose_openmp_wait("", ""));
  CHECK(user_chose_openmp_wait("active", nullptr));
  CHECK(user_chose_openmp_wait("passive", nullptr));
  CHECK(user_chose_openmp_wait(nullptr, "10000"));
  CHECK(user_chose_openmp_wait("", "0"));
}

namespace {

// The command's OpenMP settings as libgomp prints them when it starts (OMP_DISPLAY_ENV): the
// last process's, after the one that executed the program again.
std::string openmp_settings(const std::string& environment) {
  const auto r = run_command_line(
      "--version",
      "env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT OMP_DISPLAY_ENV=verbose " + environment);
  INFO(r.output);
  REQUIRE(r.code == 0);
  const auto begin = r.output.rfind("OPENMP DISPLAY ENVIRONMENT BEGIN");
  REQUIRE(begin != std::string::npos);
  return r.output.substr(begin);
}

}  // namespace

TEST_CASE("thread policy: collnoise's threads sleep when they wait, unless the user chose") {
  // Nothing set: passive, libgomp spins 0 times before it sleeps.
  const std::string adopted = openmp_settings("");
  INFO(adopted);
  CHECK(adopted.find("OMP_WAIT_POLICY = 'PASSIVE'") != std::string::npos);
  CHECK(adopted.find("GOMP_SPINCOUNT = '0'") != std::string::npos);
  // The user's choice wins, either variable.
  const std::string active = openmp_settings("OMP_WAIT_POLICY=active");
  INFO(active);
  CHECK(active.find("OMP_WAIT_POLICY = 'ACTIVE'") != std::string::npos);
  CHECK(active.find("GOMP_SPINCOUNT = '0'") == std::string::npos);
  const std::string counted = openmp_settings("GOMP_SPINCOUNT=12345");
  INFO(counted);
  CHECK(counted.find("GOMP_SPINCOUNT = '12345'") != std::string::npos);
}

TEST_CASE("thread policy: parallel_for with a grain gives the same slots at 1 and 2 threads") {
  // Every index once, whatever the chunk and the thread count.
  for (const std::int64_t chunk : {1, 7, 64, 1000}) {
    std::vector<std::uint64_t> one(5000), two(5000);
    const auto fill = [](std::vector<std::uint64_t>& out) {
      return [&out](std::int64_t i) { out[static_cast<std::size_t>(i)] += 3 * i + 1; };
    };
    parallel_for(5000, 1, fill(one), chunk);
    parallel_for(5000, 2, fill(two), chunk);
    CHECK(one == two);
    CHECK(two[4999] == 3 * 4999 + 1);
  }
}

TEST_CASE("thread policy: the timed tree barrier, shared per phase, gives the same bits") {
  // 2^15 + 5 ranks (a partial last level) and 2^14 (the smallest tree whose phases threads
  // share): the subtrees in parallel, then the levels above, as level by level on one thread.
  const auto noise = periodic_noise(2e-5, 3e-6);
  for (const std::uint64_t ranks : {std::uint64_t{1} << 14, (std::uint64_t{1} << 15) + 5}) {
    const TimedTreeSetup setup{ranks, 1e-5, 1e-6, 3};
    PatternCpu serial_cpu(*noise.pattern, 11, setup.ranks);
    const auto serial = simulate_timed_tree(setup, serial_cpu, 1);
    PatternCpu shared_cpu(*noise.pattern, 11, setup.ranks);
    const auto shared = simulate_timed_tree(setup, shared_cpu, 2);
    CHECK(shared.phase_end == serial.phase_end);
    CHECK(serial.phase_end.size() == 3);
  }
}

TEST_CASE("thread policy: per-rank phases, blocks handed out one at a time, same bits") {
  // 5 blocks of 2^16 ranks and 2 phases: threads share each phase's blocks.
  const auto m = test_model((std::uint64_t{5} << 16) - 3,
                            LawSpec{"exponential", {{"f", 0.05}}, "", {}, "noise"});
  std::vector<double> one(2), two(2);
  TreeBarrierSampler(m, TreeSampling::kPerRank, 77).sample(0, one, 1);
  TreeBarrierSampler(m, TreeSampling::kPerRank, 77).sample(0, two, 2);
  CHECK(one == two);
  CHECK(one[0] != one[1]);
}
