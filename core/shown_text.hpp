#pragma once
// Text from a data file as a message may show it. A line or field echoed as it is can hold a NUL
// byte (which cuts the message: exceptions carry C strings), terminal escape sequences (which
// reach the user's terminal) or a megabyte without a newline (a megabyte-long message). Every
// reader that quotes what it read quotes it through here: printable ASCII kept, a backslash
// doubled, every other byte written as an escape (\0, \t, \n, \r, \x1b, and \xc2\xb5 for the
// bytes of "µ"), cut to a few dozen characters with "..." and the length in bytes.
#include <cstddef>
#include <string>
#include <string_view>

namespace collnoise {

/// The characters of a text shown before it is cut.
inline constexpr std::size_t kShownCharacters = 60;

/// `text` between single quotes, escaped as above; when longer than `shown` characters, its
/// first `shown` ones, "...", and after the closing quote its length: "'1111...' (1048576
/// bytes)".
inline std::string quoted_text(std::string_view text, std::size_t shown = kShownCharacters) {
  constexpr char kHex[] = "0123456789abcdef";
  std::string out = "'";
  std::size_t i = 0;
  for (; i < text.size() && i < shown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\\') {
      out += "\\\\";
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else if (c == 0) {
      out += "\\0";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    }
  }
  if (i == text.size()) return out + "'";
  return out + "...' (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace collnoise
