#pragma once
// Helpers of the end-to-end tests: run the collnoise command, write run files (into the suite's
// scratch directory, see tests_main.cpp), edit their text.
#include <sys/wait.h>
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
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

}  // namespace collnoise::testing
