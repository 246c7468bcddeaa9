#include "app/calibrate_command.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <span>

#include "app/exit_codes.hpp"
#include "app/messages.hpp"
#include "app/output_guard.hpp"
#include "core/errors.hpp"
#include "core/param_reader.hpp"
#include "distributions/measured_times.hpp"
#include "engine/schedules/machine_measurements.hpp"
#include "outputs/atomic_file.hpp"
#include "runs/calibration_file.hpp"
#include "runs/machine_file.hpp"
#include "runs/table_fit.hpp"
#include "runs/toml_params.hpp"

namespace collnoise {
namespace {

namespace fs = std::filesystem;

// `path` (as the calibration file's folder sees it) as the machine file's folder will: relative
// to it, so that the machine file and its data move together.
std::string as_named_from(const std::string& out, const std::string& path) {
  const fs::path out_folder = fs::absolute(fs::path(out)).parent_path();
  return fs::absolute(path).lexically_normal().lexically_relative(out_folder).string();
}

std::vector<MeasuredTable> read_tables(const CalibrationFile& c, const std::string& out,
                                       std::vector<MachineInput>& inputs) {
  std::vector<MeasuredTable> tables;
  for (const TableSpec& spec : c.tables) {
    const std::string path = path_from_folder(c.folder, spec.file);
    MeasuredTable t;
    t.path = spec.file;
    t.hash = file_content_hash(fmt::format("{}:{}: table.file", c.path, spec.line), path);
    t.point = spec.point;
    t.times = read_measured_times(path, {.unit = spec.unit, .size = spec.size});
    inputs.push_back({as_named_from(out, path), t.hash, "measured-times"});
    tables.push_back(std::move(t));
  }
  return tables;
}

std::string distance_name(FitDistance d) {
  return d == FitDistance::kKS ? "KS distance"
         : d == FitDistance::kQuantiles
             ? "mean |quantile difference| over 0.1 .. 0.9 / measured median"
             : "W1 / measured median";
}

std::string fit_method(const CalibrationFile& c, const TableFitResult& r) {
  return fmt::format(
      "NLopt Subplex on the mean over {} tables of the {} ({} simulated samples each, common "
      "random numbers), {} evaluations in all; percentiles of {} refits on moving-block "
      "resamples of the measured iterations (blocks of round(n^(1/3)))",
      c.tables.size(), distance_name(c.fit.distance), c.fit.samples, r.evaluations,
      c.fit.bootstrap);
}

// The fit's values over the measurements': keys, fitted entries and draws (a refit b took
// measurement draw b, so its draw holds both).
void apply_fit(const CalibrationFile& c, const TableFitResult& r, MachineFile& machine) {
  for (std::size_t k = 0; k < c.free_keys.size(); ++k) {
    const std::string& key = c.free_keys[k].key;
    machine.params[key] = r.best[k];
    std::erase_if(machine.fitted, [&](const FittedValue& f) { return f.key == key; });
    machine.fitted.push_back({.key = key,
                              .value = r.best[k],
                              .low = r.intervals[k].first,
                              .high = r.intervals[k].second,
                              .level = c.fit.level,
                              .method = fit_method(c, r),
                              .stage = "tables"});
  }
  if (r.draws.empty()) return;
  std::vector<ParamMap> draws;
  for (std::size_t b = 0; b < r.draws.size(); ++b) {
    ParamMap draw = machine.draws.empty() ? ParamMap{} : machine.draws[b % machine.draws.size()];
    for (std::size_t k = 0; k < c.free_keys.size(); ++k) draw[c.free_keys[k].key] = r.draws[b][k];
    draws.push_back(std::move(draw));
  }
  machine.draws = std::move(draws);
}

// Constants of [model] are the machine's as given: a measured key they replace is no longer
// fitted.
void apply_constants(const CalibrationFile& c, MachineFile& machine) {
  for (const auto& [key, value] : c.constants) {
    machine.params[key] = value;
    std::erase_if(machine.fitted, [&](const FittedValue& f) { return f.key == key; });
    for (ParamMap& draw : machine.draws) draw.erase(key);
  }
}

void print_report(const CalibrationFile& c, const MachineFile& machine,
                  const std::vector<std::string>& notes, const TableFitResult* fit,
                  const std::string& out) {
  for (const std::string& note : notes) fmt::print("{}\n", note);
  fmt::print("{:<34} {:>13} {:>13} {:>13}  {}\n", "key", "value", "low", "high", "stage");
  for (const FittedValue& f : machine.fitted)
    fmt::print("{:<34} {:>13.6g} {:>13.6g} {:>13.6g}  {}\n", f.key, f.value, f.low, f.high,
               f.stage);
  if (fit) {
    fmt::print("\n{} at the fit ({:.0f}% interval over the refits), objective {:.6g}:\n",
               distance_name(c.fit.distance), 100.0 * c.fit.level, fit->objective);
    for (std::size_t t = 0; t < c.tables.size(); ++t)
      fmt::print("  {:<60} {:.4g} [{:.4g}, {:.4g}]\n", c.tables[t].file, fit->table_distance[t],
                 fit->table_distance_interval[t].first, fit->table_distance_interval[t].second);
  }
  fmt::print("\nmachine file: {}\n", out);
}

}  // namespace

CLI::App* add_calibrate_command(CLI::App& app, CalibrateOptions& o) {
  auto* cmd = app.add_subcommand(
      "calibrate",
      "fit a machine file to Netgauge files and measured tables (docs/calibration.md)");
  cmd->add_option("FILE", o.file, "calibration file (TOML)")->required();
  cmd->add_option("--out", o.out, "machine file to write (default: <name>.machine.toml)");
  cmd->add_flag("--force", o.force, "replace an existing machine file");
  cmd->add_flag("--quiet", o.quiet, "no report");
  cmd->add_option("--threads", o.threads, "threads of each simulation (default: fit.threads)")
      ->check(CLI::Range(1, 4096));
  return cmd;
}

int calibrate_command(const CalibrateOptions& o) {
  const CalibrationFile c = load_calibration_file(o.file);
  const std::string out = o.out.empty() ? c.name + ".machine.toml" : o.out;
  const std::string netgauge = path_from_folder(c.folder, c.netgauge);
  std::vector<RolePath> inputs = {{"the calibration file", o.file}};
  for (const TableSpec& t : c.tables)
    inputs.push_back({"a table", path_from_folder(c.folder, t.file)});
  const std::vector<RolePath> outputs = {{"--out", out}};
  const OutputGuard guard(inputs, outputs, o.force, print_note);

  const MeasuredMachine measured = measure_machine(netgauge, as_named_from(out, netgauge),
                                                   {.draws = c.measurement_draws,
                                                    .level = c.level,
                                                    .seed = c.seed,
                                                    .gpd_tails = c.measurement_tails});
  MachineFile machine;
  machine.name = c.name;
  machine.params = measured.keys;
  machine.inputs = measured.inputs;
  machine.fitted = measured.fitted;
  machine.draws = measured.draws;
  apply_constants(c, machine);
  std::optional<TableFitResult> fit;
  if (!c.tables.empty()) {
    const std::vector<MeasuredTable> tables = read_tables(c, out, machine.inputs);
    TableFitOptions options = c.fit;
    if (o.threads > 0) options.threads = o.threads;
    // The machine's paths are the machine file's folder's: so are the points'.
    options.data_base = fs::path(out).parent_path().string();
    fit = fit_tables(machine.params, machine.draws, tables, c.free_keys, options);
    std::optional<std::uint64_t> largest;
    for (const MeasuredTable& t : tables)
      if (const auto ranks = table_ranks(machine.params, t, options.data_base))
        largest = std::max(largest.value_or(0), *ranks);
    machine.largest_ranks = largest;
    apply_fit(c, *fit, machine);
    for (const std::string& w : fit->warnings) print_warning(w);
  }
  std::vector<std::string> comments = {
      fmt::format("collnoise machine file of {}, made by `collnoise calibrate {}`", c.name, o.file),
      "(docs/calibration.md). Edit it and its streams change; its inputs must stay as they were."};
  const std::string text = machine_file_text(machine, comments);
  write_file_atomically(out, std::as_bytes(std::span(text.data(), text.size())));
  if (!o.quiet) print_report(c, machine, measured.notes, fit ? &*fit : nullptr, out);
  return exit_code::kSuccess;
}

}  // namespace collnoise
