#include "estimators/tally_codec.hpp"

#include <cstring>
#include <string>
#include <type_traits>

#include "core/errors.hpp"

namespace collnoise {
namespace {

static_assert(std::is_trivially_copyable_v<Accumulator> && std::is_trivially_copyable_v<CoMoment>);

class Writer {
 public:
  template <class T>
  void put(const T& value) {
    const auto* p = reinterpret_cast<const std::byte*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  template <class T>
  void put_all(const std::vector<T>& values) {
    put(static_cast<std::uint64_t>(values.size()));
    const auto* p = reinterpret_cast<const std::byte*>(values.data());
    bytes_.insert(bytes_.end(), p, p + values.size() * sizeof(T));
  }
  std::vector<std::byte> take() { return std::move(bytes_); }

 private:
  std::vector<std::byte> bytes_;
};

class Reader {
 public:
  explicit Reader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    T value;
    std::memcpy(&value, take(sizeof(T)), sizeof(T));
    return value;
  }
  template <class T>
  std::vector<T> get_all() {
    const auto n = get<std::uint64_t>();
    if (n > bytes_.size() / sizeof(T)) fail();
    std::vector<T> values(n);
    const std::byte* from = take(n * sizeof(T));
    if (n > 0) std::memcpy(values.data(), from, n * sizeof(T));  // memcpy(nullptr, _, 0) is UB
    return values;
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  const std::byte* take(std::size_t n) {
    if (n > bytes_.size() - at_) fail();
    const std::byte* p = bytes_.data() + at_;
    at_ += n;
    return p;
  }
  [[noreturn]] static void fail() {
    throw RuntimeFailure("an encoded tally is truncated or does not fit its layout");
  }
  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
};

}  // namespace

std::vector<std::byte> encode_tally(const Tally& tally) {
  Writer w;
  w.put(static_cast<std::uint64_t>(tally.chunks().size()));
  for (const auto& [index, chunk] : tally.chunks()) {
    w.put(index);
    for (const Accumulator& a : chunk.metrics) w.put(a);
    for (const CoMoment& c : chunk.pairs) w.put(c);
    w.put_all(chunk.raw);
  }
  for (const auto& named : tally.histograms()) {
    w.put_all(named.histogram.counts());
    w.put(named.histogram.underflow());
    w.put(named.histogram.overflow());
  }
  for (const auto& top : tally.tops()) w.put_all(top.descending());
  return w.take();
}

void merge_encoded_tally(Tally& into, std::span<const std::byte> bytes) {
  const TallyLayout& layout = into.layout();
  Tally other(layout);
  Reader r(bytes);
  const auto chunks = r.get<std::uint64_t>();
  for (std::uint64_t k = 0; k < chunks; ++k) {
    const auto index = r.get<std::uint64_t>();
    ChunkTally chunk;
    for (std::size_t m = 0; m < layout.metrics.size(); ++m)
      chunk.metrics.push_back(r.get<Accumulator>());
    for (std::size_t p = 0; p < layout.pairs.size(); ++p) chunk.pairs.push_back(r.get<CoMoment>());
    chunk.raw = r.get_all<double>();
    other.insert_chunk(index, std::move(chunk));
  }
  for (auto& named : other.histograms()) {
    auto counts = r.get_all<std::uint64_t>();
    const auto underflow = r.get<std::uint64_t>();
    const auto overflow = r.get<std::uint64_t>();
    if (counts.size() != named.histogram.counts().size())
      throw RuntimeFailure("an encoded tally's histogram does not fit its layout");
    named.histogram = Histogram::from_parts(named.histogram.edges(), std::move(counts), underflow,
                                            overflow, named.histogram.spacing());
  }
  for (auto& top : other.tops())
    for (double x : r.get_all<double>()) top.add(x);
  if (!r.done()) throw RuntimeFailure("an encoded tally has trailing bytes");
  into.merge(std::move(other));
}

}  // namespace collnoise
