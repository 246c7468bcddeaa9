// Kernels chosen at run time (core/cpu_features.hpp): every variant this machine can
// run gives the baseline's bits, kernel by kernel and for whole runs (COLLNOISE_CPU_LEVEL caps
// the level of a collnoise process).
#include <fmt/format.h>
#include <array>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/cpu_features.hpp"
#include "core/rng.hpp"
#include "engine/tree_barrier/sampler.hpp"
#include "estimators/tally_codec.hpp"
#include "outputs/result_file.hpp"
#include "runs/point_factory.hpp"
#include "runs/run_file.hpp"
#include "runs/sampling_driver.hpp"
#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/result_tallies.hpp"

using namespace collnoise;
using collnoise::testing::run_command_line;
using collnoise::testing::tally_bytes;
using collnoise::testing::write_text;

namespace {

// The levels this machine runs, the baseline first.
std::vector<CpuLevel> runnable_levels() {
  std::vector<CpuLevel> levels;
  for (const CpuLevel level : {CpuLevel::kBaseline, CpuLevel::kV3, CpuLevel::kV4})
    if (level <= supported_cpu_level()) levels.push_back(level);
  return levels;
}

}  // namespace

TEST_CASE("the selected CPU level is one the CPU supports") {
  CHECK(selected_cpu_level() <= supported_cpu_level());
  CHECK(cpu_level_name(CpuLevel::kBaseline) == "x86-64");
  CHECK(cpu_level_name(CpuLevel::kV3) == "x86-64-v3");
  CHECK(cpu_level_name(CpuLevel::kV4) == "x86-64-v4");
  const std::string report = kernel_report();
  CHECK(report.find("kernels: ") != std::string::npos);
  CHECK(report.find("math library: ") != std::string::npos);
}

TEST_CASE("every CPU variant of the 16-lane generator draws the baseline's words") {
  const auto& fill = Pcg32Lanes::fill_variants();
  const auto& min_of_next = Pcg32Lanes::min_of_next_variants();
  if (kernels_dispatched() && supported_cpu_level() >= CpuLevel::kV3) {
    CHECK(fill.v3 != fill.baseline);  // otherwise nothing below compares two variants
    CHECK(min_of_next.v3 != min_of_next.baseline);
  }
  for (const std::uint64_t key : {0ULL, 42ULL, 0xdeadbeefcafef00dULL}) {
    for (const std::size_t words : {16UL, 48UL, 1024UL, 16000UL}) {
      Pcg32Lanes reference(key);
      std::vector<std::uint64_t> expected(words);
      fill.baseline(reference, expected);
      const std::uint64_t expected_min = min_of_next.baseline(reference, 77);
      std::vector<std::uint64_t> expected_after(32);
      fill.baseline(reference, expected_after);
      for (const CpuLevel level : runnable_levels()) {
        INFO(fmt::format("{}, key {}, {} words", cpu_level_name(level), key, words));
        Pcg32Lanes lanes(key);
        std::vector<std::uint64_t> got(words);
        fill.at(level)(lanes, got);
        CHECK(got == expected);
        CHECK(min_of_next.at(level)(lanes, 77) == expected_min);
        std::vector<std::uint64_t> after(32);  // the lanes' state advanced alike
        fill.at(level)(lanes, after);
        CHECK(after == expected_after);
      }
    }
  }
}

TEST_CASE("every CPU variant of the per-level minima gives the baseline's minima") {
  const auto& variants = block_level_min_words_variants();
  if (kernels_dispatched() && supported_cpu_level() >= CpuLevel::kV3)
    CHECK(variants.v3 != variants.baseline);
  // Whole blocks, partial batches, ranges starting and ending inside levels, and ranks near the
  // top of the 64-bit range (depth 63).
  const std::vector<std::array<std::uint64_t, 2>> ranges = {
      {0, 1},
      {0, 1000},
      {5, 1029},
      {0, TreeBarrierSampler::kBlockRanks},
      {3 * TreeBarrierSampler::kBlockRanks, 4 * TreeBarrierSampler::kBlockRanks},
      {(1ULL << 40) - 3000, (1ULL << 40) + 70000},
      {(1ULL << 63) - 2000, (1ULL << 63) + 2000},
  };
  for (const auto& [first, end] : ranges) {
    std::array<std::uint64_t, 64> expected;
    expected.fill(~0ULL);
    variants.baseline(hash_combine(9, first), first, end, expected);
    for (const CpuLevel level : runnable_levels()) {
      INFO(fmt::format("{}, ranks [{}, {})", cpu_level_name(level), first, end));
      std::array<std::uint64_t, 64> got;
      got.fill(~0ULL);
      variants.at(level)(hash_combine(9, first), first, end, got);
      CHECK(got == expected);
    }
  }
}

