// The HDF5 layer below result files: datasets written piece by piece, and tallies (the merge
// unit of parts, checkpoints and MPI) surviving a write and a read unchanged, raw samples
// included. The files go to the tests' scratch directory.
#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <numeric>
#include <vector>

#include "outputs/file_seal.hpp"
#include "outputs/hdf5.hpp"
#include "outputs/tally_io.hpp"

using namespace collnoise;

namespace {

std::vector<double> iota_from(double first, std::size_t n) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

}  // namespace

TEST_CASE("a dataset written piece by piece reads back as the pieces end to end", "[outputs]") {
  // Pieces that cross HDF5's 65,536-value chunks, empty pieces between them, and no pieces.
  const std::vector<double> a = iota_from(0.0, 70000), b = iota_from(1e6, 3), c = {-1.5};
  const std::vector<std::span<const double>> pieces = {a, {}, b, {}, c};
  auto file = h5::File::create();
  file.root().write_concatenated("joined", pieces);
  file.root().write_concatenated("nothing", {});
  file.commit("pieces.h5");

  const auto read = h5::File::open("pieces.h5");
  std::vector<double> expected = a;
  expected.insert(expected.end(), b.begin(), b.end());
  expected.push_back(-1.5);
  CHECK(read.root().read_doubles("joined") == expected);
  CHECK(read.root().read_doubles("nothing").empty());
}

TEST_CASE("a tally with raw samples survives a write and a read chunk by chunk", "[outputs]") {
  TallyLayout layout;
  layout.metrics = {"T", "U"};
  layout.pairs = {{0, 1}};
  layout.top_capacity = {0, 0};
  layout.keep_raw = true;
  Tally tally(layout);
  // Rows of (T, U); chunk 7 holds no samples, chunks arrive out of order.
  tally.add_chunk(3, std::vector<double>{1.0, 10.0, 2.0, 20.0, 4.0, 40.0});
  tally.add_chunk(0, std::vector<double>{0.5, 5.0});
  tally.add_chunk(7, std::vector<double>{});
  {
    auto file = h5::File::create();
    write_tally(file.root().create_group("tally"), tally, 3);
    file.commit("tally.h5");
  }
  const auto file = h5::File::open("tally.h5");
  const Tally back = read_tally(file.root().open_group("tally"), layout, "tally.h5");

  REQUIRE(back.chunks().size() == 3);
  CHECK(back.chunks().at(0).raw == std::vector<double>{0.5});
  CHECK(back.chunks().at(3).raw == std::vector<double>{1.0, 2.0, 4.0});
  CHECK(back.chunks().at(7).raw.empty());
  CHECK(back.raw() == std::vector<double>{0.5, 1.0, 2.0, 4.0});
  const Accumulator t = back.total(0);
  CHECK(t.count == 4);
  CHECK(t.mean == Approx(7.5 / 4).epsilon(1e-15));
  CHECK(t.max == 4.0);
  CHECK(back.total(1).mean == Approx(75.0 / 4).epsilon(1e-15));
}

TEST_CASE("merging a tally by move gives the copy merge's chunks, and refuses overlaps untouched",
          "[outputs]") {
  TallyLayout layout;
  layout.metrics = {"T"};
  layout.top_capacity = {2};
  layout.keep_raw = true;
  const auto tally_of = [&](std::uint64_t chunk, std::vector<double> values) {
    Tally t(layout);
    t.add_chunk(chunk, values);
    return t;
  };
  Tally copied = tally_of(0, {1.0, 2.0});
  Tally moved = tally_of(0, {1.0, 2.0});
  const Tally other = tally_of(1, {3.0});
  copied.merge(other);
  moved.merge(Tally(other));
  CHECK(moved.raw() == copied.raw());
  CHECK(moved.raw() == std::vector<double>{1.0, 2.0, 3.0});
  CHECK(moved.total(0).count == 3);

  CHECK_THROWS_WITH(moved.merge(tally_of(1, {9.0})), Catch::Contains("chunk 1"));
  CHECK(moved.raw() == std::vector<double>{1.0, 2.0, 3.0});
}

TEST_CASE("a seal whose length runs to its last byte is refused, not read past", "[outputs]") {
  // "bytes " followed by digits up to byte 512 leaves no newline inside the seal: the reader
  // must say the seal is unreadable without looking at byte 512 (ASan reports a read there).
  std::vector<std::byte> image(kSealBytes + 64, std::byte{0x5a});
  std::fill(image.begin(), image.begin() + kSealBytes, std::byte{0});
  seal_image(image);
  std::string head(reinterpret_cast<const char*>(image.data()), kSealBytes);
  const auto bytes_at = head.find("bytes ");
  REQUIRE(bytes_at != std::string::npos);
  for (std::size_t i = bytes_at + 6; i < kSealBytes; ++i) head[i] = '7';
  std::memcpy(image.data(), head.data(), kSealBytes);
  const std::string path = "seal-without-newline.h5";
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(image.data()),
             static_cast<std::streamsize>(image.size()));
  CHECK_THROWS_WITH(verify_seal(path), Catch::Contains("seal is unreadable") &&
                                           Catch::Contains("seal-without-newline.h5"));
}
