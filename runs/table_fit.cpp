#include "runs/table_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <nlopt.hpp>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "core/stop_request.hpp"
#include "core/task_parallel.hpp"
#include "distributions/netgauge_regimes.hpp"
#include "estimators/block_bootstrap.hpp"
#include "estimators/tally.hpp"
#include "estimators/two_sample.hpp"
#include "runs/point_factory.hpp"
#include "runs/run_file.hpp"

namespace collnoise {
namespace {

// A table's point: the machine's keys, then the table's own (its collective, keys it replaces).
ParamMap table_params(const ParamMap& machine, const MeasuredTable& table) {
  ParamMap params = machine;
  for (const auto& [key, value] : table.point) params[key] = value;
  return params;
}

// The point `params` as a calibration prepares it: a run of `samples`, data files relative to
// `data_base`, no other run settings.
PreparedPoint calibration_point(const ParamMap& params, std::uint64_t samples,
                                const std::string& data_base) {
  RunSpec run;
  run.name = "calibration";
  run.samples = samples;
  run.data_base = data_base;
  PointSpec spec;
  spec.params = params;
  return prepare_point(run, spec);
}

constexpr double kStepTolerance = 1e-4;     // of a scaled value: 1e-4 of the key's range
constexpr std::size_t kHistogramBins = 16;  // the extra histograms a simulation counts into
// A refit starts from the fit: it needs fewer steps, but never fewer than this.
constexpr std::size_t kLeastRefitEvaluations = 20;
// Identifiability: the objective must change by this share when a key moves by kProbe of its
// range, or the key is reported as not identifiable.
constexpr double kProbe = 0.1;
constexpr double kFlatShare = 1e-3;
constexpr double kRangeEnd = 1e-3;  // of the range: a value this close to an end sits there

// Of sorted samples.
double quantile_loss(std::span<const double> s, std::span<const double> m) {
  double loss = 0.0;
  for (int i = 1; i <= 9; ++i) {
    const double p = 0.1 * i;
    loss += std::abs(s[quantile_rank(s.size(), p) - 1] - m[quantile_rank(m.size(), p) - 1]);
  }
  return loss / 9.0;
}

// The simulated samples' metric 0 of a prepared point, samples 0 .. samples - 1.
std::vector<double> simulated_times(const PreparedPoint& point, std::uint64_t samples,
                                    int threads) {
  const TallyLayout layout = point.sampled->layout(kHistogramBins, "auto");
  Tally tally(layout);
  const std::vector<Histogram*> extra = tally.extra_histograms();
  const std::size_t width = layout.metrics.size();
  std::vector<double> rows(samples * width, 0.0);
  point.sampled->simulate(0, rows, extra, threads);
  std::vector<double> times(samples);
  for (std::uint64_t i = 0; i < samples; ++i) times[i] = rows[i * width];
  return times;
}

class Objective {
 public:
  Objective(std::span<const MeasuredTable> tables, std::span<const FreeKey> keys,
            const TableFitOptions& options)
      : tables_(tables), keys_(keys), options_(options) {
    for (const MeasuredTable& t : tables) measured_.push_back(t.times.iteration_maxima());
  }

  void set_machine(ParamMap machine) { machine_ = std::move(machine); }
  /// Refit `refit` (from 1; 0 the fit itself) simulates with streams of its own, so that the
  /// refits' spread holds the simulation's Monte Carlo error of a fit as well as the tables'.
  void set_refit(std::size_t refit) { refit_ = refit; }
  void set_measured(std::vector<std::vector<double>> measured) { measured_ = std::move(measured); }
  const std::vector<std::vector<double>>& measured() const { return measured_; }

  /// The free keys' values at scaled `x`.
  std::vector<double> values(std::span<const double> x) const {
    std::vector<double> v;
    for (std::size_t k = 0; k < keys_.size(); ++k)
      v.push_back(keys_[k].low + std::clamp(x[k], 0.0, 1.0) * (keys_[k].high - keys_[k].low));
    return v;
  }

  std::vector<double> table_distances(std::span<const double> x) {
    throw_if_stop_requested();
    ++evaluations_;
    const std::vector<double> v = values(x);
    // Tables side by side, each simulated on one thread: a 4- or 8-rank table has too few ranks
    // and samples to split, and the tables of a system differ in cost (sizes, algorithms), so
    // they are stolen as tasks. Fewer tables than threads: one after another, each on all of them.
    // A table's simulation does not depend on its thread count, so neither does the objective.
    const auto count = static_cast<std::int64_t>(tables_.size());
    const int threads = std::max(1, options_.threads);
    const bool side_by_side = count >= threads;
    std::vector<double> out(tables_.size());
    parallel_tasks(count, side_by_side ? threads : 1, [&](std::int64_t t) {
      const auto i = static_cast<std::size_t>(t);
      out[i] = table_distance(i, v, side_by_side ? 1 : threads);
    });
    return out;
  }

