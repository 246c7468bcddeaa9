#include "engine/schedules/machine_measurements.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <functional>

#include "core/errors.hpp"
#include "core/param_reader.hpp"
#include "distributions/detour_trace.hpp"
#include "distributions/gpd_tail.hpp"
#include "distributions/latency_samples.hpp"
#include "distributions/netgauge_loggp.hpp"
#include "distributions/netgauge_regimes.hpp"
#include "distributions/time_noise_kind.hpp"
#include "engine/loggops/loggops_keys.hpp"
#include "engine/schedules/engine/latency_pool_keys.hpp"
#include "engine/schedules/engine/message_delays.hpp"
#include "engine/schedules/schedule_net_keys.hpp"
#include "engine/study.hpp"
#include "estimators/block_bootstrap.hpp"

namespace collnoise {
namespace {

namespace fs = std::filesystem;

constexpr const char* kLogGPFile = "ng_loggp.out";
constexpr const char* kTraceFile = "ng_osnoise.out";
// The pools, in the order latency.file lists them: 1-byte latencies, 16 MiB bandwidths, and
// one pair's ping-pongs at every power of two.
constexpr const char* kPoolFiles[] = {"ng_netnoise_mpi_lat.out", "ng_netnoise_mpi_bw.out",
                                      "ng_one_one_mpi_stripe1.out"};
constexpr std::int64_t kPoolWarmup = 21;
constexpr std::int64_t kPoolBlock = 1000;

// A key's name through its declaration: a name no declaration holds is a bug, caught here
// (tests prepare a point from every key this writes).
const std::string& declared(const std::vector<KeySpec>& keys, const std::string& name) {
  const auto it =
      std::find_if(keys.begin(), keys.end(), [&](const KeySpec& k) { return k.name == name; });
  if (it == keys.end())
    throw RuntimeFailure(fmt::format("machine measurements: no key {} is declared", name));
  return it->name;
}

const std::string& loggops_name(const std::string& name) {
  static const std::vector<KeySpec> keys = [] {
    std::vector<KeySpec> all = loggops_keys();
    for (const KeySpec& k : schedule_net_keys()) all.push_back(k);
    return all;
  }();
  return declared(keys, name);
}

const std::string& latency_name(const std::string& name) {
  static const std::vector<KeySpec> keys = [] {
    std::vector<KeySpec> all = message_delay_keys();
    for (const KeySpec& k : latency_pool_keys()) all.push_back(k);
    return all;
  }();
  return declared(keys, name);
}

// A regime's costs under `prefix` ("loggops." or "loggops.rendezvous_regime."), seconds.
struct RegimeKey {
  const char* name;
  double LogGPRegime::*field;
};
constexpr RegimeKey kCosts[] = {
    {"o", &LogGPRegime::o}, {"O", &LogGPRegime::O}, {"g", &LogGPRegime::g}, {"G", &LogGPRegime::G}};

// Every fitted LogGP key with its value in one fit (L once: the wire's).
std::vector<std::pair<std::string, double>> fitted_loggp(const NetgaugeRegimeFit& fit) {
  std::vector<std::pair<std::string, double>> out = {{loggops_name("loggops.L"), fit.eager.L}};
  for (const RegimeKey& k : kCosts)
    out.emplace_back(loggops_name(fmt::format("loggops.{}", k.name)), fit.eager.*k.field);
  if (fit.rendezvous)
    for (const RegimeKey& k : kCosts)
      out.emplace_back(loggops_name(fmt::format("loggops.rendezvous_regime.{}", k.name)),
                       (*fit.rendezvous).*k.field);
  return out;
}

std::string named(const std::string& folder_as_named, const std::string& file) {
  return folder_as_named.empty() ? file : (fs::path(folder_as_named) / file).string();
}

void add_input(MeasuredMachine& machine, const std::string& folder, const std::string& as_named,
               const std::string& file, const std::string& role) {
  const std::string path = (fs::path(folder) / file).string();
  machine.inputs.push_back({named(as_named, file), file_content_hash(role, path), role});
}

void measure_loggp(const std::string& folder, const std::string& as_named,
                   const MeasurementOptions& options, MeasuredMachine& machine) {
  const std::string path = (fs::path(folder) / kLogGPFile).string();
  if (!fs::is_regular_file(path))
    throw InputError(
        fmt::format("Netgauge folder '{}' has no {}: the LogGP fit needs it", folder, kLogGPFile));
  add_input(machine, folder, as_named, kLogGPFile, "netgauge-loggp");
  const NetgaugeLogGPTable table = NetgaugeLogGPTable::from_file(path);
  const NetgaugeRegimeFit fit = fit_netgauge_regimes(table);
  const std::vector<NetgaugeRegimeFit> draws =
      resampled_regime_fits(table, options.draws, options.seed);
  machine.draws.resize(draws.size());
  for (std::size_t d = 0; d < draws.size(); ++d)
    for (const auto& [key, value] : fitted_loggp(draws[d])) machine.draws[d][key] = value;
  for (const auto& [key, value] : fitted_loggp(fit)) {
    machine.keys[key] = value;
    std::vector<double> values;
    for (const ParamMap& draw : machine.draws) values.push_back(std::get<double>(draw.at(key)));
    const auto [low, high] = percentile_interval(values, options.level);
    machine.fitted.push_back(
        {.key = key,
         .value = value,
         .low = std::min(low, value),
         .high = std::max(high, value),
         .level = options.level,
         .method = fmt::format("Theil-Sen lines per protocol regime of {} (docs/models/"
                               "netgauge-files.md); percentiles of {} refits on its rows drawn "
                               "with replacement within each regime",
                               kLogGPFile, draws.size()),
         .stage = "measurements"});
  }
  if (fit.eager_bytes) {
    machine.keys[loggops_name("loggops.S")] = static_cast<std::int64_t>(*fit.eager_bytes);
    machine.notes.push_back(fmt::format("{}: protocol switch at {} bytes (loggops.S = {})",
                                        kLogGPFile, *fit.eager_bytes + 1, *fit.eager_bytes));
  } else {
    machine.notes.push_back(fmt::format("{}: no protocol switch found", kLogGPFile));
  }
}

// A tail's fit for people: the shape's interval from its bootstrap (a run draws from the fit
// alone, distributions/gpd_tail.hpp).
std::string tail_note(const std::string& what, std::span<const double> values,
                      const MeasurementOptions& options) {
  std::string why;
  const auto tail = fit_gpd_tail(values, options.level, options.seed, why);
  return tail ? fmt::format("{}: {}", what, tail->describe())
              : fmt::format("{}: no tail fitted ({}); drawn as measured", what, why);
}

void note_pool_tails(const std::string& folder, const MeasurementOptions& options,
                     MeasuredMachine& machine) {
  std::vector<std::string> paths;
  for (const char* file : kPoolFiles)
    if (fs::is_regular_file(fs::path(folder) / file))
      paths.push_back((fs::path(folder) / file).string());
  PoolTransform transform;
  transform.warmup = kPoolWarmup;
  transform.block = kPoolBlock;
  const LatencySamples pools =
      LatencySamples::from_files(paths, 0.0, LatencyColumn::kOneWay, transform);
  for (const LatencyPoolSummary& p : pools.summaries())
    machine.notes.push_back(tail_note(fmt::format("pool of {} B, seconds", p.message_bytes),
                                      pools.pool(p.message_bytes), options));
}

void measure_pools(const std::string& folder, const std::string& as_named,
                   const MeasurementOptions& options, MeasuredMachine& machine) {
  TextList pools;
  for (const char* file : kPoolFiles) {
    if (!fs::is_regular_file(fs::path(folder) / file)) {
      machine.notes.push_back(fmt::format("{}: absent, not pooled", file));
      continue;
    }
    add_input(machine, folder, as_named, file, "netgauge-pool");
    pools.push_back(named(as_named, file));
  }
  if (pools.empty())
    throw InputError(fmt::format("Netgauge folder '{}' has none of {}: no measured pool", folder,
                                 fmt::join(kPoolFiles, ", ")));
  machine.keys[latency_name("latency.file")] = pools;
  machine.keys[latency_name("latency.column")] = std::string("one_way");
  machine.keys[latency_name("latency.use")] = std::string("whole");
  machine.keys[latency_name("latency.warmup")] = kPoolWarmup;
  machine.keys[latency_name("latency.block")] = kPoolBlock;
  if (options.gpd_tails) {
    machine.keys[latency_name("latency.tail")] = std::string("gpd");
    note_pool_tails(folder, options, machine);
  }
}

void measure_detours(const std::string& folder, const std::string& as_named,
                     const MeasurementOptions& options, MeasuredMachine& machine) {
  const fs::path path = fs::path(folder) / kTraceFile;
  if (!fs::is_regular_file(path) || fs::file_size(path) == 0) {
    machine.notes.push_back(fmt::format("{}: absent or empty, no detours", kTraceFile));
    return;
  }
  add_input(machine, folder, as_named, kTraceFile, "netgauge-detours");
  const TimeNoiseKind trace = trace_noise_kind();
  const std::string& table = noise_law_table();
  machine.keys[table + ".law"] = trace.name;
  machine.keys[table + "." + declared(trace.keys, "file")] = named(as_named, kTraceFile);
  if (!options.gpd_tails) return;
  machine.keys[table + "." + declared(trace.keys, "replay")] = std::string("poisson");
  machine.keys[table + "." + declared(trace.keys, "tail")] = std::string("gpd");
  const std::vector<double> durations =
      detour_durations(read_detour_trace(path.string(), trace_unit("ns")));
  machine.notes.push_back(
      tail_note(fmt::format("{} detour durations, seconds", kTraceFile), durations, options));
}

}  // namespace

MeasuredMachine measure_machine(const std::string& folder, const std::string& folder_as_named,
                                const MeasurementOptions& options) {
  if (options.draws < 2 || !(options.level > 0.0 && options.level < 1.0))
    throw InputError(fmt::format(
        "the measurements' bootstrap needs at least 2 draws and a level in (0, 1) (given {}, {})",
        options.draws, options.level));
  MeasuredMachine machine;
  measure_loggp(folder, folder_as_named, options, machine);
  measure_pools(folder, folder_as_named, options, machine);
  measure_detours(folder, folder_as_named, options, machine);
  return machine;
}

}  // namespace collnoise
