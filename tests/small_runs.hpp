#pragma once
// Run files shared by the end-to-end tests of the commands that read results (timeline, compare,
// summary, verify, merge): a recursive-doubling allreduce of a few ranks under periodic noise,
// cheap enough to run in well under a second. One text, so that a test that needs a small
// schedule result does not carry a copy of its own.
#include <cstdint>
#include <string>

namespace collnoise::testing {

struct SmallScheduleRun {
  std::string name;
  std::uint64_t seed = 3;
  std::uint64_t samples = 8;
  int log2_N = 3;
  bool raw_samples = false;      ///< [output] raw_samples = true (compare needs them)
  std::string collective_extra;  ///< more lines of [collective] ("finish_sample = 5\n")
};

/// The text of the run file: 8-byte messages, L = 1 us, o = 100 ns, G = 1 ns/B, a 1 us detour
/// every 10 us.
inline std::string small_schedule_run(const SmallScheduleRun& run) {
  return "name = \"" + run.name + "\"\nseed = " + std::to_string(run.seed) +
         "\nsamples = " + std::to_string(run.samples) +
         "\n[collective]\nkind = \"schedule\"\nalgorithm = \"recursive_doubling_allreduce\"\n"
         "log2_N = " +
         std::to_string(run.log2_N) + "\nmessage_bytes = 8\n" + run.collective_extra +
         "[loggops]\nL = 1.0e-6\no = 1.0e-7\ng = 0.0\nG = 1.0e-9\n"
         "[noise]\nlaw = \"periodic\"\nP = 1.0e-5\nD = 1.0e-6\n" +
         (run.raw_samples ? "[output]\nraw_samples = true\n" : "");
}

}  // namespace collnoise::testing
