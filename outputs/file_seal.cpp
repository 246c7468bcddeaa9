#include "outputs/file_seal.hpp"

#include <fmt/format.h>
#include <xxhash.h>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "core/stop_request.hpp"

namespace collnoise {
namespace {

constexpr std::string_view kMagic = "collnoise sealed file 1\n";
constexpr std::string_view kHashTag = "xxh3-128 ";
constexpr std::string_view kBytesTag = "bytes ";
constexpr std::array<unsigned char, 8> kHdf5Signature = {0x89, 'H',  'D',  'F',
                                                         '\r', '\n', 0x1a, '\n'};

std::string hex_of(const XXH128_hash_t& h) {
  return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

std::string seal_text(const XXH128_hash_t& digest, std::uint64_t bytes) {
  return fmt::format("{}{}{}\n{}{}\n", kMagic, kHashTag, hex_of(digest), kBytesTag, bytes);
}

struct StateDeleter {
  void operator()(XXH3_state_t* s) const { XXH3_freeState(s); }
};

[[noreturn]] void damaged(const std::string& path, const std::string& why) {
  throw InputError(
      fmt::format("'{}' is damaged: {}; it is refused (if another program changed it on purpose, "
                  "--no-verify reads it anyway: docs/cli.md)",
                  path, why));
}

}  // namespace

namespace {
bool g_skip_seals = false;
}  // namespace

void skip_seals_for_benchmark() {
  g_skip_seals = true;
}

void seal_image(std::span<std::byte> image) {
  if (g_skip_seals) return;  // the user block stays zero: HDF5 still finds its signature at 512
  const auto payload = image.subspan(kSealBytes);
  const XXH128_hash_t digest = XXH3_128bits(payload.data(), payload.size());
  const std::string text = seal_text(digest, payload.size());
  std::memset(image.data(), 0, kSealBytes);
  std::memcpy(image.data(), text.data(), text.size());
}

InputFile open_collnoise_file(const std::string& path) {
  return InputFile::open_regular(path, fmt::format("'{}'", path), kCollnoiseFileRule);
}

SealState verify_seal(const std::string& path) {
  InputFile file = open_collnoise_file(path);
  return verify_seal(file, path);
}

SealState verify_seal(InputFile& file, const std::string& path) {
  const auto read_fully = [&](std::byte* to, std::size_t count) -> std::size_t {
    std::size_t done = 0;
    while (done < count) {
      const std::size_t n = file.read(std::span(reinterpret_cast<char*>(to) + done, count - done));
      if (n == 0) break;
      done += n;
    }
    return done;
  };
  std::array<std::byte, kSealBytes> head{};
  const std::size_t got = read_fully(head.data(), head.size());
  if (got >= kHdf5Signature.size() &&
      std::memcmp(head.data(), kHdf5Signature.data(), kHdf5Signature.size()) == 0)
    return SealState::kUnsealed;
  const std::string_view text(reinterpret_cast<const char*>(head.data()), got);
  if (got < kSealBytes || !text.starts_with(kMagic))
    throw InputError(fmt::format(
        "'{}' is neither a collnoise file nor HDF5 (no seal and no HDF5 signature at its start): "
        "damaged, or another kind of file",
        path));
  // Parse "xxh3-128 <hex>\nbytes <n>\n" after the magic, then zeros to the end of the seal.
  std::string_view rest = text.substr(kMagic.size());
  if (!rest.starts_with(kHashTag)) damaged(path, "its seal is unreadable");
  const std::string_view hex = rest.substr(kHashTag.size(), 32);
  rest.remove_prefix(kHashTag.size() + 32);
  if (!rest.starts_with("\n") || !rest.substr(1).starts_with(kBytesTag))
    damaged(path, "its seal is unreadable");
  rest.remove_prefix(1 + kBytesTag.size());
  std::uint64_t length = 0;
  const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), length);
  // Digits that run to the end of the seal leave no newline to read (and nothing past it).
  if (error != std::errc() || end == rest.data() || end == rest.data() + rest.size() ||
      *end != '\n')
    damaged(path, "its seal is unreadable");
  const std::size_t seal_end = static_cast<std::size_t>(end - text.data()) + 1;
  for (std::size_t i = seal_end; i < kSealBytes; ++i)
    if (head[i] != std::byte{0}) damaged(path, "its seal is unreadable");

  std::unique_ptr<XXH3_state_t, StateDeleter> state(XXH3_createState());
  if (!state || XXH3_128bits_reset(state.get()) != XXH_OK)
    throw RuntimeFailure("cannot start a checksum (out of memory)");
  std::vector<std::byte> buffer(std::size_t{1} << 20);
  std::uint64_t total = 0;
  for (std::size_t n; (n = read_fully(buffer.data(), buffer.size())) > 0;) {
    throw_if_stop_requested();
    XXH3_128bits_update(state.get(), buffer.data(), n);
    total += n;
    if (n < buffer.size()) break;
  }
  if (total != length)
    damaged(path, fmt::format("it holds {} bytes after its seal, the seal says {} (truncated or "
                              "extended)",
                              total, length));
  if (hex_of(XXH3_128bits_digest(state.get())) != hex)
    damaged(path,
            "its checksum does not match its content (changed after it was written, by a "
            "fault or another program)");
  return SealState::kSealed;
}

}  // namespace collnoise
