#pragma once
// Helpers of the end-to-end tests: run the collnoise command, write run files (into the suite's
// scratch directory, see tests_main.cpp), edit their text.
#include <sys/wait.h>
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>

namespace collnoise::testing {

struct CommandResult {
  int code = 0;
  std::string output;  ///< stdout and stderr
};

/// Runs a shell command line, capturing stdout and stderr.
inline CommandResult run_shell(const std::string& command) {
  CommandResult r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  char buf[4096];
  while (fgets(buf, sizeof buf, pipe)) r.output += buf;
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// Runs `prefix collnoise args`, e.g. prefix "mpirun -np 2".
inline CommandResult run_command_line(const std::string& args, const std::string& prefix = "") {
  return run_shell((prefix.empty() ? "" : prefix + " ") + std::string(COLLNOISE_BINARY) + " " +
                   args);
}

inline std::string write_text(const std::string& name, const std::string& text) {
  std::ofstream(name) << text;
  return name;
}

inline std::string replace_text(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

/// The bytes of a file (empty when it cannot be read).
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::size_t count_lines_starting(const std::string& text, const std::string& prefix) {
  std::size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) ++n;
  return n;
}

/// Bad input refused as promised: exit 2, exactly one error line, holding every one of
/// `needles`, and no HDF5 error stack.
inline void expect_refused(const CommandResult& r, std::initializer_list<std::string> needles) {
  INFO(r.output);
  CHECK(r.code == 2);
  CHECK(count_lines_starting(r.output, "collnoise: error:") == 1);
  for (const auto& n : needles) CHECK(r.output.find(n) != std::string::npos);
  CHECK(r.output.find("HDF5-DIAG") == std::string::npos);
}

}  // namespace collnoise::testing
