#pragma once
// What a result or checkpoint file records of the run that wrote it, as plain values: the
// outputs layer writes them without knowing run files (runs/point_factory.hpp builds this).
#include <cstdint>
#include <string>
#include <vector>

namespace collnoise {

/// A data file a point read, bound to it by content: a result never mixes samples of two
/// contents of one file (docs/cli.md, "What collnoise promises").
struct InputFileIdentity {
  std::string key;   ///< the dotted key that names it ("noise.file")
  std::string path;  ///< as the run file gives it (relative to the run file)
  std::string hash;  ///< "xxh3:<32 hex digits>" of its content
  bool operator==(const InputFileIdentity&) const = default;
};

/// What one point's samples depend on besides the seed and the engine: its stream identity
/// (the model and the keys that define it, data files by content) and its data files.
struct PointIdentity {
  std::string stream;
  std::vector<InputFileIdentity> inputs;
  bool operator==(const PointIdentity&) const = default;
};

struct RunIdentity {
  std::string name;
  std::string run_kind;  ///< "sample", "nhalf", "isoefficiency"
  std::uint64_t seed = 0;
  std::uint64_t samples = 0;  ///< samples per point (0 when the run file gives none)
  double confidence = 0.95;
  std::string path;                ///< the run file, as given
  std::string text;                ///< the run file's full text
  std::string part = "1/1";        ///< "i/n" for one part of a job array
  std::int64_t stream_format = 0;  ///< how streams follow from seeds (core/rng.hpp)
  /// One per point, in order; empty when not known (files written before they were recorded).
  std::vector<PointIdentity> points;
};

}  // namespace collnoise
