// End-to-end tests of the collnoise command: every bad input exits non-zero, names the culprit
// and leaves no output file; results round-trip through HDF5 and do not depend on threads.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

struct Result {
  int code = 0;
  std::string output;
};

Result run(const std::string& args) {
  const std::string cmd = std::string(COLLNOISE_BINARY) + " " + args + " 2>&1";
  Result r;
  FILE* pipe = popen(cmd.c_str(), "r");
  char buf[4096];
  while (fgets(buf, sizeof buf, pipe)) r.output += buf;
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

const char* kGood = R"(name = "cli-test"
seed = 7
samples = 3000
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
sampling = "per_rank"
[noise]
law = "exponential"
f = 0.01
[sweep]
N = [1, 7, 100000]
"noise.f" = [0.01, 0.1]
)";

std::string write(const std::string& name, const std::string& text) {
  std::ofstream(name) << text;
  return name;
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

void expect_rejected(const std::string& runfile_text, const std::string& culprit) {
  const std::string out = "cli_rejected.h5";
  fs::remove(out);
  const auto r = run("run " + write("cli_bad.toml", runfile_text) + " --out " + out + " --quiet");
  INFO(r.output);
  CHECK(r.code != 0);
  CHECK(r.output.find(culprit) != std::string::npos);
  CHECK_FALSE(fs::exists(out));
}

}  // namespace

TEST_CASE("bad inputs: non-zero exit, a message naming the culprit, no output") {
  expect_rejected(std::string("name = \"x\"\nseed = [\n"), "malformed TOML");
  expect_rejected(replace(kGood, "samples = 3000", "samples = 3000\nbogus = 1"), "bogus");
  expect_rejected(replace(kGood, "law = \"exponential\"", "law = \"cauchy\""), "cauchy");
  expect_rejected(replace(kGood, "kind = \"tree_barrier\"", "kind = \"ring\""), "ring");
  expect_rejected(
      replace(kGood, "law = \"exponential\"\nf = 0.01", "law = \"pareto\"\na = 1.0\nf = 0.01"),
      "noise.a");
  expect_rejected(replace(kGood, "\"noise.f\" = [0.01, 0.1]", "\"noise.f\" = [1.5]"), "noise.f");
  expect_rejected(replace(kGood, "tau = 2.0e-6", "tau = -1.0"), "collective.tau");
  expect_rejected(replace(kGood, "N = [1, 7, 100000]", "N = [0]"), "N");
  expect_rejected(replace(kGood, "law = \"exponential\"\nf = 0.01",
                          "law = \"empirical\"\nfile = \"missing_trace.txt\""),
                  "missing_trace.txt");
}

TEST_CASE("bad command lines and paths") {
  fs::remove("cli_unwritable.h5");
  const auto missing = run("run no_such_runfile.toml --quiet");
  CHECK(missing.code == 2);
  CHECK(missing.output.find("no_such_runfile.toml") != std::string::npos);
  const auto unwritable =
      run("run " + write("cli_ok.toml", kGood) + " --out /nonexistent_dir/x.h5 --quiet");
  CHECK(unwritable.code != 0);
  CHECK(unwritable.output.find("/nonexistent_dir/x.h5") != std::string::npos);
  const auto not_h5 = run("summary cli_ok.toml");
  CHECK(not_h5.code != 0);
  CHECK(not_h5.output.find("cli_ok.toml") != std::string::npos);
}

TEST_CASE("results round-trip through HDF5 and do not depend on thread count") {
  write("cli_ok.toml", kGood);
  fs::remove("cli_t1.h5");
  fs::remove("cli_t3.h5");
  REQUIRE(run("run cli_ok.toml --out cli_t1.h5 --threads 1 --quiet").code == 0);
  REQUIRE(run("run cli_ok.toml --out cli_t3.h5 --threads 3 --quiet").code == 0);
  const auto refuse = run("run cli_ok.toml --out cli_t1.h5 --quiet");
  CHECK(refuse.code == 2);
  CHECK(refuse.output.find("--force") != std::string::npos);
  const auto a = run("summary cli_t1.h5 --json");
  const auto b = run("summary cli_t3.h5 --json");
  REQUIRE(a.code == 0);
  CHECK(a.output == b.output);
  CHECK(a.output.find("\"format_version\": 2") != std::string::npos);
  CHECK(a.output.find("\"kind\": \"tree_barrier\"") != std::string::npos);
  CHECK(a.output.find("\"collective.N\": 100000") != std::string::npos);
  CHECK(a.output.find("\"noise.law\": \"exponential\"") != std::string::npos);
  CHECK(a.output.find("\"theorem1_lower_reason\"") != std::string::npos);  // N = 100000 is not full
  CHECK(a.output.find("NaN") == std::string::npos);
  // Adding a sweep value changes no other point.
  write("cli_more.toml", replace(kGood, "N = [1, 7, 100000]", "N = [1, 3, 7, 100000]"));
  fs::remove("cli_more.h5");
  REQUIRE(run("run cli_more.toml --out cli_more.h5 --quiet").code == 0);
  const auto c = run("summary cli_more.h5 --json");
  const auto mean_of_n7 = [](const std::string& json) {
    const auto at = json.find("\"collective.N\": 7,");
    const auto m = json.find("\"mean\":", at);
    return json.substr(m, json.find(',', m) - m);
  };
  CHECK(mean_of_n7(a.output) == mean_of_n7(c.output));
}
