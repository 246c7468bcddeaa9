// Schedule points and their LogGOPS parameters (docs/models/netgauge-files.md, "LogGP per
// protocol regime"; docs/models/schedules.md, "Measured LogGOPS parameters"): the rendezvous
// rules, a LogGP file's rows per message size, and its regime fit, run from small run files
// written here, completion times worked by hand.
#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/netgauge_switch_rows.hpp"

using collnoise::testing::run_command_line;
using collnoise::testing::write_text;

namespace {

const std::string kHeader =
    "# size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s) L o_s o_r g G lsqu(g,G)\n";

// Two ranks: rank 0 sends `bytes` to rank 1, which has posted its receive.
std::string one_message(int bytes) {
  return fmt::format(
      "num_ranks 2\nrank 0 {{\nl1: send {0}b to 1 tag 0\n}}\nrank 1 {{\nl1: recv {0}b from 0 tag "
      "0\n}}\n",
      bytes);
}

struct Point {
  int code = 0;
  std::string output;  ///< the command's output, then the summary's JSON
};

// Runs a schedule point of `goal` (GOAL text) with the [loggops] lines `loggops`.
Point run_point(const std::string& name, const std::string& goal, const std::string& loggops) {
  std::filesystem::create_directories("loggp-dir");
  write_text("loggp-dir/" + name + ".goal", goal);
  write_text("loggp-dir/" + name + ".toml", fmt::format(R"(name = "{0}"
seed = 1
samples = 2
[collective]
kind = "schedule"
goal = "{0}.goal"
[loggops]
{1}
)",
                                                        name, loggops));
  std::filesystem::remove("loggp-dir/" + name + ".h5");
  const auto run =
      run_command_line(fmt::format("run loggp-dir/{0}.toml --out loggp-dir/{0}.h5 --quiet", name));
  if (run.code != 0) return {run.code, run.output};
  return {0, run_command_line(fmt::format("summary loggp-dir/{}.h5 --json", name)).output};
}

double number_after(const std::string& json, const std::string& key) {
  const auto at = json.find("\"" + key + "\": ");
  if (at == std::string::npos) FAIL("no " << key << " in " << json);
  return std::stod(json.substr(at + key.size() + 4));
}

const std::string kKeys = "L = 1.0e-6\no = 1.0e-7\ng = 0.0\nG = 1.0e-9\nO = 0.0\n";

}  // namespace

TEST_CASE("rendezvous rules: LogGOPSim's, and the handshake's 2L, above S") {
  // 100 bytes, S = 10: sent at 0, the sender's CPU busy o = 100 ns; the first byte arrives at
  // o + L = 1100 ns, where the posted receive takes it: the receiver's CPU busy
  // o + 99 G = 199 ns, to 1299 ns (the sender released at 1100 ns).
  const Point loggopsim = run_point("rdv", one_message(100), kKeys + "S = 10\n");
  INFO(loggopsim.output);
  REQUIRE(loggopsim.code == 0);
  CHECK(number_after(loggopsim.output, "noiseless_completion") == Approx(1299e-9).epsilon(1e-12));
  // The handshake: the first byte 2L later, at 3100 ns; done at 3299 ns.
  const Point handshake =
      run_point("hs", one_message(100), kKeys + "S = 10\nrendezvous = \"handshake\"\n");
  INFO(handshake.output);
  REQUIRE(handshake.code == 0);
  CHECK(number_after(handshake.output, "noiseless_completion") == Approx(3299e-9).epsilon(1e-12));
  // An eager message (S = 100) is the same under both rules.
  const Point eager =
      run_point("hs-eager", one_message(100), kKeys + "S = 100\nrendezvous = \"handshake\"\n");
  REQUIRE(eager.code == 0);
  CHECK(number_after(eager.output, "noiseless_completion") == Approx(1299e-9).epsilon(1e-12));
}

