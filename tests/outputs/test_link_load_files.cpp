// Link-load files (outputs/link_load_io.hpp): JSON and HDF5 hold the same values, read back bit
// for bit; a damaged or inconsistent file is refused, as are other extensions and an existing
// file without force.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>

#include "core/errors.hpp"
#include "outputs/link_load_io.hpp"
#include "tests/fixtures/command_line.hpp"

using namespace collnoise;
using namespace collnoise::testing;

namespace {

// Three links over a 300 ns run, the first two traced: a third of a utilisation (not a short
// decimal), a background message, a link cut by the bound.
LinkLoadFile sample_file() {
  LinkLoadFile f{"a hand-made file", "flows", "loads by hand", "by bytes", 300.0, {}, {}};
  LinkLoadTable& t = f.table;
  t.link = {7, 2, 9};
  t.link_name = {"S0 -> H1", "H0 -> S0", "S0 -> H2"};
  t.bytes_carried = {200, 100, 100};
  t.busy_ns = {200.0, 100.0, 50.0};
  t.mean_messages = {1.0, 1.0 / 3.0, 1.0};
  t.max_messages = {2, 1, 1};
  t.mean_rate = {2.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0};
  t.max_rate = {1.0, 1.0, 2.0};
  t.bandwidth = {1.0, 1.0, 2.0};
  t.utilisation = {200.0 / 300.0, 100.0 / 300.0, 100.0 / (2.0 * 300.0)};
  t.background_messages = {0, 0, 1};
  f.steps.times_ns = {0.0, 100.0, 200.0, 0.0};
  f.steps.messages = {1, 2, 0, 1};
  f.steps.rates = {1.0, 1.0, 0.0, 1.0};
  f.steps.offsets = {0, 3, 4};
  f.steps.end_ns = {300.0, 100.0};
  f.steps.truncated = {0, 1};
  return f;
}

void check_equal(const LinkLoadFile& a, const LinkLoadFile& b) {
  CHECK(a.title == b.title);
  CHECK(a.model == b.model);
  CHECK(a.rule == b.rule);
  CHECK(a.ranking == b.ranking);
  CHECK(a.completion_ns == b.completion_ns);
  CHECK(a.table.link == b.table.link);
  CHECK(a.table.link_name == b.table.link_name);
  CHECK(a.table.bytes_carried == b.table.bytes_carried);
  CHECK(a.table.busy_ns == b.table.busy_ns);
  CHECK(a.table.mean_messages == b.table.mean_messages);
  CHECK(a.table.max_messages == b.table.max_messages);
  CHECK(a.table.mean_rate == b.table.mean_rate);
  CHECK(a.table.max_rate == b.table.max_rate);
  CHECK(a.table.bandwidth == b.table.bandwidth);
  CHECK(a.table.utilisation == b.table.utilisation);
  CHECK(a.table.background_messages == b.table.background_messages);
  CHECK(a.steps.offsets == b.steps.offsets);
  CHECK(a.steps.times_ns == b.steps.times_ns);
  CHECK(a.steps.messages == b.steps.messages);
  CHECK(a.steps.rates == b.steps.rates);
  CHECK(a.steps.end_ns == b.steps.end_ns);
  CHECK(a.steps.truncated == b.steps.truncated);
}

void edit_json(const std::string& path, const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json j = nlohmann::json::parse(slurp(path));
  edit(j);
  std::ofstream(path) << j.dump();
}

}  // namespace

