#pragma once
// Quantiles of a sorted sample interpolated between order statistics (Hyndman and Fan's type
// 7), and the percentile interval of bootstrap draws built on them: one definition for every
// bootstrap of the calibration, its tail fits and its predictions.
#include <utility>
#include <vector>

namespace collnoise {

/// The p-quantile of `sorted` (ascending, not empty), p in [0, 1]: linear between the order
/// statistics around p (n - 1).
double type7_quantile(const std::vector<double>& sorted, double p);

/// The interval between the (1 - level)/2 and (1 + level)/2 quantiles of `draws` (not empty),
/// each interpolated linearly between order statistics (Hyndman and Fan's type 7).
std::pair<double, double> percentile_interval(std::vector<double> draws, double level);

}  // namespace collnoise