  double operator()(std::span<const double> x) {
    const std::vector<double> d = table_distances(x);
    double sum = 0.0;
    for (const double v : d) sum += v;
    return sum / static_cast<double>(d.size());
  }

  std::size_t evaluations() const { return evaluations_; }

 private:
  double table_distance(std::size_t t, const std::vector<double>& v, int threads) const {
    ParamMap params = table_params(machine_, tables_[t]);
    for (std::size_t k = 0; k < keys_.size(); ++k) params[keys_[k].key] = v[k];
    // Common random numbers: one stream key per table and refit, whatever the free values.
    std::uint64_t key = hash_combine(hash_combine(options_.seed, 0x7461626c65ULL), t);
    if (refit_ > 0) key = hash_combine(key, refit_);
    std::vector<double> simulated;
    try {
      simulated = simulated_table_times(params, options_.samples, key, options_.data_base, threads);
    } catch (const InputError& e) {
      throw InputError(
          fmt::format("{}: table '{}': {}", options_.origin, tables_[t].path, e.what()));
    }
    return fit_distance(options_.distance, simulated, measured_[t]);
  }

  std::span<const MeasuredTable> tables_;
  std::span<const FreeKey> keys_;
  const TableFitOptions& options_;
  ParamMap machine_;
  std::vector<std::vector<double>> measured_;
  std::size_t evaluations_ = 0;
  std::size_t refit_ = 0;
};

struct Minimum {
  std::vector<double> x;
  double f = 0.0;
};

struct Callback {
  Objective* objective;
  std::exception_ptr failure;
  nlopt::opt* opt;
};

double callback(unsigned n, const double* x, double* /*gradient*/, void* data) {
  auto* c = static_cast<Callback*>(data);
  try {
    return (*c->objective)(std::span<const double>(x, n));
  } catch (...) {
    // NLopt would turn our message into "nlopt failure": keep it and stop.
    c->failure = std::current_exception();
    c->opt->force_stop();
    return HUGE_VAL;
  }
}

Minimum minimise(Objective& objective, std::vector<double> start, std::size_t budget) {
  nlopt::opt opt(nlopt::LN_SBPLX, static_cast<unsigned>(start.size()));
  opt.set_lower_bounds(std::vector<double>(start.size(), 0.0));
  opt.set_upper_bounds(std::vector<double>(start.size(), 1.0));
  opt.set_xtol_abs(kStepTolerance);
  opt.set_maxeval(static_cast<int>(budget));
  Callback data{&objective, nullptr, &opt};
  opt.set_min_objective(callback, &data);
  Minimum m{std::move(start), 0.0};
  try {
    opt.optimize(m.x, m.f);
  } catch (const nlopt::forced_stop&) {
  } catch (const nlopt::roundoff_limited&) {
    // The best point so far stands: the objective cannot be resolved further.
  }
  if (data.failure) std::rethrow_exception(data.failure);
  return m;
}

std::vector<double> starting_point(const ParamMap& machine, std::span<const FreeKey> keys) {
  std::vector<double> x;
  for (const FreeKey& k : keys) {
    const auto it = machine.find(k.key);
    const double* given = it == machine.end() ? nullptr : std::get_if<double>(&it->second);
    const double at = given ? (*given - k.low) / (k.high - k.low) : 0.5;
    x.push_back(std::clamp(std::isfinite(at) ? at : 0.5, 0.0, 1.0));
  }
  return x;
}

void warn_about_keys(Objective& objective, const Minimum& best, std::span<const FreeKey> keys,
                     std::vector<std::string>& warnings) {
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const double x = best.x[k];
    if (x <= kRangeEnd || x >= 1.0 - kRangeEnd)
      warnings.push_back(fmt::format(
          "{} = {:.6g} sits at an end of its range [{:.6g}, {:.6g}]: the best value may lie "
          "beyond it (widen the range)",
          keys[k].key, objective.values(best.x)[k], keys[k].low, keys[k].high));
    double change = 0.0;
    for (const double step : {-kProbe, kProbe}) {
      std::vector<double> probe = best.x;
      probe[k] = std::clamp(x + step, 0.0, 1.0);
      if (probe[k] == x) continue;
      change = std::max(change, std::abs(objective(probe) - best.f));
    }
    if (change <= kFlatShare * std::max(best.f, 1e-12))
      warnings.push_back(fmt::format(
          "{} is not identifiable from these tables: moving it by {:.0f}% of its range changes "
          "the objective by {:.3g} (at most {:.1g} of it)",
          keys[k].key, 100.0 * kProbe, change, kFlatShare));
  }
}

// The measured maxima resampled by moving blocks, each table on its own.
std::vector<std::vector<double>> resampled_tables(const std::vector<std::vector<double>>& tables,
                                                  Pcg32& rng) {
  std::vector<std::vector<double>> out;
  for (const std::vector<double>& t : tables) {
    std::vector<double> r;
    for (const std::size_t i : moving_block_resample(t.size(), block_length(t.size()), rng))
      r.push_back(t[i]);
    out.push_back(std::move(r));
  }
  return out;
}

void bootstrap(Objective& objective, const ParamMap& machine,
               const std::vector<ParamMap>& machine_draws, const Minimum& best,
               const TableFitOptions& options, TableFitResult& result) {
  const std::vector<std::vector<double>> measured = objective.measured();
  const std::size_t budget = std::max(options.evaluations / 2, kLeastRefitEvaluations);
  std::vector<std::vector<double>> distances(measured.size());
  for (std::size_t b = 0; b < options.bootstrap; ++b) {
    Pcg32 rng = make_stream(hash_combine(hash_combine(options.seed, 0x626f6f74ULL), b));
    objective.set_measured(resampled_tables(measured, rng));
    ParamMap drawn = machine;
    if (!machine_draws.empty())
      for (const auto& [key, value] : machine_draws[b % machine_draws.size()]) drawn[key] = value;
    objective.set_machine(std::move(drawn));
    objective.set_refit(b + 1);
    const Minimum refit = minimise(objective, best.x, budget);
    result.draws.push_back(objective.values(refit.x));
    const std::vector<double> d = objective.table_distances(refit.x);
    for (std::size_t t = 0; t < d.size(); ++t) distances[t].push_back(d[t]);
  }
  for (std::size_t k = 0; k < result.best.size(); ++k) {
    std::vector<double> values;
    for (const auto& draw : result.draws) values.push_back(draw[k]);
    auto [low, high] = percentile_interval(values, options.level);
    result.intervals[k] = {std::min(low, result.best[k]), std::max(high, result.best[k])};
  }
  for (std::size_t t = 0; t < distances.size(); ++t) {
    auto [low, high] = percentile_interval(distances[t], options.level);
    const double at = result.table_distance[t];
    result.table_distance_interval[t] = {std::min(low, at), std::max(high, at)};
  }
}

}  // namespace

