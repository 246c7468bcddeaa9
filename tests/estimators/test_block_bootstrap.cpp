// The calibration's bootstrap pieces (estimators/block_bootstrap.hpp), worked by hand.
#include <catch2/catch.hpp>

#include "estimators/block_bootstrap.hpp"

using namespace collnoise;

TEST_CASE("block bootstrap: the block length, the resample's blocks, percentile intervals") {
  CHECK(block_length(1) == 1);
  CHECK(block_length(2) == 1);  // cbrt(2) = 1.26
  CHECK(block_length(8) == 2);
  CHECK(block_length(1000) == 10);
  CHECK(block_length(10000) == 22);  // cbrt(10^4) = 21.54
  // n = 10 in blocks of 3: four blocks, the last cut to one index; each block runs on by one.
  Pcg32 rng = make_stream(7);
  const auto r = moving_block_resample(10, 3, rng);
  REQUIRE(r.size() == 10);
  for (std::size_t b = 0; b < 9; b += 3) {
    CHECK(r[b] <= 7);
    CHECK(r[b + 1] == r[b] + 1);
    CHECK(r[b + 2] == r[b] + 2);
  }
  CHECK(r[9] <= 7);
  // Blocks as long as the series: the series itself.
  Pcg32 again = make_stream(7);
  const auto whole = moving_block_resample(5, 5, again);
  CHECK(whole == std::vector<std::size_t>{0, 1, 2, 3, 4});
  // Type 7: the 0.25 and 0.75 quantiles of 1..5 are at positions 1 and 3 (0-based): 2 and 4;
  // at level 0.9 the 0.05 and 0.95 quantiles, 1 + 0.2 and 5 - 0.2.
  const auto [low, high] = percentile_interval({5, 1, 4, 2, 3}, 0.5);
  CHECK(low == 2.0);
  CHECK(high == 4.0);
  const auto [low90, high90] = percentile_interval({5, 1, 4, 2, 3}, 0.9);
  CHECK(low90 == Approx(1.2).epsilon(1e-12));
  CHECK(high90 == Approx(4.8).epsilon(1e-12));
}
