#pragma once
// A machine from its Netgauge files alone (docs/calibration.md, "From the measurements alone"):
// the schedule model's keys that say what the files measured, each fitted value with its
// bootstrap interval, for a machine file (runs/machine_file.hpp).
//
//  - LogGP per protocol regime from ng_loggp.out, fitted as loggops.file_fit = "regimes" fits it
//    (distributions/netgauge_regimes.hpp), written as [loggops] and
//    [loggops.rendezvous_regime] keys with loggops.S the detected switch; intervals from a pairs
//    bootstrap of the rows within each regime (resampled_regime_fits), percentiles at `level`.
//  - The measured one-way times as pools: ng_netnoise_mpi_lat.out, ng_netnoise_mpi_bw.out and
//    ng_one_one_mpi_stripe1.out, those the folder holds, drawn whole at each message's size
//    (latency.use = "whole"), the first 21 of each block of 1000 dropped (Netgauge's blocks, the
//    first ones slow: docs/models/netgauge-files.md, "Transforms").
//  - The detours of ng_osnoise.out, replayed as a trace (noise.law = "trace"), when it holds any.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/fitted_value.hpp"
#include "core/param_value.hpp"

namespace collnoise {

struct MeasurementOptions {
  std::size_t draws = 200;  ///< bootstrap draws of the LogGP fit (>= 2)
  double level = 0.9;       ///< of the intervals, in (0, 1)
  std::uint64_t seed = 0;   ///< of the bootstrap's streams
  /// Generalised Pareto tails beyond the data (docs/models/tails.md): the detours as a Poisson
  /// process of spliced durations, the pools spliced too; each tail's fit in the notes.
  bool gpd_tails = false;
};

struct MeasuredMachine {
  ParamMap keys;                     ///< the schedule model's point keys
  std::vector<MachineInput> inputs;  ///< every file read, paths as the keys give them
  std::vector<FittedValue> fitted;   ///< each fitted key, with its interval
  std::vector<ParamMap> draws;       ///< the fitted keys in each bootstrap draw
  std::vector<std::string> notes;    ///< what was found and what was missing, for people
};

/// The machine measured by the Netgauge run in `folder`; data-file keys name its files as
/// `folder_as_named` + "/" + file (the folder as the machine file will name it). InputError
/// naming the file at fault: no ng_loggp.out, one the regime fit refuses, no pool file.
MeasuredMachine measure_machine(const std::string& folder, const std::string& folder_as_named,
                                const MeasurementOptions& options);

}  // namespace collnoise
