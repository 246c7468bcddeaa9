// Dot topology files (engine/network/dot_topology.hpp; docs/models/topology-files.md): small
// files written here (in the suite's scratch directory) with link numbers and routes worked by
// hand in LogGOPSim's walk order, host order by first appearance, parallel edges, routing lists
// and the first-listed rule, bandwidth and latency, and every refusal in one line naming the
// file (and the line where one is claimed).
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "engine/network/dot_topology.hpp"

using namespace collnoise;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

std::string write_dot(const std::string& name, const std::string& text) {
  std::filesystem::create_directories("dot");
  const std::string path = "dot/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The route in a span exactly diameter() long, as the interface promises is enough.
std::vector<LinkId> route_of(const Topology& t, std::uint64_t s, std::uint64_t d) {
  std::vector<LinkId> path(static_cast<std::size_t>(t.diameter()));
  path.resize(t.route(s, d, path));
  return path;
}

// `text` with its first `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// The message of the InputError reading `text` as `name` gives ("" if none).
std::string refusal(const std::string& name, const std::string& text) {
  try {
    read_dot_topology(write_dot(name, text));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// LogGOPSim's star: three hosts on one switch. Walk order H0, H1, H2, S0: links 0, 1, 2 are the
// hosts' uplinks, 3, 4, 5 S0's edges to H0, H1, H2.
const char* kStar =
    "digraph star3 {\n"
    "  edge [comment=\"*\"];\n"
    "  H0; H1; H2; S0;\n"
    "  H0 -> S0;  H1 -> S0;  H2 -> S0;\n"
    "  S0 -> H0 [comment=\"H0\"];  S0 -> H1 [comment=\"H1\"];  S0 -> H2 [comment=\"H2\"];\n"
    "}\n";

// Two switches: H0, H1 on S0 and H2, H3 on S1. Links: 0-3 the hosts' uplinks; S0 -> H0 4,
// S0 -> H1 5, S0 -> S1 6; S1 -> H2 7, S1 -> H3 8, S1 -> S0 9.
const char* kTwoSwitch =
    "digraph twoswitch {\n"
    "  H0; H1; H2; H3; S0; S1;\n"
    "  H0 -> S0 [comment=\"*\"];  H1 -> S0 [comment=\"*\"];\n"
    "  H2 -> S1 [comment=\"*\"];  H3 -> S1 [comment=\"*\"];\n"
    "  S0 -> H0 [comment=\"H0\"]; S0 -> H1 [comment=\"H1\"]; S0 -> S1 [comment=\"H2, H3\"];\n"
    "  S1 -> H2 [comment=\"H2\"]; S1 -> H3 [comment=\"H3\"]; S1 -> S0 [comment=\"H0 H1\"];\n"
    "}\n";

}  // namespace

TEST_CASE("dot topology: LogGOPSim's star, by hand", "[dot]") {
  const DotTopology t = read_dot_topology(write_dot("star.dot", kStar));
  CHECK(t.endpoints() == 3);
  CHECK(t.switches() == 1);
  CHECK(t.links() == 6);
  CHECK(t.diameter() == 2);
  CHECK(t.family() == "dot file");
  CHECK(t.describe() == "dot file 'star.dot' (3 hosts, 1 switch)");
  CHECK(route_of(t, 0, 2) == std::vector<LinkId>{0, 5});
  CHECK(route_of(t, 2, 1) == std::vector<LinkId>{2, 4});
  CHECK(route_of(t, 1, 0) == std::vector<LinkId>{1, 3});
  CHECK(route_of(t, 1, 1).empty());
  CHECK(t.host_name(2) == "H2");
  CHECK(t.link_name(0) == "H0 -> S0");
  CHECK(t.link_name(5) == "S0 -> H2");
  CHECK_FALSE(t.bandwidth(0).has_value());
  CHECK_FALSE(t.latency(5).has_value());
}

TEST_CASE("dot topology: two switches, routes across in walk order", "[dot]") {
  const DotTopology t = read_dot_topology(write_dot("twoswitch.dot", kTwoSwitch));
  CHECK(t.endpoints() == 4);
  CHECK(t.switches() == 2);
  CHECK(t.links() == 10);
  CHECK(t.diameter() == 3);
  CHECK(t.describe() == "dot file 'twoswitch.dot' (4 hosts, 2 switches)");
  CHECK(route_of(t, 0, 2) == std::vector<LinkId>{0, 6, 7});  // H0 -> S0, S0 -> S1, S1 -> H2
  CHECK(route_of(t, 3, 1) == std::vector<LinkId>{3, 9, 5});
  CHECK(route_of(t, 0, 1) == std::vector<LinkId>{0, 5});
  CHECK(route_of(t, 2, 3) == std::vector<LinkId>{2, 8});
  CHECK(t.link_name(6) == "S0 -> S1");
  CHECK(t.link_name(9) == "S1 -> S0");
}

TEST_CASE("dot topology: the example of docs/models/topology-files.md", "[dot]") {
  const DotTopology t = read_dot_topology(write_dot(
      "doc-example.dot",
      "digraph twoswitch {\n"
      "  edge [comment=\"*\"];\n"
      "  H0; H1; H2; H3; S0; S1;\n"
      "  H0 -> S0;  H1 -> S0;  H2 -> S1;  H3 -> S1;\n"
      "  S0 -> H0 [comment=\"H0\"]; S0 -> H1 [comment=\"H1\"]; S0 -> S1 [comment=\"H2, H3\", "
      "bandwidth=25];\n"
      "  S1 -> H2 [comment=\"H2\"]; S1 -> H3 [comment=\"H3\"]; S1 -> S0 [comment=\"H0 H1\", "
      "bandwidth=25];\n"
      "}\n"));
  CHECK(route_of(t, 0, 2) == std::vector<LinkId>{0, 6, 7});
  CHECK(route_of(t, 3, 1) == std::vector<LinkId>{3, 9, 5});
  CHECK(t.diameter() == 3);
  for (LinkId link = 0; link < t.links(); ++link) {
    CHECK(t.bandwidth(link) ==
          (link == 6 || link == 9 ? std::optional<double>(25.0) : std::nullopt));
    CHECK_FALSE(t.latency(link).has_value());
  }
}

TEST_CASE("dot topology: ranks by first appearance, not by the number in the name", "[dot]") {
  // Walk order S0, H5, H1: rank 0 is H5. Links: S0 -> H5 0, S0 -> H1 1, H5 -> S0 2, H1 -> S0 3.
  const DotTopology t = read_dot_topology(write_dot("order.dot",
                                                    "digraph {\n"
                                                    "  edge [comment=\"*\"];\n"
                                                    "  S0 -> H5 [comment=\"H5\"];\n"
                                                    "  H1 -> S0;\n"
                                                    "  S0 -> H1 [comment=\"H1\"];\n"
                                                    "  H5 -> S0;\n"
                                                    "}\n"));
  CHECK(t.host_name(0) == "H5");
  CHECK(t.host_name(1) == "H1");
  CHECK(t.switches() == 1);
  CHECK(route_of(t, 0, 1) == std::vector<LinkId>{2, 1});
  CHECK(route_of(t, 1, 0) == std::vector<LinkId>{3, 0});
  CHECK(t.link_name(0) == "S0 -> H5");
}

TEST_CASE("dot topology: out-edges in their heads' walk order, parallel ones as written", "[dot]") {
  // Walk order H0, H1, S0: S0's out-edges are numbered S0 -> H0, S0 -> H0 again, S0 -> H1,
  // whatever their order in the file (cgraph's out-edge order, which LogGOPSim takes).
  const DotTopology t = read_dot_topology(write_dot("out-order.dot",
                                                    "digraph {\n"
                                                    "  H0; H1;\n"
                                                    "  S0 -> H1 [comment=\"H1\"];\n"
                                                    "  S0 -> H0 [comment=\"\"];\n"
                                                    "  S0 -> H0 [comment=\"H0\"];\n"
                                                    "  H0 -> S0; H1 -> S0;\n"
                                                    "}\n"));
  CHECK(t.link_name(0) == "H0 -> S0");
  CHECK(t.link_name(1) == "H1 -> S0");
  CHECK(t.link_name(2) == "S0 -> H0");
  CHECK(t.link_name(3) == "S0 -> H0 (parallel 2)");
  CHECK(t.link_name(4) == "S0 -> H1");
  CHECK(route_of(t, 1, 0) == std::vector<LinkId>{1, 3});
  CHECK(route_of(t, 0, 1) == std::vector<LinkId>{0, 4});
}

TEST_CASE("dot topology: parallel edges, separators, the first listing wins", "[dot]") {
  // Links: uplinks H0 0, H1 1, H2 2, H3 3; S0 -> H0 4, S0 -> H1 5, S0 -> S1 6 and its parallel
  // edge 7; S1 -> H2 8, S1 -> H3 9, S1 -> S0 10. S0 -> H1 lists H0 again (link 4 keeps it);
  // the parallel edge lists H2 again (link 6 keeps it) and takes H3. Lists are separated by
  // commas, spaces, tabs and newlines in any mix; a node's single out-edge ignores its list.
  const DotTopology t =
      read_dot_topology(write_dot("parallel.dot",
                                  "digraph {\n"
                                  "  H0; H1; H2; H3;\n"
                                  "  H0 -> S0 [comment=\"H3\"]; H1 -> S0 [comment=\"*\"];\n"
                                  "  H2 -> S1; H3 -> S1 [comment=\"\"];\n"
                                  "  S0 -> H0 [comment=\"H0\"];\n"
                                  "  S0 -> H1 [comment=\"H1 ,\tH0\"];\n"
                                  "  S0 -> S1 [comment=\"H2\"];\n"
                                  "  S0 -> S1 [comment=\"H3\n H2\"];\n"
                                  "  S1 -> H2 [comment=\"H2\"]; S1 -> H3 [comment=\",H3,\"];\n"
                                  "  S1 -> S0 [comment=\"H0,H1\"];\n"
                                  "}\n"));
  CHECK(t.links() == 11);
  CHECK(route_of(t, 0, 2) == std::vector<LinkId>{0, 6, 8});
  CHECK(route_of(t, 0, 3) == std::vector<LinkId>{0, 7, 9});
  CHECK(route_of(t, 1, 0) == std::vector<LinkId>{1, 4});
  CHECK(route_of(t, 2, 0) == std::vector<LinkId>{2, 10, 4});
  CHECK(route_of(t, 3, 1) == std::vector<LinkId>{3, 10, 5});
  CHECK(t.link_name(6) == "S0 -> S1");
  CHECK(t.link_name(7) == "S0 -> S1 (parallel 2)");
}

TEST_CASE("dot topology: dense and sparse tables route alike", "[dot]") {
  // Six hosts on three switches around X; S0 sends H2 by way of L, which lists two hosts (a
  // sparse table; the others list at least half the hosts: dense ones). Walk order H0, S0, H1,
  // H2, S1, H3, H4, S2, H5, X, L. A node's out-edges come in the walk order of their heads
  // (cgraph's order, which LogGOPSim takes), not in the file's: L -> S0 before L -> X. Links:
  // H0 0; S0 -> H0 1, -> H1 2, -> X 3, -> L 4; H1 5; H2 6; S1 -> H2 7, -> H3 8, -> X 9; H3 10;
  // H4 11; S2 -> H4 12, -> H5 13, -> X 14; H5 15; X -> S0 16, -> S1 17, -> S2 18; L -> S0 19,
  // L -> X 20.
  const std::string text =
      "digraph {\n"
      "  edge [comment=\"*\"];\n"
      "  H0 -> S0; H1 -> S0; H2 -> S1; H3 -> S1; H4 -> S2; H5 -> S2;\n"
      "  S0 -> H0 [comment=\"H0\"]; S0 -> H1 [comment=\"H1\"];\n"
      "  S0 -> X [comment=\"H3 H4 H5\"]; S0 -> L [comment=\"H2\"];\n"
      "  S1 -> H2 [comment=\"H2\"]; S1 -> H3 [comment=\"H3\"];\n"
      "  S1 -> X [comment=\"H0 H1 H4 H5\"];\n"
      "  S2 -> H4 [comment=\"H4\"]; S2 -> H5 [comment=\"H5\"];\n"
      "  S2 -> X [comment=\"H0 H1 H2 H3\"];\n"
      "  X -> S0 [comment=\"H0 H1\"]; X -> S1 [comment=\"H2 H3\"];\n"
      "  X -> S2 [comment=\"H4 H5\"];\n"
      "  L -> X [comment=\"H2\"]; L -> S0 [comment=\"H0\"];\n"
      "}\n";
  const DotTopology t = read_dot_topology(write_dot("tables.dot", text));
  CHECK(t.endpoints() == 6);
  CHECK(t.switches() == 5);
  CHECK(t.links() == 21);
  CHECK(t.diameter() == 5);
  CHECK(route_of(t, 0, 2) == std::vector<LinkId>{0, 4, 20, 17, 7});
  CHECK(route_of(t, 1, 2) == std::vector<LinkId>{5, 4, 20, 17, 7});
  CHECK(t.link_name(19) == "L -> S0");
  CHECK(route_of(t, 0, 5) == std::vector<LinkId>{0, 3, 18, 13});
  CHECK(route_of(t, 5, 2) == std::vector<LinkId>{15, 14, 17, 7});
  CHECK(route_of(t, 2, 0) == std::vector<LinkId>{6, 9, 16, 1});
  CHECK(route_of(t, 4, 5) == std::vector<LinkId>{11, 13});
  // A sparse table without the destination: L lists H0 only.
  const std::string missing = replaced(text, "L -> X [comment=\"H2\"]", "L -> X [comment=\"H0\"]");
  CHECK_THAT(refusal("sparse-missing.dot", missing),
             Contains("dot/sparse-missing.dot:5: node L has 2 out-edges and the comment of none "
                      "lists H2: the route from H0 to H2 cannot go on"));
}

TEST_CASE("dot topology: bandwidth and latency per edge", "[dot]") {
  // Walk order H0, S0, H1. Links: H0 -> S0 0; S0 -> H0 1, S0 -> H1 2; H1 -> S0 3.
  const DotTopology t =
      read_dot_topology(write_dot("attributes.dot",
                                  "digraph {\n"
                                  "  edge [comment=\"*\"];\n"
                                  "  H0 -> S0 [bandwidth=12.5, latency=\"100\"];\n"
                                  "  H1 -> S0 [latency=0];\n"
                                  "  S0 -> H0 [comment=\"H0\", bandwidth=\" 25 \"];\n"
                                  "  S0 -> H1 [comment=\"H1\", bandwidth=\"1e-3\"];\n"
                                  "}\n"));
  CHECK(t.bandwidth(0) == 12.5);
  CHECK(t.latency(0) == 100.0);
  CHECK(t.link_name(1) == "S0 -> H0");
  CHECK(t.bandwidth(1) == 25.0);
  CHECK_FALSE(t.latency(1).has_value());
  CHECK(t.bandwidth(2) == 1e-3);
  CHECK(t.link_name(3) == "H1 -> S0");
  CHECK_FALSE(t.bandwidth(3).has_value());
  CHECK(t.latency(3) == 0.0);
}

TEST_CASE("dot topology: cgraph's state does not leak from one file to the next", "[dot]") {
  // A second graph on the last line of a file stays in cgraph's lexer after the first is read;
  // the next file is read from its own start, with its own line numbers.
  const DotTopology first = read_dot_topology(
      write_dot("two-graphs.dot", "digraph { H0 -> H1; H1 -> H0 } digraph { H7 -> H8; H8 -> H7 }"));
  CHECK(first.host_name(0) == "H0");
  CHECK(read_dot_topology(write_dot("star-again.dot", kStar)).endpoints() == 3);
  CHECK_THAT(refusal("after.dot", "digraph {\n  H0 -> S0;\n  H1 -> -> S0;\n}\n"),
             StartsWith("dot/after.dot:3: cgraph cannot read a graph from it: syntax error in "
                        "line 3 near '->'"));
}

TEST_CASE("dot topology: unreadable and unparseable files are refused", "[dot]") {
  CHECK_THROWS_WITH(read_dot_topology("dot/no-such.dot"),
                    Contains("dot/no-such.dot") && Contains("cannot be read"));
  std::filesystem::create_directories("dot/a-directory.dot");
  CHECK_THROWS_WITH(read_dot_topology("dot/a-directory.dot"), Contains("dot/a-directory.dot"));
  CHECK_THAT(refusal("empty.dot", ""),
             Contains("dot/empty.dot: cgraph cannot read a graph from it: no graph in it"));
  CHECK_THAT(refusal("syntax.dot", "digraph {\n  H0 -> S0\n  S0 -> ;\n}\n"),
             StartsWith("dot/syntax.dot:3: cgraph cannot read a graph from it: syntax error"));
  const char nul[] = "digraph {\n H0 -> H1;\n H1 -> H0 \0 }\n";
  CHECK_THAT(refusal("nul.dot", std::string(nul, sizeof nul - 1)),
             Contains("dot/nul.dot:3: a NUL byte"));
}

TEST_CASE("dot topology: undirected graphs and too few hosts are refused", "[dot]") {
  CHECK_THAT(refusal("undirected.dot", "// a star\ngraph {\n  H0 -- S0; H1 -- S0;\n}\n"),
             StartsWith("dot/undirected.dot:2: an undirected graph") && Contains("digraph"));
  CHECK_THAT(refusal("no-hosts.dot", "digraph { S0 -> S1; S1 -> S0; h0 -> S0 }\n"),
             StartsWith("dot/no-hosts.dot: no hosts") && Contains("capital 'H'"));
  CHECK_THAT(refusal("one-host.dot", "digraph { H0 -> S0; S0 -> H0 }\n"),
             Contains("dot/one-host.dot: only one host (H0)"));
}

TEST_CASE("dot topology: comments naming unknown nodes or switches are refused", "[dot]") {
  CHECK_THAT(refusal("unknown.dot",
                     "digraph {\n"
                     "  edge [comment=\"*\"];\n"
                     "  H0 -> S0; H1 -> S0;\n"
                     "  S0 -> H0 [comment=\"H0\"];\n"
                     "  S0 -> H1 [comment=\"H1, H9\"];\n"
                     "}\n"),
             Contains("dot/unknown.dot:5: edge S0 -> H1: its comment names 'H9', which is no "
                      "node of the graph"));
  CHECK_THAT(refusal("switch.dot",
                     "digraph {\n"
                     "  edge [comment=\"*\"];\n"
                     "  H0 -> S0; H1 -> S0 [comment=\"S0\"];\n"
                     "  S0 -> H0 [comment=\"H0\"];\n"
                     "  S0 -> H1 [comment=\"H1\"];\n"
                     "}\n"),
             Contains("dot/switch.dot:3: edge H1 -> S0: its comment names 'S0', a switch"));
  // A comment from a default: the line of the edge's own statement.
  CHECK_THAT(refusal("default.dot",
                     "digraph {\n"
                     "  edge [comment=\"H5\"];\n"
                     "  H0 -> H1;\n"
                     "  H1 -> H0;\n"
                     "}\n"),
             Contains("dot/default.dot:3: edge H0 -> H1: its comment names 'H5'"));
  // The second of parallel edges, found on its own line.
  CHECK_THAT(
      refusal("parallel-bad.dot",
              "digraph {\n"
              "  H0 -> S0 [comment=\"*\"];\n"
              "  H0 -> S0 [comment=\"*\"];\n"
              "  H0 -> S0 [comment=\"H7\"];\n"
              "  H1 -> S0; S0 -> H1 }\n"),
      Contains("dot/parallel-bad.dot:4: edge H0 -> S0 (parallel 3): its comment names 'H7'"));
}

TEST_CASE("dot topology: bad bandwidth and latency values are refused", "[dot]") {
  const auto file = [](const std::string& attributes) {
    return "digraph {\n"
           "  edge [comment=\"*\"];\n"
           "  H0 -> H1;\n"
           "  H1 -> H0 [" +
           attributes + "];\n}\n";
  };
  CHECK_THAT(refusal("bw-negative.dot", file("bandwidth=-1")),
             Contains("dot/bw-negative.dot:4: edge H1 -> H0: bandwidth = \"-1\" is not a finite "
                      "number > 0 (bytes per ns)"));
  CHECK_THAT(refusal("bw-zero.dot", file("bandwidth=0")), Contains("bandwidth = \"0\""));
  CHECK_THAT(refusal("bw-word.dot", file("bandwidth=fast")), Contains("bandwidth = \"fast\""));
  CHECK_THAT(refusal("bw-unit.dot", file("bandwidth=\"10GB/s\"")),
             Contains("bandwidth = \"10GB/s\""));
  CHECK_THAT(refusal("lat-negative.dot", file("latency=-0.5")),
             Contains("dot/lat-negative.dot:4: edge H1 -> H0: latency = \"-0.5\" is not a finite "
                      "number >= 0 (ns)"));
  CHECK_THAT(refusal("lat-inf.dot", file("latency=inf")), Contains("latency = \"inf\""));
  CHECK_THAT(refusal("lat-nan.dot", file("latency=nan")), Contains("latency = \"nan\""));
}

TEST_CASE("dot topology: routes that cannot go on or go round are refused", "[dot]") {
  // S0 lists H2 but not H3: the route from H0 (the first source walked) to H3 stops there.
  const std::string missing = replaced(kTwoSwitch, "\"H2, H3\"", "\"H2\"");
  CHECK_THAT(refusal("missing.dot", missing),
             Contains("dot/missing.dot:2: node S0 has 3 out-edges and the comment of none lists "
                      "H3: the route from H0 to H3 cannot go on"));
  CHECK_THAT(refusal("dead-end.dot",
                     "digraph {\n"
                     "  edge [comment=\"*\"];\n"
                     "  H0 -> S0; H1 -> S0;\n"
                     "  S0 -> H1 [comment=\"H1\"]; S0 -> S2 [comment=\"H0\"];\n"
                     "}\n"),
             Contains("dot/dead-end.dot:4: node S2 has no out-edge: the route from H1 to H0 "
                      "cannot go on"));
  // S1 sends H2 back to S0, which sends it to S1: LogGOPSim would walk for ever.
  const std::string loop =
      replaced(replaced(kTwoSwitch, "S1 -> H2 [comment=\"H2\"]", "S1 -> H2 [comment=\"*\"]"),
               "\"H0 H1\"", "\"H0 H1 H2\"");
  CHECK_THAT(refusal("loop.dot", loop),
             Contains("dot/loop.dot: a routing loop: the route from H0 to H2 goes round S0 -> "
                      "S1 -> S0"));
  // A self-loop listing the destination.
  CHECK_THAT(refusal("self-loop.dot",
                     "digraph {\n"
                     "  edge [comment=\"*\"];\n"
                     "  H0 -> S0; H1 -> S0;\n"
                     "  S0 -> S0 [comment=\"H1\"]; S0 -> H0 [comment=\"H0\"];\n"
                     "}\n"),
             Contains("the route from H0 to H1 goes round S0 -> S0"));
}
