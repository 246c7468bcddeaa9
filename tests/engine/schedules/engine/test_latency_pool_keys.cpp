// The pool transform keys (engine/schedules/engine/latency_pool_keys.hpp; docs/models/
// netgauge-files.md, "Transforms"): one value for every pool, or one per entry of latency.file,
// read from parameter maps written here.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/param_reader.hpp"
#include "engine/schedules/engine/latency_pool_keys.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

TEST_CASE("pool transform keys: one value for every pool, or one per file") {
  // One value: every pool alike, as before.
  ParamReader one(ParamMap{{"latency.median", 2e-6}, {"latency.warmup", std::int64_t{3}}});
  const auto same = read_pool_transforms(one, 2);
  REQUIRE(same.size() == 2);
  CHECK(same[0] == same[1]);
  CHECK(same[0].median_seconds == 2e-6);
  CHECK(same[0].warmup == 3);
  CHECK(same[0].scale);
  // Lists: each file its own, with units ("8ms") as a single value takes them.
  ParamReader lists(ParamMap{{"latency.median", TextList{"1.5us", "8ms"}},
                             {"latency.median_by", TextList{"scale", "shift"}},
                             {"latency.warmup", NumberList{0, 21}},
                             {"latency.trim_quantile", NumberList{1.0, 0.99}}});
  const auto per = read_pool_transforms(lists, 2);
  REQUIRE(per.size() == 2);
  CHECK(per[0].median_seconds == 1.5e-6);
  CHECK(per[1].median_seconds == 8e-3);
  CHECK(per[0].scale);
  CHECK_FALSE(per[1].scale);
  CHECK(per[0].warmup == 0);
  CHECK(per[1].warmup == 21);
  CHECK(per[1].trim_quantile == 0.99);
  CHECK(per[1].block == 1000);
  // The far pairs' keys, under latency.far.
  ParamReader far(ParamMap{{"latency.far.median", NumberList{1e-6, 2e-6, 3e-6}}});
  const auto three = read_pool_transforms(far, 3, "latency.far");
  REQUIRE(three.size() == 3);
  CHECK(three[2].median_seconds == 3e-6);
  // A mean in place of the median, per pool.
  ParamReader mean(ParamMap{{"latency.far.pool_mean", NumberList{5e-7, 1.8e-3}},
                            {"latency.far.median_by", std::string("shift")}});
  const auto means = read_pool_transforms(mean, 2, "latency.far");
  CHECK(means[0].mean_seconds == 5e-7);
  CHECK(means[1].mean_seconds == 1.8e-3);
  CHECK_FALSE(means[1].median_seconds);
  CHECK_FALSE(means[1].scale);
}

TEST_CASE("pool transform keys: a list of the wrong length or values refused, naming the key") {
  ParamReader short_list(ParamMap{{"latency.median", NumberList{1e-6}}});
  CHECK_THROWS_WITH(read_pool_transforms(short_list, 2),
                    Contains("latency.median has 1 values and latency.file 2 files"));
  ParamReader far_list(ParamMap{{"latency.far.warmup", NumberList{1, 2, 3}}});
  CHECK_THROWS_WITH(read_pool_transforms(far_list, 2, "latency.far"),
                    Contains("latency.far.warmup has 3 values and latency.far.file 2 files"));
  ParamReader fraction(ParamMap{{"latency.warmup", NumberList{1.5, 2}}});
  CHECK_THROWS_WITH(read_pool_transforms(fraction, 2),
                    Contains("latency.warmup") && Contains("whole number"));
  ParamReader warmup(ParamMap{{"latency.warmup", NumberList{0, 1000}}});
  CHECK_THROWS_WITH(read_pool_transforms(warmup, 2),
                    Contains("latency.warmup = 1000") && Contains("entry 1 of latency.file"));
  ParamReader choice(
      ParamMap{{"latency.median", 1e-6}, {"latency.median_by", TextList{"scale", "up"}}});
  CHECK_THROWS_WITH(read_pool_transforms(choice, 2),
                    Contains("latency.median_by") && Contains("up"));
  ParamReader by_alone(ParamMap{{"latency.median_by", std::string("shift")}});
  CHECK_THROWS_WITH(read_pool_transforms(by_alone, 1),
                    Contains("applies with latency.median or latency.pool_mean"));
  ParamReader both(ParamMap{{"latency.median", 1e-6}, {"latency.pool_mean", 1e-6}});
  CHECK_THROWS_WITH(read_pool_transforms(both, 1),
                    Contains("latency.median and latency.pool_mean both set"));
  ParamReader bounds(ParamMap{{"latency.trim_quantile", NumberList{0.5, 1.5}}});
  CHECK_THROWS_WITH(read_pool_transforms(bounds, 2), Contains("latency.trim_quantile"));
}
