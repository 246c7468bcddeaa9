#pragma once
// What a calibration knows of a value it fitted, and of the files it fitted it from
// (docs/calibration.md): written into machine files, read back by runs that include them.
#include <string>

namespace collnoise {

/// A file the calibration read, bound to it by content.
struct MachineInput {
  std::string path;  ///< relative to the machine file's folder, or absolute
  std::string hash;  ///< "xxh3:<32 hex digits>"
  std::string role;  ///< what it was read as ("netgauge-loggp", "measured-times", ...)
};

/// One value the calibration fitted, with its interval.
struct FittedValue {
  std::string key;     ///< the point key it gives ("loggops.o")
  double value = 0.0;  ///< in the key's unit
  double low = 0.0;    ///< the interval's ends
  double high = 0.0;
  double level = 0.9;  ///< the interval's level
  std::string method;  ///< how it was fitted and its interval taken, in words
  std::string stage;   ///< "measurements" (Netgauge files alone) or "tables" (fitted to tables)
};

}  // namespace collnoise
