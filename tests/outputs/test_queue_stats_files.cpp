// Match-queue statistics files (outputs/queue_stats_io.hpp): JSON and HDF5 hold the same
// values, read back bit for bit; a damaged or inconsistent file is refused, as are other
// extensions and an existing file without force.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>

#include "core/errors.hpp"
#include "outputs/queue_stats_io.hpp"
#include "tests/fixtures/command_line.hpp"

using namespace collnoise;
using namespace collnoise::testing;

namespace {

// Three ranks: one without samples, one with a third of a mean (not a short decimal), one long.
QueueStatsFile sample_file() {
  QueueStatsFile f{"a hand-made file", "sampled by hand", {}, {}};
  f.posted.add_rank({});
  f.posted.add_rank({2, 0, 1});
  f.posted.add_rank({0, 0, 0, 0, 0, 0, 0, 0, 0, 5});
  f.unexpected.add_rank({7});
  f.unexpected.add_rank({1, 1, 1});
  f.unexpected.add_rank({});
  return f;
}

void check_equal(const QueueLengthTable& a, const QueueLengthTable& b) {
  CHECK(a.samples == b.samples);
  CHECK(a.mean == b.mean);
  CHECK(a.max == b.max);
  CHECK(a.offsets == b.offsets);
  CHECK(a.counts == b.counts);
}

void edit_json(const std::string& path, const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json j = nlohmann::json::parse(slurp(path));
  edit(j);
  std::ofstream(path) << j.dump();
}

}  // namespace

TEST_CASE("queue statistics: a rank's table from its histogram") {
  const QueueStatsFile f = sample_file();
  CHECK(f.posted.samples == std::vector<std::uint64_t>{0, 3, 5});
  CHECK(f.posted.max == std::vector<std::uint64_t>{0, 2, 9});
  CHECK(f.posted.mean == std::vector<double>{0.0, 2.0 / 3.0, 9.0});
  CHECK(f.posted.offsets == std::vector<std::uint64_t>{0, 0, 3, 13});
  CHECK(queue_table_problem(f.posted).empty());
  QueueLengthTable bad = f.posted;
  bad.mean[1] = 0.6666;
  CHECK_THAT(queue_table_problem(bad), Catch::Contains("rank 1's mean"));
  bad = f.posted;
  bad.samples[2] = 4;
  CHECK_THAT(queue_table_problem(bad), Catch::Contains("rank 2's histogram counts 5"));
}

TEST_CASE("queue statistics: JSON and HDF5 round trips") {
  const QueueStatsFile f = sample_file();
  for (const std::string path : {"qs_round.json", "qs_round.h5"}) {
    INFO(path);
    std::filesystem::remove(path);
    write_queue_stats(f, path, false);
    const QueueStatsFile back = read_queue_stats(path);
    CHECK(back.title == f.title);
    CHECK(back.rule == f.rule);
    check_equal(back.posted, f.posted);
    check_equal(back.unexpected, f.unexpected);
    // An existing file is kept unless forced.
    CHECK_THROWS_AS(write_queue_stats(f, path, false), InputError);
    write_queue_stats(f, path, true);
  }
  const nlohmann::json j = nlohmann::json::parse(slurp("qs_round.json"));
  CHECK(j["format"] == "collnoise queue statistics");
  CHECK(j["ranks"] == 3);
  CHECK(j["posted_histogram"][1] == nlohmann::json::array({2, 0, 1}));
  CHECK(j["unexpected_histogram"][2] == nlohmann::json::array());
  CHECK_THROWS_AS(write_queue_stats(f, "qs_round.txt", true), InputError);
}

TEST_CASE("queue statistics: damaged files are refused") {
  write_queue_stats(sample_file(), "qs_bad.json", true);
  edit_json("qs_bad.json", [](nlohmann::json& j) { j["posted_mean"][1] = 0.5; });
  CHECK_THROWS_WITH(read_queue_stats("qs_bad.json"),
                    Catch::Contains("qs_bad.json") && Catch::Contains("rank 1's mean"));
  write_queue_stats(sample_file(), "qs_bad.json", true);
  edit_json("qs_bad.json", [](nlohmann::json& j) { j["unexpected_max"].erase(0); });
  CHECK_THROWS_AS(read_queue_stats("qs_bad.json"), InputError);
  write_text("qs_bad.json", slurp("qs_round.json").substr(0, 40));
  CHECK_THROWS_WITH(read_queue_stats("qs_bad.json"), Catch::Contains("not JSON"));
  write_text("qs_bad.json", R"({"format": "something else"})");
  CHECK_THROWS_WITH(read_queue_stats("qs_bad.json"), Catch::Contains("format"));
  // One flipped byte of the HDF5 file: its seal no longer matches.
  write_queue_stats(sample_file(), "qs_bad.h5", true);
  std::string bytes = slurp("qs_bad.h5");
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x10);
  std::ofstream("qs_bad.h5", std::ios::binary) << bytes;
  CHECK_THROWS_WITH(read_queue_stats("qs_bad.h5"),
                    Catch::Contains("qs_bad.h5") && Catch::Contains("damaged"));
}
