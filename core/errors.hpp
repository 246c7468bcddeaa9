#pragma once
// Typed errors of the library. They are caught once, at the command line, which maps them to
// exit codes (docs/cli.md): InputError -> 2 (the user's input is at fault), RuntimeFailure -> 1.
#include <stdexcept>
#include <string>

namespace collnoise {

/// Bad input: a malformed run file, an unknown key, an impossible parameter, an unreadable
/// trace. The message names the key, file or value at fault.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A failure while running or writing: I/O, HDF5, resources.
class RuntimeFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace collnoise
