#pragma once
// Before a command writes anything: no output is a directory, its outputs may not destroy its
// inputs or each other, no other run may be writing them (locks), the temporaries of killed runs
// of this host are removed, an existing result is kept unless --force, and every output's
// directory is writable.
// Held for the whole command; the locks are released when the guard is destroyed.
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "outputs/output_lock.hpp"
#include "outputs/path_conflicts.hpp"

namespace collnoise {

class OutputGuard {
 public:
  using Note = std::function<void(const std::string&)>;

  /// `outputs`: every file the command writes (the result first); their temporaries and lock
  /// files are checked against the inputs too. InputError (exit 2) naming the paths at fault.
  /// `lock` false (benchmarks only) takes no locks.
  OutputGuard(std::span<const RolePath> inputs, std::span<const RolePath> outputs, bool force,
              const Note& note, bool lock = true);

 private:
  std::vector<OutputLock> locks_;
};

}  // namespace collnoise
