#pragma once
// Summary fields of the noise itself that several models write, declared once
// (core/field_spec.hpp).
#include "core/field_spec.hpp"

namespace collnoise {

/// busy_fraction() of a time-based noise (distributions/time_noise.hpp): a pure number.
inline const FieldSpec kNoiseBusyFraction{"noise_busy_fraction", "",
                                          "the fraction of time the noise keeps a rank busy",
                                          "under time-based noise"};

}  // namespace collnoise
