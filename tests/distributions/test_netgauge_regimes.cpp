// The regime fit of Netgauge LogGP files (distributions/netgauge_regimes.hpp,
// docs/models/netgauge-files.md, "LogGP per protocol regime"): medians, Theil-Sen lines, the
// protocol switch, and the fit of small files written here in Netgauge's layout, values worked
// by hand.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/units.hpp"
#include "distributions/netgauge_regimes.hpp"
#include "tests/fixtures/netgauge_switch_rows.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

namespace {

std::string write_file(const std::string& name, const std::string& text) {
  std::filesystem::create_directories("netgauge_regimes");
  const std::string path = "netgauge_regimes/" + name;
  std::ofstream(path) << text;
  return path;
}

const std::string kHeader =
    "# size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s) L o_s o_r g G lsqu(g,G)\n"
    "# to get o: plot \"./loggp.out\" using 1:(($5-$3)/($2-1)-$3)\n"
    "# to get g,G: plot \"./loggp.out\" using 1:($4-$3)/($2-1)\n";

// Microseconds (per byte) in seconds, to the tolerance of the decimal conversions.
double us(double x) {
  return x * 1e-6;
}
constexpr double kTolerance = 1e-12;

}  // namespace

TEST_CASE("netgauge regimes: medians and Theil-Sen lines") {
  CHECK(median_of({3.0, 1.0, 2.0}) == 2.0);
  CHECK(median_of({3.0, 1.0, 2.0, 4.0}) == 2.5);
  // y = x but for one outlier: least squares gives slope 82/10 = 8.2 (mean x 2, mean y 9.2,
  // Sxy = 18.4 + 8.2 - 6.2 + 61.6); of the ten pairwise slopes seven are 1 (the others 10, 13,
  // 19, 37), so Theil-Sen's median slope is 1, and the intercepts y - x are 0, 0, 0, 0, 36:
  // median 0.
  const std::vector<double> x = {0, 1, 2, 3, 4};
  const std::vector<double> y = {0, 1, 2, 3, 40};
  const TheilSenLine line = theil_sen(x, y);
  CHECK(line.slope == 1.0);
  CHECK(line.intercept == 0.0);
  // One point: no pair, slope 0, the point's value.
  const std::vector<double> one_x = {5}, one_y = {2};
  CHECK(theil_sen(one_x, one_y).slope == 0.0);
  CHECK(theil_sen(one_x, one_y).intercept == 2.0);
}

TEST_CASE("netgauge regimes: the protocol switch of the overheads") {
  // Steps of 0.25 then a jump to 4 that stays: the switch is row 4.
  const std::vector<double> jump = {1.0, 1.25, 1.5, 1.75, 4.0, 4.25, 4.5};
  CHECK(protocol_switch(jump) == std::optional<std::size_t>(4));
  // One slow row that does not stay up is no switch.
  const std::vector<double> spike = {1.0, 1.25, 1.5, 1.75, 4.0, 2.0, 2.25};
  CHECK_FALSE(protocol_switch(spike).has_value());
  // A steady rise, and a rise of less than half o, are none either.
  const std::vector<double> steady = {1.0, 1.25, 1.5, 1.75, 2.0, 2.25};
  CHECK_FALSE(protocol_switch(steady).has_value());
  const std::vector<double> small = {4.0, 4.0, 4.0, 4.0, 5.5, 5.5};
  CHECK_FALSE(protocol_switch(small).has_value());
  // A jump needs two steps before it: at row 2 it is not looked for.
  const std::vector<double> early = {1.0, 1.0, 8.0, 8.0, 8.0};
  CHECK_FALSE(protocol_switch(early).has_value());
  // At the last row it cannot stay up: none.
  const std::vector<double> last = {1.0, 1.0, 1.0, 1.0, 8.0};
  CHECK_FALSE(protocol_switch(last).has_value());
}

