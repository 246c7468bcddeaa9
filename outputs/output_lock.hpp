#pragma once
// One writer per output. A run (or merge) holds an exclusive lock on `<out>.lock` from before it
// samples until it exits, so a second run started with the same output, by a script launched
// twice or a job array with a typo, is refused at once instead of silently replacing the first
// one's result and checkpoints. The lock file records the holder's host, pid and start time:
//  - held (the kernel's lock, fcntl): refused, naming the holder;
//  - left by a process of this host that no longer runs (SIGKILL, a crash): taken over, with a
//    note;
//  - recorded by another host: never taken over automatically (that run may still be going);
//    the message says how to remove it;
//  - on a file system that cannot lock (some NFS or Lustre mounts), the recorded holder is
//    checked as above and the user is told once that two runs cannot be kept apart there.
// The lock is released (the file removed) when the holder is destroyed, on every exit path that
// unwinds; after SIGKILL the next run takes it over.
#include <functional>
#include <string>

namespace collnoise {

class OutputLock {
 public:
  using Note = std::function<void(const std::string&)>;

  /// Takes the lock of output `path`. InputError (exit 2) naming the holder when another run
  /// holds it; RuntimeFailure when the lock file cannot be created. `note` receives remarks
  /// (a stale lock taken over, a file system without locks).
  OutputLock(const std::string& path, const Note& note);
  OutputLock(OutputLock&& other) noexcept;
  OutputLock& operator=(OutputLock&& other) noexcept;
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;
  ~OutputLock();

  /// `<path>.lock`.
  static std::string lock_path(const std::string& path);

 private:
  void release() noexcept;
  std::string lock_;
  int fd_ = -1;
};

}  // namespace collnoise
