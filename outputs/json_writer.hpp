#pragma once
// A minimal JSON emitter for `summary --json`: objects, arrays, strings (escaped), numbers
// (17 significant digits, so doubles round-trip), booleans and null.
#include <string>

#include "core/record.hpp"

namespace collnoise {

std::string json_string(const std::string& text);
/// A field as JSON; a Null prints as null (its reason goes in a separate key).
std::string json_value(const Field& field);
/// A record as a JSON object; each null field is followed by "<key>_reason".
std::string json_object(const Record& record, int indent = 0);

}  // namespace collnoise