TEST_CASE("netgauge regimes: a file with a switch, each regime fitted") {
  // x = s - 1 in steps of 1024. Eager rows (x = 0..3072): o = 1 + x/4096 us, gap
  // (PRTT(n) - PRTT(1))/9 = 0.5 + x/8192 us. Rendezvous rows (x = 4096..6144): o measured
  // 12 + (x - 4096)/4096 us, which less the handshake PRTT(1,0,1) = 6 us is 5 + x/4096 us, and
  // gap 2 + x/4096 us. The file's g and G columns (-1, a fit the reader must not take) differ.
  const std::string path = write_file("switch.out", kHeader + collnoise::testing::kSwitchRows);
  const NetgaugeRegimeFit fit = fit_netgauge_regimes(NetgaugeLogGPTable::from_file(path));
  REQUIRE(fit.eager_bytes == std::optional<std::uint64_t>(4096));
  CHECK(fit.eager.rows == 4);
  CHECK(fit.eager.first_bytes == 1);
  CHECK(fit.eager.last_bytes == 3073);
  CHECK(fit.eager.o == Approx(us(1.0)).epsilon(kTolerance));
  CHECK(fit.eager.O == Approx(us(1.0 / 4096)).epsilon(kTolerance));
  CHECK(fit.eager.g == Approx(us(0.5)).epsilon(kTolerance));
  CHECK(fit.eager.G == Approx(us(1.0 / 8192)).epsilon(kTolerance));
  // L: the file's 3 us less twice the eager o.
  CHECK(fit.file_L == Approx(us(3.0)).epsilon(kTolerance));
  CHECK(fit.eager.L == Approx(us(1.0)).epsilon(kTolerance));
  REQUIRE(fit.rendezvous.has_value());
  CHECK(fit.handshake == Approx(us(6.0)).epsilon(kTolerance));
  CHECK(fit.rendezvous->rows == 3);
  CHECK(fit.rendezvous->first_bytes == 4097);
  CHECK(fit.rendezvous->o == Approx(us(5.0)).epsilon(kTolerance));
  CHECK(fit.rendezvous->O == Approx(us(1.0 / 4096)).epsilon(kTolerance));
  CHECK(fit.rendezvous->g == Approx(us(2.0)).epsilon(kTolerance));
  CHECK(fit.rendezvous->G == Approx(us(1.0 / 4096)).epsilon(kTolerance));
  CHECK(fit.rendezvous->L == fit.eager.L);
}

TEST_CASE("netgauge regimes: a noisy file without a switch, Theil-Sen against least squares") {
  // o = 1 us at every size: no switch, one regime. Gaps 0.5, 0.625, 0.75, 0.875 and an outlier
  // 6 us at x = 0, 1024, ..., 4096: least squares (Netgauge's G column here) gives slope
  // 11.25/10 = 1.125 us per 1024 bytes; seven of the ten pairwise slopes are 0.125 us per 1024
  // bytes, so Theil-Sen's G is 0.125/1024 us per byte, and its g the median of 0.5, 0.5, 0.5,
  // 0.5, 5.5: 0.5 us.
  const std::string path =
      write_file("noisy.out", kHeader +
                                  "1 10 4 8.5 0 2 1 1 -nan -nan 0\n"
                                  "1025 10 4 9.625 0 2 1 1 0.5 0.0010986328125 0\n"
                                  "2049 10 4 10.75 0 2 1 1 0.5 0.0010986328125 0\n"
                                  "3073 10 4 11.875 0 2 1 1 0.5 0.0010986328125 0\n"
                                  "4097 10 4 58 0 2 1 1 0.5 0.0010986328125 0\n");
  const NetgaugeRegimeFit fit = fit_netgauge_regimes(NetgaugeLogGPTable::from_file(path));
  CHECK_FALSE(fit.eager_bytes.has_value());
  CHECK_FALSE(fit.rendezvous.has_value());
  CHECK(fit.eager.rows == 5);
  CHECK(fit.eager.o == Approx(us(1.0)).epsilon(kTolerance));
  CHECK(fit.eager.O == 0.0);
  CHECK(fit.eager.g == Approx(us(0.5)).epsilon(kTolerance));
  CHECK(fit.eager.G == Approx(us(0.125 / 1024)).epsilon(kTolerance));
  CHECK(fit.eager.L == 0.0);  // 2 - 2 * 1 us
}

