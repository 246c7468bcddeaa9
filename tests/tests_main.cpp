// Runs the suite inside a scratch directory of its own, so that the run files, traces and HDF5
// files the tests write never land in the source tree and parallel ctest processes never share one.
#define CATCH_CONFIG_RUNNER
#include <unistd.h>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <system_error>

#include "tests/fixtures/measured_child.hpp"

int main(int argc, char* argv[]) {
  namespace fs = std::filesystem;
  // Run again as the launcher of a child whose memory is measured
  // (tests/fixtures/measured_child.hpp).
  if (argc > 1 && argv[1] == collnoise::testing::kMeasuredChildFlag)
    return collnoise::testing::run_measured_child(argc, argv);
  const fs::path scratch =
      fs::temp_directory_path() / ("collnoise-tests-" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  fs::current_path(scratch);
  const int failures = Catch::Session().run(argc, argv);
  fs::current_path(fs::temp_directory_path());
  // Kept after a failure, to inspect what the failing test wrote (listing runs return counts).
  std::error_code ignored;
  if (failures == 0 || fs::is_empty(scratch, ignored)) fs::remove_all(scratch, ignored);
  return failures;
}