namespace {

// A per-rank tree barrier over several blocks of ranks (the dispatched kernels) with its raw
// samples, and one with a single block and a partial batch.
const char* kPerRankRun = R"(name = "cpu-levels"
seed = 15
samples = 400
chunk_size = 100
output.raw_samples = true
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
sampling = "per_rank"
[noise]
law = "pareto"
a = 2.5
f = 0.01
[sweep]
N = [1000, 300000]
)";

}  // namespace

TEST_CASE("a whole run gives the same bits at every CPU level") {
  const std::string runfile = write_text("cpu-levels.toml", kPerRankRun);
  std::vector<std::vector<std::byte>> reference;
  for (const CpuLevel level : runnable_levels()) {
    const std::string name(cpu_level_name(level));
    INFO(name);
    const std::string result = "cpu-levels-" + name + ".h5";
    if (kernels_dispatched()) {
      const auto version = run_command_line("--version", "COLLNOISE_CPU_LEVEL=" + name);
      CHECK(version.output.find("kernels: " + name) != std::string::npos);
    }
    const auto r = run_command_line(
        fmt::format("run {} --out {} --force --quiet --threads 2", runfile, result),
        "COLLNOISE_CPU_LEVEL=" + name);
    INFO(r.output);
    REQUIRE(r.code == 0);
    const auto bytes = tally_bytes(runfile, result);
    if (reference.empty())
      reference = bytes;
    else
      CHECK(bytes == reference);
  }
}

TEST_CASE("an unknown COLLNOISE_CPU_LEVEL is named and ignored") {
  if (!kernels_dispatched()) return;  // one variant: the variable is not read
  const auto r = run_command_line("--version", "COLLNOISE_CPU_LEVEL=x86-64-v9");
  CHECK(r.code == 0);
  CHECK(r.output.find("COLLNOISE_CPU_LEVEL=x86-64-v9 is not one of") != std::string::npos);
  CHECK(r.output.find(fmt::format("kernels: {}", cpu_level_name(supported_cpu_level()))) !=
        std::string::npos);
}

TEST_CASE("the math library's variant is reported as glibc chose it") {
  if (libm_variant() == "unknown") {
    WARN("not a glibc whose exp and log variants collnoise knows: nothing to compare");
    return;
  }
  // Without FMA (masked here through glibc's own tunable) glibc runs its SSE2 variants.
  const auto r = run_command_line("--version", "GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA");
  CHECK(r.output.find("math library: glibc SSE2 variants") != std::string::npos);
}

TEST_CASE("parts and checkpoints of another math-library variant are refused, not mixed") {
  if (libm_variant() != "glibc FMA variants") {
    WARN("this CPU runs no glibc FMA variant: the other variant cannot be forced here");
    return;
  }
  const std::string other = "GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA,-FMA4";
  write_text("libm-parts.toml", R"(name = "libm-parts"
seed = 3
samples = 4000
chunk_size = 500
[collective]
kind = "tree_barrier"
N = 63
w = 1.0e-3
tau = 2.0e-6
sampling = "per_rank"
[noise]
law = "pareto"
a = 2.5
f = 0.01
)");
  const auto part1 =
      run_command_line("run libm-parts.toml --part 1/2 --out lp1.h5 --force --quiet");
  INFO(part1.output);
  REQUIRE(part1.code == 0);
  REQUIRE(
      run_command_line("run libm-parts.toml --part 2/2 --out lp2.h5 --force --quiet", other).code ==
      0);
  // Each part records its variant (root attribute libm_variant), which the merge compares.
  const auto merged = run_command_line("merge lp1.h5 lp2.h5 --out lp.h5 --force --quiet");
  CHECK(merged.code == 2);
  CHECK(merged.output.find("under glibc FMA variants and 'lp2.h5' under glibc SSE2 variants") !=
        std::string::npos);
  // A checkpoint written under one variant is not resumed under the other.
  const auto stopped = run_command_line(
      "run libm-parts.toml --out lps.h5 --force --quiet --interrupt-after-chunks 1");
  REQUIRE(stopped.code == 3);
  const auto resumed =
      run_command_line("run libm-parts.toml --out lps.h5 --quiet --resume lps.h5.ckpt", other);
  CHECK(resumed.code == 2);
  CHECK(resumed.output.find("math library") != std::string::npos);
}
