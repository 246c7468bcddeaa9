#include "core/process_group.hpp"

#include <cstdlib>
#include <stdexcept>

#ifdef COLLNOISE_WITH_MPI
#include <mpi.h>
#endif

namespace collnoise {
namespace {

ProcessGroup& mutable_world() {
  static ProcessGroup world;
  return world;
}

// The world size an MPI launcher (Open MPI, MPICH/Hydra, Slurm with PMI) announces, 0 if none.
int launcher_world_size() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"})
    if (const char* v = std::getenv(var)) return std::atoi(v);
  return 0;
}

#ifdef COLLNOISE_WITH_MPI
void check(int status, const char* what) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

bool mpi_active() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  return initialised && !finalised;
}

// Started by mpirun (Open MPI, MPICH/Hydra) or srun with PMI: an MPI job.
bool launched_by_mpi() {
  return launcher_world_size() > 0 || std::getenv("PMIX_RANK");
}
#endif

}  // namespace

const ProcessGroup& ProcessGroup::world() {
  return mutable_world();
}

#ifdef COLLNOISE_WITH_MPI
namespace {
template <class T>
T allreduce(T value, MPI_Datatype type, MPI_Op op) {
  T all{};
  check(MPI_Allreduce(&value, &all, 1, type, op, MPI_COMM_WORLD), "Allreduce");
  return all;
}
}  // namespace
#endif

std::uint32_t ProcessGroup::any_bits(std::uint32_t bits) const {
#ifdef COLLNOISE_WITH_MPI
  if (size_ > 1) return allreduce(bits, MPI_UINT32_T, MPI_BOR);
#endif
  return bits;
}

std::vector<Bytes> ProcessGroup::gather_to_root(std::span<const std::byte> mine) const {
#ifdef COLLNOISE_WITH_MPI
  if (size_ > 1) {
    // Sizes first, then the buffers one by one: a tally may exceed the 2^31 bytes that one
    // Gatherv can describe.
    const auto my_size = static_cast<std::uint64_t>(mine.size());
    const auto processes = static_cast<std::size_t>(size_);
    std::vector<std::uint64_t> sizes(is_root() ? processes : 0);
    check(MPI_Gather(&my_size, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD),
          "Gather");
    constexpr std::uint64_t kPiece = std::uint64_t{1} << 30;
    if (!is_root()) {
      for (std::uint64_t at = 0; at < my_size; at += kPiece)
        check(MPI_Send(mine.data() + at, static_cast<int>(std::min(kPiece, my_size - at)), MPI_BYTE,
                       0, 7, MPI_COMM_WORLD),
              "Send");
      return {};
    }
    std::vector<Bytes> all(processes);
    all[0].assign(mine.begin(), mine.end());
    for (std::size_t r = 1; r < processes; ++r) {
      all[r].resize(sizes[r]);
      for (std::uint64_t at = 0; at < sizes[r]; at += kPiece)
        check(MPI_Recv(all[r].data() + at, static_cast<int>(std::min(kPiece, sizes[r] - at)),
                       MPI_BYTE, static_cast<int>(r), 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              "Recv");
    }
    return all;
  }
#endif
  return {Bytes(mine.begin(), mine.end())};
}

Bytes ProcessGroup::broadcast_from_root(Bytes bytes) const {
#ifdef COLLNOISE_WITH_MPI
  if (size_ > 1) {
    auto n = static_cast<std::uint64_t>(bytes.size());
    check(MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD), "Bcast");
    bytes.resize(n);
    constexpr std::uint64_t kPiece = std::uint64_t{1} << 30;
    for (std::uint64_t at = 0; at < n; at += kPiece)
      check(MPI_Bcast(bytes.data() + at, static_cast<int>(std::min(kPiece, n - at)), MPI_BYTE, 0,
                      MPI_COMM_WORLD),
            "Bcast");
  }
#endif
  return bytes;
}

void ProcessGroup::abort(int exit_code) const {
#ifdef COLLNOISE_WITH_MPI
  if (size_ > 1) MPI_Abort(MPI_COMM_WORLD, exit_code);
#endif
  std::exit(exit_code);
}

ProcessSession::ProcessSession([[maybe_unused]] int& argc, [[maybe_unused]] char**& argv) {
#ifdef COLLNOISE_WITH_MPI
  if (!launched_by_mpi()) return;
  int provided = 0;
  // Only the main thread calls MPI (between OpenMP regions).
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "Init_thread");
  initialised_ = true;
  ProcessGroup& world = mutable_world();
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &world.size_);
  MPI_Comm node;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
        "Comm_split_type");
  MPI_Comm_size(node, &world.local_size_);
  MPI_Comm_free(&node);
#endif
}

ProcessSession::~ProcessSession() {
#ifdef COLLNOISE_WITH_MPI
  if (initialised_ && mpi_active()) MPI_Finalize();
#endif
}

bool ProcessSession::launched_without_mpi_support() {
#ifdef COLLNOISE_WITH_MPI
  return false;
#else
  return launcher_world_size() > 1;
#endif
}

bool ProcessSession::mpi_built() {
#ifdef COLLNOISE_WITH_MPI
  return true;
#else
  return false;
#endif
}

std::string ProcessSession::mpi_library() {
#ifdef COLLNOISE_WITH_MPI
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string text(version, static_cast<std::size_t>(length));
  const auto end = text.find_first_of(",\n");
  return end == std::string::npos ? text : text.substr(0, end);
#else
  return "none";
#endif
}

}  // namespace collnoise
