// The test suite itself: ctest runs each Catch2 test case by its name, so a name that starts
// with '-' is read by Catch2 as an option ("--out ..." ran the whole suite into a file),
// and one holding ';' is split by CMake.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

TEST_CASE("no test case name starts with a dash", "[hygiene]") {
  const std::string opening = std::string("TEST_CASE(\"") + "-";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           std::string(COLLNOISE_SOURCE_DIR) + "/tests")) {
    if (entry.path().extension() != ".cpp") continue;
    std::ifstream in(entry.path());
    int number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      INFO(entry.path().lexically_relative(COLLNOISE_SOURCE_DIR).string()
           << ":" << number << ": " << line);
      CHECK(line.find(opening) == std::string::npos);
    }
  }
}

// ctest's test names come from a CMake list, which ';' splits: a name holding one became two
// half-names that ran nothing.
TEST_CASE("no test case name holds a semicolon", "[hygiene]") {
  const auto& tests = Catch::getRegistryHub().getTestCaseRegistry().getAllTests();
  REQUIRE_FALSE(tests.empty());  // this one at least
  for (const Catch::TestCase& test : tests) {
    INFO(test.name);
    CHECK(test.name.find(';') == std::string::npos);
  }
}
