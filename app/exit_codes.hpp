#pragma once
// Exit codes of the collnoise command (docs/cli.md).
namespace collnoise::exit_code {
inline constexpr int kSuccess = 0;
inline constexpr int kRuntimeFailure = 1;  ///< I/O, HDF5, resources
inline constexpr int kBadInput = 2;        ///< command line, run file, parameters, traces
inline constexpr int kInterrupted = 3;     ///< stopped by a signal; a checkpoint was written
}  // namespace collnoise::exit_code
