// The rendezvous regime's own costs as keys (loggops.rendezvous_regime.*; docs/models/
// schedules.md, "Measured LogGOPS parameters"): what a machine file writes of a regime fit,
// without the LogGP file it came from.
#include <catch2/catch.hpp>
#include <string>

#include "core/errors.hpp"
#include "core/param_reader.hpp"
#include "engine/schedules/schedule_net_keys.hpp"
#include "tests/fixtures/command_line.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;

TEST_CASE("loggops.rendezvous_regime gives the costs of messages above S") {
  ParamReader reader(ParamMap{{"loggops.L", 1e-6},
                              {"loggops.o", 1e-7},
                              {"loggops.G", 1e-9},
                              {"loggops.S", std::int64_t{64}},
                              {"loggops.rendezvous_regime.o", 1e-6},
                              {"loggops.rendezvous_regime.G", 2e-9}});
  const ScheduleNet net = read_schedule_net(reader, 1).net;
  REQUIRE(net.by_size.size() == 2);
  CHECK(net.size_limits[0] == 64);
  CHECK(net.by_size[0].o == Approx(100.0).epsilon(1e-12));
  CHECK(net.by_size[0].G == Approx(1.0).epsilon(1e-12));
  CHECK(net.by_size[1].o == Approx(1000.0).epsilon(1e-12));
  CHECK(net.by_size[1].G == Approx(2.0).epsilon(1e-12));
  // What is not given is the eager regime's, L the wire's.
  CHECK(net.by_size[1].L == net.by_size[0].L);
  CHECK(net.by_size[1].g == net.by_size[0].g);
  // Without them, one net for every size, as before.
  ParamReader plain(ParamMap{{"loggops.L", 1e-6}});
  CHECK(read_schedule_net(plain, 1).net.by_size.empty());
  // A LogGP file gives both regimes itself.
  ParamReader both(ParamMap{{"loggops.file", std::string("ng_loggp.out")},
                            {"loggops.rendezvous_regime.o", 1e-6}});
  CHECK_THROWS_WITH(read_schedule_net(both, 1),
                    Contains("loggops.rendezvous_regime.o and loggops.file both give it"));
}

TEST_CASE("a message above S takes the rendezvous regime's o and G, worked by hand") {
  using collnoise::testing::run_command_line;
  using collnoise::testing::write_text;
  write_text("regime-keys.goal",
             "num_ranks 2\nrank 0 {\nl1: send 100b to 1 tag 0\n}\n"
             "rank 1 {\nl1: recv 100b from 0 tag 0\n}\n");
  write_text("regime-keys.toml", R"(name = "regime-keys"
seed = 1
samples = 2
[collective]
kind = "schedule"
goal = "regime-keys.goal"
[loggops]
L = "1us"
o = "100ns"
g = 0
G = "1ns/B"
S = 64
[loggops.rendezvous_regime]
o = "1us"
G = "2ns/B"
)");
  const auto run = run_command_line("run regime-keys.toml --out regime-keys.h5 --force --quiet");
  INFO(run.output);
  REQUIRE(run.code == 0);
  const auto json = run_command_line("summary regime-keys.h5 --json").output;
  const auto at = json.find("\"noiseless_completion\": ");
  REQUIRE(at != std::string::npos);
  // o + 99 G + L + o of the rendezvous regime (LogGOPSim's rule: no handshake latencies):
  // 1000 + 198 + 1000 + 1000 ns.
  CHECK(std::stod(json.substr(at + 24)) == Approx(3.198e-6).epsilon(1e-12));
}
