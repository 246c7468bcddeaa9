// Where a schedule point's time and noise went (output.critical_path, path_attribution.hpp): the
// fields a run writes, worked by hand on a noiseless barrier, equal for any threads and across
// parts and merge, and refused where a model records no path.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>

#include "tests/fixtures/command_line.hpp"

using namespace collnoise::testing;

namespace {

const char* const kNoisyRun = R"(name = "attribution"
seed = 7
samples = 24
chunk_size = 3
[output]
critical_path = true
[collective]
kind = "schedule"
algorithm = "recursive_doubling_allreduce"
log2_N = 4
message_bytes = 8
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

// The point's fields without those that say how long it took.
nlohmann::json without_timing(nlohmann::json point) {
  for (auto it = point.begin(); it != point.end();)
    it = it.key().find("seconds") != std::string::npos ? point.erase(it) : std::next(it);
  return point;
}

const char* const kCategories[] = {"calc", "overhead", "gap", "wire", "noise", "rendezvous"};

}  // namespace

TEST_CASE("path attribution: a noiseless dissemination barrier, by hand") {
  // 4 ranks, 2 rounds of send (o = 100 ns), wire (L = 1 us), receive (o): the path is
  // 2 (o + L + o) = 2.4 us, 400 ns of overhead and 2 us of wire, and every rank ends at once.
  write_text("pa_quiet.toml", R"(name = "quiet"
seed = 1
samples = 2
[output]
critical_path = true
[collective]
kind = "schedule"
algorithm = "dissemination_barrier"
N = 4
message_bytes = 1
[loggops]
L = 1.0e-6
o = 1.0e-7
g = 0.0
G = 0.0
)");
  REQUIRE(run_command_line("run pa_quiet.toml --out pa_quiet.h5 --force --quiet").code == 0);
  const nlohmann::json p = first_point("pa_quiet.h5");
  CHECK(p["completion_mean"].get<double>() == Approx(2.4e-6).epsilon(1e-12));
  CHECK(p["path_overhead_mean"].get<double>() == Approx(4e-7).epsilon(1e-12));
  CHECK(p["path_wire_mean"].get<double>() == Approx(2e-6).epsilon(1e-12));
  CHECK(p["path_overhead_noiseless"].get<double>() == Approx(4e-7).epsilon(1e-12));
  CHECK(p["path_noise_mean"].get<double>() == 0.0);
  CHECK(p["path_noise_excess"].get<double>() == 0.0);
  CHECK(p["absorption_ratio"].is_null());
  // All four ranks tie: each finishes last in a quarter of the samples.
  CHECK(p["last_rank_share"] == nlohmann::json::array({0.25, 0.25, 0.25, 0.25}));
  CHECK(p["last_rank_top"] == nlohmann::json::array({0.0, 1.0, 2.0, 3.0}));
}

TEST_CASE("path attribution: categories add up to the completion, and noise is partly absorbed") {
  write_text("pa_noisy.toml", kNoisyRun);
  REQUIRE(run_command_line("run pa_noisy.toml --out pa_noisy.h5 --force --quiet").code == 0);
  const nlohmann::json p = first_point("pa_noisy.h5");
  double sum = 0.0;
  for (const char* c : kCategories) sum += p[std::string("path_") + c + "_mean"].get<double>();
  // Means of per-sample sums that are exact to an ulp.
  CHECK(sum == Approx(p["completion_mean"].get<double>()).epsilon(1e-12));
  const double absorbed = p["absorption_ratio"].get<double>();
  CHECK(absorbed > 0.0);
  CHECK(absorbed < 1.0);
  CHECK(p["absorption_ratio_ci_low"].get<double>() <= absorbed);
  CHECK(p["absorption_ratio_ci_high"].get<double>() >= absorbed);
  CHECK(p["path_noise_mean"].get<double>() <= p["noise_charged_mean"].get<double>());
  // The path's noise by step adds up to its noise (each step's a single-precision sum).
  double by_step = 0.0;
  for (const auto& x : p["path_noise_by_step"]) by_step += x.get<double>();
  CHECK(by_step == Approx(p["path_noise_mean"].get<double>()).epsilon(1e-6));
}

TEST_CASE("path attribution: the same for any threads, and across parts and merge") {
  write_text("pa_same.toml", kNoisyRun);
  REQUIRE(run_command_line("run pa_same.toml --out pa_t1.h5 --force --quiet --threads 1").code ==
          0);
  REQUIRE(run_command_line("run pa_same.toml --out pa_t2.h5 --force --quiet --threads 2").code ==
          0);
  for (const std::string part : {"1", "2"})
    REQUIRE(run_command_line("run pa_same.toml --part " + part + "/2 --out pa_part" + part +
                             ".h5 --force --quiet")
                .code == 0);
  REQUIRE(
      run_command_line("merge pa_part1.h5 pa_part2.h5 --out pa_merged.h5 --force --quiet").code ==
      0);
  const nlohmann::json one = without_timing(first_point("pa_t1.h5"));
  CHECK(one == without_timing(first_point("pa_t2.h5")));
  CHECK(one == without_timing(first_point("pa_merged.h5")));
}

#ifdef COLLNOISE_WITH_MPI
TEST_CASE("path attribution: the same for any number of MPI processes", "[mpi]") {
  // Open MPI refuses root unless told (CI runs as root); leak checks off for Open MPI's own
  // allocations under AddressSanitizer.
  const std::string mpirun =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0 "
      "mpirun --oversubscribe -np ";
  write_text("pa_mpi.toml", kNoisyRun);
  REQUIRE(run_command_line("run pa_mpi.toml --out pa_mpi1.h5 --force --quiet --threads 2").code ==
          0);
  const nlohmann::json one = without_timing(first_point("pa_mpi1.h5"));
  for (const std::string np : {"2", "3"}) {
    const auto r = run_command_line("run pa_mpi.toml --out pa_mpin.h5 --force --quiet --threads 1",
                                    mpirun + np);
    INFO(r.output);
    REQUIRE(r.code == 0);
    CHECK(one == without_timing(first_point("pa_mpin.h5")));
  }
}
#endif

TEST_CASE("path attribution: refused where a model records no critical path") {
  write_text("pa_tree.toml", R"(name = "tree"
seed = 1
samples = 10
[output]
critical_path = true
[collective]
kind = "tree_barrier"
N = 15
[noise]
law = "exponential"
f = 0.1
)");
  expect_refused(run_command_line("run pa_tree.toml --out pa_tree.h5 --force"),
                 {"pa_tree.toml", "output.critical_path", "docs/models/critical-path.md"});
}

TEST_CASE("path attribution: an interrupted run resumes to the same attribution") {
  write_text("pa_resume.toml", kNoisyRun);
  REQUIRE(run_command_line("run pa_resume.toml --out pa_plain.h5 --force --quiet").code == 0);
  std::remove("pa_stopped.h5");
  std::remove("pa_stopped.h5.ckpt");
  const auto first = run_command_line(
      "run pa_resume.toml --out pa_stopped.h5 --quiet --threads 1 --interrupt-after-chunks 2");
  INFO(first.output);
  REQUIRE(first.code == 3);
  REQUIRE(
      run_command_line("run pa_resume.toml --out pa_stopped.h5 --quiet --resume pa_stopped.h5.ckpt")
          .code == 0);
  CHECK(without_timing(first_point("pa_plain.h5")) == without_timing(first_point("pa_stopped.h5")));
}
