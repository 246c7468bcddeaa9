// The flat hash map of messages in flight (core/flat_index_map.hpp) against std::unordered_map:
// the same entries after every insertion and erasure, through growth and the backward shift that
// closes an erased entry's hole (keys from a small range, so that probes collide and wrap).
#include <catch2/catch.hpp>

#include <random>
#include <unordered_map>

#include "core/flat_index_map.hpp"

using namespace collnoise;

namespace {
struct Entry {
  std::uint64_t key;
  std::uint32_t value;
};
}  // namespace

TEST_CASE("flat index map: the entries of std::unordered_map through inserts and erases") {
  FlatIndexMap<Entry> flat;
  std::unordered_map<std::uint64_t, std::uint32_t> reference;
  std::mt19937_64 random(7);  // fixed: the same sequence every run
  for (std::uint32_t step = 0; step < 200000; ++step) {
    // Keys spaced as sends' global indices are (a stride), and some far apart.
    const std::uint64_t key =
        (random() % 300) * 3 + (random() % 8 == 0 ? (std::uint64_t{1} << 40) : 0);
    if (random() % 5 == 0) {
      if (Entry* e = flat.find(key)) flat.erase(e);  // erased as found
      reference.erase(key);
    } else if (random() % 3 == 0) {
      flat.erase(key);
      reference.erase(key);
    } else {
      flat.insert({key, step});
      reference[key] = step;
    }
    if (step % 997 == 0 || step > 199000) {
      REQUIRE(flat.size() == reference.size());
      for (std::uint64_t k = 0; k < 900; ++k)
        for (const std::uint64_t probe : {k, k + (std::uint64_t{1} << 40)}) {
          const Entry* found = flat.find(probe);
          const auto it = reference.find(probe);
          REQUIRE((found != nullptr) == (it != reference.end()));
          if (found != nullptr) REQUIRE(found->value == it->second);
        }
    }
  }
  flat.clear();
  CHECK(flat.size() == 0);
  CHECK(flat.find(3) == nullptr);
}
