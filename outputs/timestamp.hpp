#pragma once
// The UTC time of day as ISO 8601 ("2026-11-24T14:40:19Z"), for what files record of when they
// were written (results, lock files).
#include <ctime>
#include <string>

namespace collnoise {

inline std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace collnoise
