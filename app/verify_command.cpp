// collnoise verify FILE...: checks each file's seal (outputs/file_seal.hpp) without reading it
// further, so a copied or archived result can be checked before anything parses it.
#include <fmt/format.h>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "app/messages.hpp"
#include "core/errors.hpp"
#include "outputs/file_seal.hpp"

namespace collnoise {

int verify_command(const std::vector<std::string>& paths) {
  int code = exit_code::kSuccess;
  for (const auto& path : paths) {
    try {
      if (verify_seal(path) == SealState::kSealed)
        fmt::print("{}: whole (checksum matches)\n", path);
      else
        fmt::print(
            "{}: no checksum (written before collnoise sealed its files, or by another "
            "program): cannot be verified\n",
            path);
    } catch (const InputError& e) {
      fmt::print(stderr, "collnoise: error: {}\n", one_line(e.what()));
      code = exit_code::kBadInput;
    }
  }
  return code;
}

}  // namespace collnoise
