#pragma once
// Bootstrap pieces of the calibration (docs/calibration.md, "What the intervals mean"): the
// moving-block resampling of a series of correlated measurements, its block length, and the
// percentile interval of a set of bootstrap draws.
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "core/percentile.hpp"  // percentile_interval, for the bootstraps
#include "core/rng.hpp"

namespace collnoise {

/// The block length for `n` measurements in iteration order: round(n^(1/3)), at least 1 and at
/// most n (the rate that minimises a block bootstrap's error for a distribution's quantiles and
/// variance, Hall, Horowitz and Jing 1995, with the constant taken as 1).
std::size_t block_length(std::size_t n);

/// The indices of a moving-block resample of `n` measurements (n >= 1): blocks of `block`
/// consecutive indices (1 <= block <= n) whose starts are drawn uniformly from 0 .. n - block,
/// joined until n indices are drawn (the last block cut short).
std::vector<std::size_t> moving_block_resample(std::size_t n, std::size_t block, Pcg32& rng);

}  // namespace collnoise
