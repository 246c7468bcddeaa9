#include "core/thread_policy.hpp"

#include <unistd.h>
#include <cstdlib>

namespace collnoise {

bool user_chose_openmp_wait(const char* omp_wait_policy, const char* gomp_spincount) noexcept {
  const auto given = [](const char* value) { return value != nullptr && *value != '\0'; };
  return given(omp_wait_policy) || given(gomp_spincount);
}

void adopt_default_openmp_wait(char** argv) noexcept {
  if (user_chose_openmp_wait(std::getenv("OMP_WAIT_POLICY"), std::getenv("GOMP_SPINCOUNT"))) return;
  // The program run again finds the variable set and goes on: this happens once.
  if (setenv(kWaitPolicyVariable, kDefaultWaitPolicy, 1) != 0) return;
  execv("/proc/self/exe", argv);
}

}  // namespace collnoise
