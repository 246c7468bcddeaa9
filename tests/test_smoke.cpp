#include <catch2/catch.hpp>
#include "engine/rng.hpp"
TEST_CASE("placeholder") { REQUIRE(collnoise::splitmix64(0) != 0); }
