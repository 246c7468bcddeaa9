#include "runs/work_split.hpp"

#include <fmt/format.h>
#include <charconv>

#include "core/errors.hpp"

namespace collnoise {

PartSpec parse_part(const std::string& text) {
  PartSpec part;
  const auto slash = text.find('/');
  const auto parse = [&](std::string_view digits, std::uint64_t& value) {
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return ec == std::errc() && end == digits.data() + digits.size() && !digits.empty();
  };
  const std::string_view all(text);
  if (slash == std::string::npos || !parse(all.substr(0, slash), part.index) ||
      !parse(all.substr(slash + 1), part.count) || part.index < 1 || part.index > part.count)
    throw InputError(fmt::format(
        "--part '{}' is invalid: give i/n with 1 <= i <= n (part i of a job array of n)", text));
  return part;
}

std::string to_string(const PartSpec& part) {
  return fmt::format("{}/{}", part.index, part.count);
}

ChunkRange part_range(std::uint64_t chunks, const PartSpec& part) {
  // 128-bit products: chunks * index cannot overflow.
  __extension__ using Wide = unsigned __int128;
  const auto at = [&](std::uint64_t i) {
    return static_cast<std::uint64_t>(static_cast<Wide>(chunks) * i / part.count);
  };
  return {at(part.index - 1), at(part.index)};
}

std::span<const std::uint64_t> process_share(std::span<const std::uint64_t> chunks, int rank,
                                             int size) {
  const std::size_t n = chunks.size();
  const auto r = static_cast<std::size_t>(rank), k = static_cast<std::size_t>(size);
  const std::size_t base = n / k, extra = n % k;
  const std::size_t begin = r * base + std::min(r, extra);
  return chunks.subspan(begin, base + (r < extra ? 1 : 0));
}

}  // namespace collnoise