TEST_CASE("netgauge regimes: damaged and unfit files are refused, naming the file") {
  // No round-trip columns in the header: nothing to fit the gaps to.
  const std::string bare =
      write_file("bare.out", "# size L o_s o_r g G\n1 2 1 1 -nan -nan\n1025 2 1 1 0.5 0.001\n");
  CHECK_THROWS_WITH(fit_netgauge_regimes(NetgaugeLogGPTable::from_file(bare)),
                    Contains("bare.out") && Contains("PRTT(n,0,s)"));
  // One fittable row (the other's n is 1).
  const std::string lone = write_file(
      "lone.out", kHeader + "1 10 4 8 0 2 1 1 -nan -nan 0\n1025 1 4 8 0 2 1 1 0.5 0.001 0\n");
  CHECK_THROWS_WITH(fit_netgauge_regimes(NetgaugeLogGPTable::from_file(lone)),
                    Contains("lone.out") && Contains("at least 2"));
  // An infinite round trip is no measurement: the reader refuses the line.
  const std::string inf = write_file("inf.out", kHeader + "1 10 inf 8 0 2 1 1 -nan -nan 0\n");
  CHECK_THROWS_WITH(NetgaugeLogGPTable::from_file(inf),
                    Contains("inf.out:4") && Contains("PRTT(1,0,s)"));
}

TEST_CASE("netgauge regimes: bootstrap refits, each draw from its own stream") {
  const std::string path = write_file("switch-boot.out", kHeader + collnoise::testing::kSwitchRows);
  const NetgaugeLogGPTable table = NetgaugeLogGPTable::from_file(path);
  const auto five = resampled_regime_fits(table, 5, 11);
  const auto three = resampled_regime_fits(table, 3, 11);
  REQUIRE(five.size() == 5);
  for (std::size_t d = 0; d < 3; ++d) {
    CHECK(five[d].eager.o == three[d].eager.o);
    CHECK(five[d].rendezvous->g == three[d].rendezvous->g);
  }
  for (const NetgaugeRegimeFit& fit : five) {
    // The switch stays where all rows put it, and so do the handshake and the file's L.
    CHECK(fit.eager_bytes == std::optional<std::uint64_t>(4096));
    CHECK(fit.handshake == Approx(us(6.0)).epsilon(kTolerance));
    CHECK(fit.eager.rows == 4);
    CHECK(fit.rendezvous->rows == 3);
    // The rows lie on lines: a resample with two sizes or more finds them again; one size alone
    // has no slope (0) and its own o, 1 to 1.75 us.
    CHECK(fit.eager.o >= us(1.0) - 1e-18);
    CHECK(fit.eager.o <= us(1.75) + 1e-18);
    CHECK(fit.eager.L == Approx(std::max(0.0, us(3.0) - 2.0 * fit.eager.o)).margin(1e-18));
  }
  // Another seed draws other rows: the sizes each draw's regimes span differ somewhere in 20
  // draws (all alike has a chance below 1e-6).
  const auto first = resampled_regime_fits(table, 20, 11);
  const auto other = resampled_regime_fits(table, 20, 12);
  bool differ = false;
  for (std::size_t d = 0; d < 20; ++d)
    differ |= other[d].eager.first_bytes != first[d].eager.first_bytes ||
              other[d].eager.last_bytes != first[d].eager.last_bytes ||
              other[d].rendezvous->first_bytes != first[d].rendezvous->first_bytes;
  CHECK(differ);
}
