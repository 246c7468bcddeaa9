#pragma once
// The processes of a run: MPI's world when collnoise is built with MPI and started under mpirun,
// one process otherwise. The sampling driver needs only a few collective steps (agree on a flag,
// gather byte buffers to rank 0, broadcast bytes from rank 0), so everything MPI stays here and
// the rest of the engine does not know whether it runs on one process or many.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace collnoise {

using Bytes = std::vector<std::byte>;

class ProcessGroup {
 public:
  /// The world of this process (one process when MPI is not initialised).
  static const ProcessGroup& world();

  int rank() const { return rank_; }
  int size() const { return size_; }
  /// Processes of this run on this machine (they share its cores).
  int local_size() const { return local_size_; }
  bool is_root() const { return rank_ == 0; }

  /// Bitwise OR of every process's `bits` (a collective: every process must call it).
  std::uint32_t any_bits(std::uint32_t bits) const;
  /// On rank 0, every process's buffer in rank order (rank 0's own first); elsewhere empty.
  std::vector<Bytes> gather_to_root(std::span<const std::byte> mine) const;
  /// Rank 0's `bytes` on every process.
  Bytes broadcast_from_root(Bytes bytes) const;
  /// Ends every process at once after a failure on one of them (MPI_Abort); a plain exit with
  /// one process.
  [[noreturn]] void abort(int exit_code) const;

 private:
  friend class ProcessSession;
  int rank_ = 0;
  int size_ = 1;
  int local_size_ = 1;
};

/// Initialises MPI for the lifetime of the command when it was built in and the process was
/// started by mpirun (or its environment says it is part of an MPI job); otherwise a no-op.
class ProcessSession {
 public:
  ProcessSession(int& argc, char**& argv);
  ~ProcessSession();
  ProcessSession(const ProcessSession&) = delete;
  ProcessSession& operator=(const ProcessSession&) = delete;

  /// Whether this build can run under MPI.
  static bool mpi_built();
  /// "Open MPI 4.1.4" or "none".
  static std::string mpi_library();
  /// Started as one of several MPI processes by a build without MPI: each process would run the
  /// whole run and write the same file, so the command refuses (the message says why).
  static bool launched_without_mpi_support();

 private:
  bool initialised_ = false;
};

}  // namespace collnoise
