// Damaged results are refused before HDF5 reads them (the file seal, docs/hdf5-layout.md):
// flipped bits, truncation and edits by another program, by summary and verify; files written
// before the seal are read with a note.
#include <hdf5.h>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/fixtures/command_line.hpp"
#include "tests/fixtures/small_runs.hpp"

namespace fs = std::filesystem;

namespace {

using namespace collnoise::testing;

const std::string kSmall = small_tree_sweep_run("hard", "law = \"pareto\"\na = 2.5\nf = 0.01\n");

}  // namespace

TEST_CASE("damaged files are refused before HDF5 reads them, verify, old and edited files") {
  write_text("h5.toml", kSmall);
  REQUIRE(run_command_line("run h5.toml --out h5.h5 --force --quiet").code == 0);
  REQUIRE(run_command_line("verify h5.h5").code == 0);
  const std::string good = slurp("h5.h5");
  // One flipped bit anywhere: refused (exit 2) naming the file, by summary and verify.
  for (const std::size_t at : {std::size_t{600}, good.size() / 2, good.size() - 3}) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x10);
    std::ofstream("h5-bad.h5", std::ios::binary) << bad;
    expect_refused(run_command_line("summary h5-bad.h5"), {"h5-bad.h5", "damaged"});
    const auto v = run_command_line("verify h5-bad.h5");
    CHECK(v.code == 2);
    CHECK(v.output.find("h5-bad.h5") != std::string::npos);
  }
  // Truncated.
  std::ofstream("h5-cut.h5", std::ios::binary) << good.substr(0, good.size() - 100);
  expect_refused(run_command_line("summary h5-cut.h5"), {"h5-cut.h5", "truncated"});
  // A file another program changed (an attribute added): fails verification; --no-verify reads.
  fs::copy_file("h5.h5", "h5-edited.h5", fs::copy_options::overwrite_existing);
  {
    const hid_t file = H5Fopen("h5-edited.h5", H5F_ACC_RDWR, H5P_DEFAULT);
    REQUIRE(file >= 0);
    const hid_t space = H5Screate(H5S_SCALAR);
    const int value = 1;
    const hid_t attr =
        H5Acreate2(file, "added_by_user", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attr, H5T_NATIVE_INT, &value);
    H5Aclose(attr);
    H5Sclose(space);
    H5Fclose(file);
  }
  expect_refused(run_command_line("summary h5-edited.h5"), {"h5-edited.h5", "--no-verify"});
  const auto edited = run_command_line("summary h5-edited.h5 --no-verify --json");
  CHECK(edited.code == 0);
  // A result written before files were sealed (by 645c846): read, with a note.
  const std::string old =
      std::string(COLLNOISE_SOURCE_DIR) + "/tests/fixtures/data/old-format-645c846.h5";
  const auto read_old = run_command_line("summary " + old);
  INFO(read_old.output);
  CHECK(read_old.code == 0);
  CHECK(read_old.output.find("carries no checksum") != std::string::npos);
  const auto verify_old = run_command_line("verify " + old);
  CHECK(verify_old.code == 0);
  CHECK(verify_old.output.find("no checksum") != std::string::npos);
  // Not HDF5 at all.
  expect_refused(run_command_line("summary h5.toml"), {"h5.toml"});
  // verify of several files: 2 when one is damaged, naming it.
  const auto several = run_command_line("verify h5.h5 h5-bad.h5");
  CHECK(several.code == 2);
  CHECK(several.output.find("h5-bad.h5") != std::string::npos);
}