TEST_CASE("a LogGP file's rows: each message its own size's, or loggops.file_bytes for all") {
  // Row 1: L = 3, o = 0.5 us (engine L = 2 us); row 1025: o = 2 us (engine L = 0), g = 1 us,
  // G = 1 ns per byte (also the gaps of 1 byte: its own row has none).
  std::filesystem::create_directories("loggp-dir");
  write_text("loggp-dir/rows.out", kHeader +
                                       "1 16 6 30 0 3 0.4 0.6 -nan -nan 0\n"
                                       "1025 16 6 40 0 3 2 2 1 0.001 0\n");
  // One 1025-byte message, its own row: o + L + o + 1024 G = 2 + 0 + 2 + 1.024 us.
  const Point own = run_point("own", one_message(1025), "file = \"rows.out\"\n");
  INFO(own.output);
  REQUIRE(own.code == 0);
  CHECK(number_after(own.output, "noiseless_completion") == Approx(5.024e-6).epsilon(1e-12));
  CHECK(own.output.find("\"loggp_fit\": \"row\"") != std::string::npos);
  // Every message the 1-byte row (as before each message had its own): 0.5 + 2 + 0.5 + 1.024.
  const Point fixed =
      run_point("fixed", one_message(1025), "file = \"rows.out\"\nfile_bytes = 1\n");
  REQUIRE(fixed.code == 0);
  CHECK(number_after(fixed.output, "noiseless_completion") == Approx(4.024e-6).epsilon(1e-12));
  // Two sizes in one schedule. Rank 0 sends 1 byte at 0 (CPU to 500 ns, NIC g to 1000 ns, first
  // byte at 2500 ns), then 1025 bytes once its NIC is free, at 1000 ns (CPU to 3000 ns, first
  // byte at 1000 + 2000 + 0 = 3000 ns). Rank 1 takes the first at 2500 ns (CPU to 3000 ns, NIC
  // g to 3500 ns), the second when its NIC is free, at 3500 ns: CPU 2000 + 1024 ns, to 6524 ns.
  const std::string two =
      "num_ranks 2\nrank 0 {\nl1: send 1b to 1 tag 0\nl2: send 1025b to 1 tag 1\nl2 requires "
      "l1\n}\nrank 1 {\nl1: recv 1b from 0 tag 0\nl2: recv 1025b from 0 tag 1\n}\n";
  const Point sizes = run_point("sizes", two, "file = \"rows.out\"\n");
  INFO(sizes.output);
  REQUIRE(sizes.code == 0);
  CHECK(number_after(sizes.output, "noiseless_completion") == Approx(6524e-9).epsilon(1e-12));
}

TEST_CASE("a LogGP file's regimes: S from the switch, each message its regime's parameters") {
  // The file of the regime fit's test (tests/distributions/test_netgauge_regimes.cpp): eager
  // o = 1 us, O = 1/4096 us per byte, g = 0.5 us, G = 1/8192 us per byte, L = 1 us; rendezvous
  // from 4097 bytes (S = 4096) o = 5 us, O = G = 1/4096 us per byte, g = 2 us.
  std::filesystem::create_directories("loggp-dir");
  write_text("loggp-dir/switch.out", kHeader + collnoise::testing::kSwitchRows);
  const std::string regimes = "file = \"switch.out\"\nfile_fit = \"regimes\"\n";
  // 1025 bytes, eager: first byte at o + L = 2 us, then o + max(1024 O, 1024 G) = 1 + 0.25 us.
  const Point eager = run_point("eager", one_message(1025), regimes);
  INFO(eager.output);
  REQUIRE(eager.code == 0);
  CHECK(number_after(eager.output, "noiseless_completion") == Approx(3.25e-6).epsilon(1e-9));
  CHECK(eager.output.find("\"loggp_fit\": \"regimes\"") != std::string::npos);
  CHECK(number_after(eager.output, "loggp_eager_bytes") == 4096);
  CHECK(number_after(eager.output, "loggp_eager_o") == Approx(1e-6).epsilon(1e-9));
  CHECK(number_after(eager.output, "loggp_eager_L") == Approx(1e-6).epsilon(1e-9));
  CHECK(number_after(eager.output, "loggp_rendezvous_o") == Approx(5e-6).epsilon(1e-9));
  CHECK(number_after(eager.output, "loggp_rendezvous_g") == Approx(2e-6).epsilon(1e-9));
  // 5121 bytes, rendezvous: first byte at o + L = 6 us, then o + 5120/4096 us = 6.25 us: 12.25.
  const Point rdv = run_point("regime-rdv", one_message(5121), regimes);
  INFO(rdv.output);
  REQUIRE(rdv.code == 0);
  CHECK(number_after(rdv.output, "noiseless_completion") == Approx(12.25e-6).epsilon(1e-9));
  // With the handshake 2L later: 14.25 us.
  const Point hs =
      run_point("regime-hs", one_message(5121), regimes + "rendezvous = \"handshake\"\n");
  REQUIRE(hs.code == 0);
  CHECK(number_after(hs.output, "noiseless_completion") == Approx(14.25e-6).epsilon(1e-9));
  // S both from the key and from the switch, or a row for every message: refused, one line.
  const Point both = run_point("regime-s", one_message(5121), regimes + "S = 100\n");
  CHECK(both.code == 2);
  CHECK(both.output.find("loggops.S") != std::string::npos);
  const Point row = run_point("regime-bytes", one_message(5121), regimes + "file_bytes = 1\n");
  CHECK(row.code == 2);
  CHECK(row.output.find("loggops.file_bytes") != std::string::npos);
  // A fit without a file: refused.
  const Point no_file =
      run_point("fit-no-file", one_message(5121), kKeys + "file_fit = \"regimes\"\n");
  CHECK(no_file.code == 2);
  CHECK(no_file.output.find("loggops.file_fit") != std::string::npos);
}

