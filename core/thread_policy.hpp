#pragma once
// How collnoise's OpenMP threads wait (docs/cli.md, "Threads on a shared machine"). libgomp's
// default is to spin for a few milliseconds before it sleeps, at every join and between parallel
// loops. On a machine of its own that costs nothing; on a shared node (another job on a core, a
// hyper-thread sibling) the spinning thread takes the core that the thread it waits for needs,
// and two threads end up slower than one. collnoise therefore runs with OMP_WAIT_POLICY=passive
// (threads sleep as soon as they wait) unless the user chose how OpenMP threads wait.

namespace collnoise {

/// The waiting policy collnoise runs with when the user set none.
inline constexpr const char* kWaitPolicyVariable = "OMP_WAIT_POLICY";
inline constexpr const char* kDefaultWaitPolicy = "passive";

/// Whether these values of OMP_WAIT_POLICY and GOMP_SPINCOUNT (nullptr: unset) are a user's
/// choice of how OpenMP threads wait: either one set and not empty.
bool user_chose_openmp_wait(const char* omp_wait_policy, const char* gomp_spincount) noexcept;

/// Unless the user chose (user_chose_openmp_wait on the environment), sets OMP_WAIT_POLICY to
/// kDefaultWaitPolicy and executes this program again with the same arguments: libgomp reads
/// its environment once, when it is loaded, before main runs, so setting it later has no effect.
/// Call it first thing in main, before any thread exists. Returns when nothing was to be done,
/// or when the program could not be executed again (it then runs on with libgomp's default).
void adopt_default_openmp_wait(char** argv) noexcept;

}  // namespace collnoise