std::optional<std::uint64_t> table_ranks(const ParamMap& machine, const MeasuredTable& table,
                                         const std::string& data_base) {
  // Two samples, the least a point takes; none is simulated.
  const PreparedPoint point = calibration_point(table_params(machine, table), 2, data_base);
  if (point.model && point.model->ranks_key)
    if (const Field* n = point.params.find(point.model->ranks_key->name))
      if (const auto* ranks = std::get_if<std::int64_t>(n))
        return static_cast<std::uint64_t>(*ranks);
  if (table.times.per_rank) return table.times.ranks;
  return std::nullopt;
}

std::vector<double> simulated_table_times(const ParamMap& params, std::uint64_t samples,
                                          std::uint64_t stream_key, const std::string& data_base,
                                          int threads) {
  PreparedPoint point = calibration_point(params, samples, data_base);
  if (!point.sampled) throw InputError("its point is not sampled");
  point.sampled->set_stream_key(stream_key);
  return simulated_times(point, samples, threads);
}

double fit_distance(FitDistance distance, std::span<const double> simulated,
                    std::span<const double> measured) {
  // The two-sample distances walk sorted samples; simulations and tables come in sample and
  // iteration order.
  std::vector<double> s(simulated.begin(), simulated.end()), m(measured.begin(), measured.end());
  std::sort(s.begin(), s.end());
  std::sort(m.begin(), m.end());
  if (distance == FitDistance::kKS) return ks_distance(s, m);
  const double median = median_of(m);
  const double scale = median > 0.0 ? median : 1.0;
  if (distance == FitDistance::kQuantiles) return quantile_loss(s, m) / scale;
  return wasserstein1_distance(s, m) / scale;
}

TableFitResult fit_tables(const ParamMap& machine, const std::vector<ParamMap>& machine_draws,
                          std::span<const MeasuredTable> tables, std::span<const FreeKey> keys,
                          const TableFitOptions& options) {
  if (tables.empty() || keys.empty())
    throw InputError(
        fmt::format("{}: a fit needs at least one table and one free key", options.origin));
  Objective objective(tables, keys, options);
  objective.set_machine(machine);
  const Minimum best = minimise(objective, starting_point(machine, keys), options.evaluations);
  TableFitResult result;
  result.best = objective.values(best.x);
  result.objective = best.f;
  result.table_distance = objective.table_distances(best.x);
  result.intervals.assign(keys.size(), {0.0, 0.0});
  for (std::size_t k = 0; k < keys.size(); ++k)
    result.intervals[k] = {result.best[k], result.best[k]};
  result.table_distance_interval.resize(tables.size());
  for (std::size_t t = 0; t < tables.size(); ++t)
    result.table_distance_interval[t] = {result.table_distance[t], result.table_distance[t]};
  warn_about_keys(objective, best, keys, result.warnings);
  if (options.bootstrap > 0) bootstrap(objective, machine, machine_draws, best, options, result);
  result.evaluations = objective.evaluations();
  return result;
}

}  // namespace collnoise