TEST_CASE("near and far rank pairs from a run file: the far class's LogGOPS, and the summary") {
  // Rank 0 sends 100 bytes to rank 1 (near), then to rank 2 (far, two ranks a switch). The
  // first: CPU to 100 ns, NIC to 99 G = 99 ns, arrival o + L = 1100 ns, received to
  // 1100 + 100 + 99 = 1299 ns. The second at 100 ns: arrival 100 + 100 + 3000 = 3200 ns, the far
  // G of 2 ns a byte on the receive (100 + 198), to 3498 ns.
  const std::string goal =
      "num_ranks 4\nrank 0 {\nl1: send 100b to 1 tag 0\nl2: send 100b to 2 tag 0\nl2 requires "
      "l1\n}\nrank 1 {\nl1: recv 100b from 0 tag 0\n}\nrank 2 {\nl1: recv 100b from 0 tag 0\n}\n"
      "rank 3 {\n}\n";
  const std::string far = "[loggops.far]\nL = 3.0e-6\nG = 2.0e-9\n";
  const Point classed =
      run_point("classes", goal, kKeys + far + "[network]\nnodes_per_switch = 2\n");
  INFO(classed.output);
  REQUIRE(classed.code == 0);
  CHECK(number_after(classed.output, "noiseless_completion") == Approx(3498e-9).epsilon(1e-12));
  CHECK(number_after(classed.output, "near_messages") == 1.0);
  CHECK(number_after(classed.output, "far_messages") == 1.0);
  CHECK(classed.output.find("\"pair_classes\": \"network.nodes_per_switch = 2") !=
        std::string::npos);
  // Nodes of two ranks, one node a switch: the same classes.
  const Point nodes = run_point(
      "nodes", goal, kKeys + far + "[network]\nnodes_per_switch = 1\nranks_per_node = 2\n");
  REQUIRE(nodes.code == 0);
  CHECK(number_after(nodes.output, "noiseless_completion") == Approx(3498e-9).epsilon(1e-12));
  // A mapping file with ranks 0 and 1 on switch 0, 2 and 3 on switch 1: the same again.
  write_text("loggp-dir/four.map", "# rank node switch\n0 0 0\n1 1 0\n2 2 1\n3 3 1\n");
  const Point mapped =
      run_point("mapped", goal, kKeys + far + "[network]\nmapping = \"four.map\"\n");
  INFO(mapped.output);
  REQUIRE(mapped.code == 0);
  CHECK(number_after(mapped.output, "noiseless_completion") == Approx(3498e-9).epsilon(1e-12));
  CHECK(mapped.output.find("2 switches") != std::string::npos);
  // Without classes (the far table alone is refused): both near, rank 2 done at
  // 100 + 1100 + 199 = 1399 ns, and no class fields.
  const Point plain = run_point("plain", goal, kKeys);
  REQUIRE(plain.code == 0);
  CHECK(number_after(plain.output, "noiseless_completion") == Approx(1399e-9).epsilon(1e-12));
  CHECK(plain.output.find("near_messages") == std::string::npos);
  const Point refused = run_point("refused", goal, kKeys + far);
  CHECK(refused.code != 0);
  CHECK(refused.output.find("loggops.far.") != std::string::npos);
}