TEST_CASE("link load files: what a file promises") {
  const LinkLoadFile f = sample_file();
  CHECK(link_load_problem(f).empty());
  LinkLoadFile bad = f;
  bad.table.utilisation[0] = 0.6666;
  CHECK_THAT(link_load_problem(bad), Catch::Contains("link 7's utilisation"));
  bad = f;
  bad.table.bytes_carried[1] = 300;
  CHECK_THAT(link_load_problem(bad), Catch::Contains("out of the ranking's order"));
  bad = f;
  bad.table.link[2] = 1;  // a tie broken the wrong way
  CHECK_THAT(link_load_problem(bad), Catch::Contains("row 2 (link 1)"));
  bad = f;
  bad.table.busy_ns[1] = 301.0;
  CHECK_THAT(link_load_problem(bad), Catch::Contains("busy 301 ns of a 300 ns run"));
  bad = f;
  bad.steps.times_ns[2] = 50.0;
  CHECK_THAT(link_load_problem(bad), Catch::Contains("link 7's steps are not increasing"));
  bad = f;
  bad.steps.messages[1] = 3;  // the steps reach more than its largest load
  CHECK_THAT(link_load_problem(bad), Catch::Contains("reach 3 messages"));
  bad = f;
  bad.steps.offsets[1] = 5;
  CHECK_THAT(link_load_problem(bad), Catch::Contains("do not index"));
  bad = f;
  bad.steps.end_ns[0] = 250.0;  // not cut, yet ending before the completion
  CHECK_THAT(link_load_problem(bad), Catch::Contains("not at the completion"));
}

TEST_CASE("link load files: JSON and HDF5 round trips") {
  const LinkLoadFile f = sample_file();
  for (const std::string path : {"ll_round.json", "ll_round.h5"}) {
    INFO(path);
    std::filesystem::remove(path);
    write_link_load(f, path, false);
    check_equal(read_link_load(path), f);
    // An existing file is kept unless forced.
    CHECK_THROWS_AS(write_link_load(f, path, false), InputError);
    write_link_load(f, path, true);
  }
  const nlohmann::json j = nlohmann::json::parse(slurp("ll_round.json"));
  CHECK(j["format"] == "collnoise link load");
  CHECK(j["link_name"][0] == "S0 -> H1");
  CHECK(j["step_times_ns"][0] == nlohmann::json::array({0.0, 100.0, 200.0}));
  CHECK(j["step_messages"][1] == nlohmann::json::array({1}));
  CHECK_THROWS_AS(write_link_load(f, "ll_round.txt", true), InputError);
  // No link at all (every message between ranks of one endpoint): a file all the same.
  LinkLoadFile empty{"none", "simple", "r", "b", 10.0, {}, {}};
  for (const std::string path : {"ll_empty.json", "ll_empty.h5"}) {
    write_link_load(empty, path, true);
    CHECK(read_link_load(path).table.rows() == 0);
  }
}

TEST_CASE("link load files: damaged files are refused") {
  write_link_load(sample_file(), "ll_bad.json", true);
  edit_json("ll_bad.json", [](nlohmann::json& j) { j["utilisation"][1] = 0.5; });
  CHECK_THROWS_WITH(read_link_load("ll_bad.json"),
                    Catch::Contains("ll_bad.json") && Catch::Contains("link 2's utilisation"));
  write_link_load(sample_file(), "ll_bad.json", true);
  edit_json("ll_bad.json", [](nlohmann::json& j) { j["busy_ns"].erase(0); });
  CHECK_THROWS_WITH(read_link_load("ll_bad.json"), Catch::Contains("rows"));
  write_link_load(sample_file(), "ll_bad.json", true);
  edit_json("ll_bad.json", [](nlohmann::json& j) { j["step_rates"][0].erase(0); });
  CHECK_THROWS_AS(read_link_load("ll_bad.json"), InputError);
  write_text("ll_bad.json", slurp("ll_round.json").substr(0, 40));
  CHECK_THROWS_WITH(read_link_load("ll_bad.json"), Catch::Contains("not JSON"));
  write_text("ll_bad.json", R"({"format": "something else"})");
  CHECK_THROWS_WITH(read_link_load("ll_bad.json"), Catch::Contains("format"));
  // One flipped byte of the HDF5 file: its seal no longer matches.
  write_link_load(sample_file(), "ll_bad.h5", true);
  std::string bytes = slurp("ll_bad.h5");
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x10);
  std::ofstream("ll_bad.h5", std::ios::binary) << bytes;
  CHECK_THROWS_WITH(read_link_load("ll_bad.h5"),
                    Catch::Contains("ll_bad.h5") && Catch::Contains("damaged"));
}
