#pragma once
// What the command line says besides results, one line each on stderr: `collnoise: note: ...`
// (a remark), `collnoise: warning: ...` (something went wrong, the run goes on), and plain
// `collnoise: ...` lines (an interruption). Errors are printed by main (docs/cli.md). Under MPI
// only rank 0 speaks.
#include <string>

#include "outputs/hdf5.hpp"

namespace collnoise {

/// The message with line breaks turned into spaces: every message is one line.
std::string one_line(std::string message);

void print_note(const std::string& message);
void print_warning(const std::string& message);
void print_message(const std::string& message);

/// How commands open files: verified unless --no-verify, notes printed.
h5::ReadOptions read_options(bool verify);

}  // namespace collnoise
