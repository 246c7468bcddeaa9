// The reported quantiles of a summary: order statistics of the raw samples where the run kept
// them, the histogram's interpolation otherwise, and the summary says which
// (docs/models/estimators.md, "Quantiles from mergeable histograms").
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/record.hpp"
#include "estimators/histogram.hpp"
#include "estimators/summary_fields.hpp"

namespace {

using namespace collnoise;

const QuantileFields kFields{"x_", "seconds", "a test quantity"};

double value_of(const Record& r, const FieldSpec& f) {
  return std::get<double>(*r.find(f.name));
}
std::string text_of(const Record& r, const FieldSpec& f) {
  return std::get<std::string>(*r.find(f.name));
}

// 1000 samples all equal to 6.5033 us, in log bins from 6 us to 600 us (as a schedule point's
// histogram from its noiseless time to 100 times it).
Histogram histogram_of_equal_samples() {
  Histogram h(6.0e-6, 6.0e-4, 400, BinSpacing::kLog);
  h.add(6.5033e-6, 1000);
  return h;
}

}  // namespace

TEST_CASE("summary quantiles are the raw samples' order statistics where they are kept") {
  const std::vector<double> raw(1000, 6.5033e-6);
  Record kept;
  put_quantiles(kept, kFields, histogram_of_equal_samples(), raw, 0.95);
  for (std::size_t i = 0; i < reported_probabilities().size(); ++i) {
    CHECK(value_of(kept, kFields.estimate(i)) == 6.5033e-6);  // the sample itself, bit for bit
    CHECK(value_of(kept, kFields.resolution(i)) == 0.0);
  }
  CHECK(value_of(kept, kFields.ci_low(0)) == 6.5033e-6);
  CHECK(text_of(kept, kFields.method()) == kOrderStatistics);

  // Without them, the histogram's estimate is a point of the sample's bin, not the sample.
  Record binned;
  put_quantiles(binned, kFields, histogram_of_equal_samples(), {}, 0.95);
  const double median = value_of(binned, kFields.estimate(0));
  CHECK(median != 6.5033e-6);
  CHECK(median == Approx(6.5033e-6).epsilon(0.012));  // within the bin: width 1.16 %
  CHECK(value_of(binned, kFields.resolution(0)) > 0.0);
  CHECK(text_of(binned, kFields.method()) == kFromHistogram);
}

TEST_CASE("summary quantiles from raw samples: k = ceil(p n) of the sorted values") {
  // 10 values given unsorted: the median is x_(5), p90 x_(9), p99 and p999 x_(10).
  const std::vector<double> raw = {10, 3, 7, 1, 9, 5, 2, 8, 6, 4};
  Histogram h(0.5, 20.0, 40, BinSpacing::kLinear);
  for (double x : raw) h.add(x);
  Record r;
  put_quantiles(r, kFields, h, raw, 0.95);
  CHECK(value_of(r, kFields.estimate(0)) == 5.0);
  CHECK(value_of(r, kFields.estimate(1)) == 9.0);
  CHECK(value_of(r, kFields.estimate(2)) == 10.0);
  CHECK(value_of(r, kFields.estimate(3)) == 10.0);
}
