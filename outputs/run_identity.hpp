#pragma once
// What a result or checkpoint file records of the run that wrote it, as plain values: the
// outputs layer writes them without knowing run files (runs/run_file.hpp builds this).
#include <cstdint>
#include <string>

namespace collnoise {

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
};

}  // namespace collnoise
