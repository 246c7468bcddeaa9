// Numbers that are not finite (degenerate and extreme laws) are written as documented values
// or as null with a reason, and `summary --json` stays valid JSON.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/fixtures/command_line.hpp"

namespace fs = std::filesystem;

namespace {

using namespace collnoise::testing;

}  // namespace

TEST_CASE("non-finite numbers are documented values or null with a reason, valid JSON") {
  // Degenerate and extreme laws: Pareto near its limit, a noiseless point, huge and tiny f.
  const std::string cases = R"(name = "h11"
seed = 2
samples = 200
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 0.0
[[case]]
"noise.law" = "pareto"
"noise.a" = 1.01
"noise.f" = 0.999999
[[case]]
"noise.law" = "none"
[[case]]
"noise.law" = "bernoulli"
"noise.p" = 1.0
"noise.T" = 1.0e-3
[[case]]
"noise.law" = "pareto"
"noise.a" = 1.01
"noise.f" = 1.0e-12
[sweep]
N = [1, 2, 1000]
)";
  write_text("h11.toml", cases);
  fs::remove("h11.h5");
  const auto r = run_command_line("run h11.toml --out h11.h5 --quiet");
  INFO(r.output);
  REQUIRE(r.code == 0);
  const auto json = run_command_line("summary h11.h5 --json");
  REQUIRE(json.code == 0);
  for (const char* token : {"NaN", "Infinity", "nan", "inf,"})
    CHECK(json.output.find(token) == std::string::npos);
  // Every null carries its reason: count "null" values and "_reason" keys per point.
  std::size_t nulls = 0;
  std::size_t reasons = 0;
  for (std::size_t at = 0; (at = json.output.find(": null", at)) != std::string::npos; ++at)
    ++nulls;
  for (std::size_t at = 0; (at = json.output.find("_reason\":", at)) != std::string::npos; ++at)
    ++reasons;
  CHECK(nulls > 0);
  CHECK(reasons == nulls);
}
