#include "outputs/atomic_file.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <cstdio>
#include <filesystem>

#include "engine/errors.hpp"

namespace collnoise {

std::string temporary_name(const std::string& path) {
  return fmt::format("{}.tmp-{}", path, static_cast<long>(::getpid()));
}

void write_atomically(const std::string& path,
                      const std::function<void(const std::string&)>& write) {
  const std::string tmp = temporary_name(path);
  try {
    write(tmp);
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw RuntimeFailure(fmt::format("cannot rename '{}' to '{}': {}", tmp, path, ec.message()));
  }
}

}  // namespace collnoise
