#pragma once
// The value of one run-file parameter, as TOML gives it (N may exceed 64 bits when given as a
// string of digits; some keys take a list of numbers or of strings).
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "core/rank_count.hpp"

namespace collnoise {

using NumberList = std::vector<double>;
using TextList = std::vector<std::string>;
using ParamValue =
    std::variant<bool, std::int64_t, double, std::string, RankCount, NumberList, TextList>;
/// Parameters by dotted name ("noise.f", "collective.N").
using ParamMap = std::map<std::string, ParamValue>;

/// Exact text of a value (doubles with 17 significant digits, lists as [a, b], lists of strings
/// as ["a", "b"]).
std::string to_text(const ParamValue& value);

}  // namespace collnoise
