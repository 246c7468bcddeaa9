#pragma once
// The summary fields both tree barrier models write under one name: the model under per-stage
// noise (tree_barrier_study.cpp) for one phase, the model under time-based noise
// (timed_tree_study.cpp) for all phases of a replication. Their name and unit are declared here
// once; each model says what the field means for its sample.
#include <string>
#include <utility>

#include "core/field_spec.hpp"

namespace collnoise {

/// The standard deviation of the sampled time, in seconds; `meaning` says of which time.
inline FieldSpec time_sd_field(std::string meaning) {
  return {"sd", "seconds", std::move(meaning), ""};
}

/// The sampled time without any noise, in seconds; `meaning` says of which time.
inline FieldSpec noiseless_time_field(std::string meaning) {
  return exact_field({"noiseless_time", "seconds", std::move(meaning), ""});
}

}  // namespace collnoise
