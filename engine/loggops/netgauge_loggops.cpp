#include "engine/loggops/netgauge_loggops.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"

namespace collnoise {

LogGops to_loggops(const NetgaugeLogGP& params, std::uint64_t message_bytes) {
  if (message_bytes < 1)
    throw InputError(
        fmt::format("LogGOPS needs a message size of at least 1 byte, got {}", message_bytes));
  return {.L = params.L,
          .o = params.o,
          .g = params.g,
          .G = params.G,
          .O = 0.0,
          .message_bytes = message_bytes};
}

}  // namespace collnoise
