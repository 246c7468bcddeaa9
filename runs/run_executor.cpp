#include "runs/run_executor.hpp"

#include <fmt/format.h>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <string_view>

#include "core/cpu_features.hpp"
#include "core/errors.hpp"
#include "core/stop_request.hpp"
#include "estimators/tally_codec.hpp"
#include "runs/point_factory.hpp"
#include "runs/point_fields.hpp"
#include "runs/precision_target.hpp"
#include "runs/sampling_driver.hpp"

namespace collnoise {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kStop = 1;
constexpr std::uint32_t kCheckpoint = 2;

// ---- small byte messages from rank 0 --------------------------------------------------------

void put_u64(Bytes& out, std::uint64_t v) {
  const auto* p = reinterpret_cast<const std::byte*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

std::uint64_t get_u64(const Bytes& in, std::size_t& at) {
  if (at + sizeof(std::uint64_t) > in.size()) throw RuntimeFailure("a short message from rank 0");
  std::uint64_t v;
  std::memcpy(&v, in.data() + at, sizeof v);
  at += sizeof v;
  return v;
}

// ---- the state of every point ---------------------------------------------------------------

struct PointWork {
  const SampledStudy* study = nullptr;  // null: an analysis point
  ChunkPlan plan;
  ChunkRange range;        // the part's chunks
  std::vector<bool> done;  // by chunk index
  SamplingState state;
  Tally owned;             // rank 0: every chunk gathered so far
  PrecisionStatus status;  // rank 0: after the last batch (precision targets)
};

class Executor {
 public:
  Executor(const RunSpec& run, const std::vector<PreparedPoint>& points,
           const ExecutionOptions& options, const ProcessGroup& group)
      : run_(run),
        points_(points),
        options_(options),
        group_(group),
        identity_(run_identity(run, to_string(options.part), points)),
        last_checkpoint_(Clock::now()) {
    for (const auto& p : points_) {
      PointWork w;
      if (p.sampled) {
        w.study = p.sampled.get();
        w.plan = chunk_plan(run_, *w.study);
        w.range = part_range(w.plan.chunks(), options_.part);
        w.done.assign(w.plan.chunks(), false);
        w.state.batch_end =
            run_.precision.enabled ? first_batch_end(run_.precision, w.plan) : w.plan.samples;
        w.owned = empty_tally(run_, *w.study);
        w.study->release_working_memory();  // its layout may have needed it: one point at a time
      }
      work_.push_back(std::move(w));
    }
  }

  Execution run() {
    refuse_mixed_math_libraries();
    if (!options_.resume_path.empty()) resume();
    Execution e;
    for (const auto& w : work_)
      if (w.study) e.chunks_total += w.range.end - w.range.begin;
    begin_progress();
    for (std::size_t i = 0; i < work_.size(); ++i) {
      if (!work_[i].study) {
        // An analysis gives up on a stop request; its point is recomputed on resume.
        if (group_.is_root()) try {
            if (progress()) progress()->start_point(i, 0);
            const auto started = Clock::now();
            analysis_[i] = point_record(
                points_[i], points_[i].analysis->analyse(options_.threads, progress_of(i)),
                run_.confidence, nullptr);
            analysis_wall_[i] = seconds_since(started);
          } catch (const StopRequested&) {
          }
        if (stop_agreed()) return interrupted(e);
        if (progress()) progress()->finish_point(i);
        continue;
      }
      if (!sample_point(i)) return interrupted(e);
      if (progress()) progress()->finish_point(i);
    }
    if (group_.is_root()) {
      try {
        e.points = outcomes();
      } catch (const StopRequested&) {
        return interrupted(e);  // every sample is done: the checkpoint holds them all
      }
    }
    return e;
  }

 private:
  static double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  }

  // Rank 0 publishes progress; the other processes have nothing to show.
  ProgressTracker* progress() const { return group_.is_root() ? options_.progress : nullptr; }

  std::function<void(std::uint64_t)> progress_of(std::size_t i) const {
    if (!progress()) return {};
    return [this, i](std::uint64_t done) { progress()->update(i, done); };
  }

  // Samples of point i's part done so far (every process's, as far as rank 0 knows).
  std::uint64_t samples_done(const PointWork& w) const {
    std::uint64_t done = 0;
    for (std::uint64_t c = w.range.begin; c < w.range.end; ++c)
      if (w.done[c]) done += w.plan.count(c);
    return done;
  }

  // Where this sitting starts: the first point not finished (a resumed run may be far along).
  void begin_progress() {
    if (!progress()) return;
    std::size_t i = 0;
    while (i < work_.size() && work_[i].study && work_[i].state.finished) ++i;
    progress()->begin(i, i < work_.size() && work_[i].study ? samples_done(work_[i]) : 0);
  }

  // The time spent on the point under way goes into its state (and so into checkpoints).
  void bank_wall_time() {
    if (!sampling_) return;
    const auto now = Clock::now();
    work_[*sampling_].state.wall_time_s += std::chrono::duration<double>(now - banked_at_).count();
    banked_at_ = now;
  }

  // Rank 0 reads the checkpoint; every process learns which chunks are done and where each
  // point's batches stand. A refused checkpoint is refused on every process.
  void resume() {
    Bytes message;
    std::string error;
    if (group_.is_root()) {
      try {
        std::vector<std::optional<TallyLayout>> layouts;
        std::vector<std::uint64_t> chunk_sizes;
        for (const auto& w : work_) {
          layouts.push_back(w.study ? std::optional(w.owned.layout()) : std::nullopt);
          chunk_sizes.push_back(w.study ? w.plan.chunk_size : 0);
        }
        auto loaded =
            read_checkpoint(options_.resume_path, identity_, layouts, chunk_sizes, options_.read);
        for (std::size_t i = 0; i < work_.size(); ++i)
          if (work_[i].study) {
            for (const auto& entry : loaded[i].tally->chunks())
              if (!work_[i].range.contains(entry.first))
                throw InputError(
                    fmt::format("checkpoint '{}' is corrupt: point {} holds chunk {} "
                                "outside part {}",
                                options_.resume_path, i, entry.first, to_string(options_.part)));
            work_[i].owned = std::move(*loaded[i].tally);
            work_[i].state = loaded[i].state;
          }
      } catch (const InputError& ex) {
        error = ex.what();
      }
      message.push_back(std::byte{error.empty() ? std::uint8_t{0} : std::uint8_t{1}});
      if (error.empty()) {
        for (const auto& w : work_) {
          if (!w.study) continue;
          put_u64(message, w.state.batch_end);
          put_u64(message, w.state.batches);
          put_u64(message, w.state.finished ? 1 : 0);
          put_u64(message, w.owned.chunks().size());
          for (const auto& entry : w.owned.chunks()) put_u64(message, entry.first);
        }
      } else {
        const auto* p = reinterpret_cast<const std::byte*>(error.data());
        message.insert(message.end(), p, p + error.size());
      }
    }
    message = group_.broadcast_from_root(std::move(message));
    if (message.empty()) throw RuntimeFailure("no checkpoint message from rank 0");
    if (message[0] != std::byte{0})
      throw InputError(
          std::string(reinterpret_cast<const char*>(message.data() + 1), message.size() - 1));
    std::size_t at = 1;
    for (auto& w : work_) {
      if (!w.study) continue;
      w.state.batch_end = get_u64(message, at);
      w.state.batches = get_u64(message, at);
      w.state.finished = get_u64(message, at) != 0;
      const std::uint64_t count = get_u64(message, at);
      for (std::uint64_t k = 0; k < count; ++k) w.done.at(get_u64(message, at)) = true;
    }
  }

  // Samples point i batch by batch; false when a stop was agreed (a checkpoint is written).
  bool sample_point(std::size_t i) {
    PointWork& w = work_[i];
    if (w.state.finished) return true;
    if (progress()) progress()->start_point(i, samples_done(w));
    sampling_ = i;
    banked_at_ = Clock::now();
    while (!w.state.finished) {
      const std::uint64_t end_chunk =
          std::min(w.range.end, (w.state.batch_end + w.plan.chunk_size - 1) / w.plan.chunk_size);
      std::vector<std::uint64_t> pending;
      for (std::uint64_t c = w.range.begin; c < end_chunk; ++c)
        if (!w.done[c]) pending.push_back(c);
      if (!sample_batch(i, pending)) return false;  // its time is banked at the checkpoint
      ++w.state.batches;
      decide_next_batch(i, w);
    }
    bank_wall_time();
    sampling_.reset();
    w.study->release_working_memory();
    return true;
  }

  bool sample_batch(std::size_t i, const std::vector<std::uint64_t>& pending) {
    PointWork& w = work_[i];
    const int size = group_.size();
    const auto mine = process_share(pending, group_.rank(), size);
    const std::size_t rounds = process_share(pending, 0, size).size();  // the longest share
    Tally local = empty_tally(run_, *w.study);
    const std::uint64_t done_before = samples_done(w);  // before the batch
    std::uint64_t done_in_batch = 0;
    for (std::size_t k = 0; k < rounds; ++k) {
      if (k < mine.size()) {
        try {
          sample_chunks(*w.study, w.plan, {mine[k]}, options_.threads, local);
          ++sampled_;
        } catch (const StopRequested&) {
          // The chunk is abandoned (not tallied); the flags below agree on the stop.
        }
      }
      if (options_.after_round) options_.after_round(sampled_);
      // Every process has sampled the first k+1 chunks of its share.
      for (int r = 0; r < size; ++r) {
        const auto share = process_share(pending, r, size);
        if (k < share.size()) done_in_batch += w.plan.count(share[k]);
      }
      const std::uint32_t flags = agree_flags();
      if (flags & kStop) {
        // Chunks in progress may have been abandoned: rank 0 knows what was tallied.
        collect(w, local);
        if (group_.is_root())
          for (const auto& entry : w.owned.chunks()) w.done[entry.first] = true;
        return false;  // the caller writes the checkpoint
      }
      // Past the agreement every process has finished its chunk of this round.
      if (progress()) progress()->update(i, done_before + done_in_batch);
      if (flags != 0) {
        collect(w, local);
        for (int r = 0; r < size; ++r) {
          const auto share = process_share(pending, r, size);
          for (std::size_t j = 0; j <= k && j < share.size(); ++j) w.done[share[j]] = true;
        }
        write_checkpoint_now();
      }
    }
    collect(w, local);
    for (const std::uint64_t c : pending) w.done[c] = true;
    return true;
  }

  // Without targets one batch is the whole point; with them rank 0 measures and decides.
  void decide_next_batch(std::size_t i, PointWork& w) {
    if (!run_.precision.enabled) {
      w.state.finished = true;
      return;
    }
    Bytes decision;
    if (group_.is_root()) {
      w.status = precision_status(i, w);
      const auto next = next_batch_end(w.status, run_.precision, w.plan);
      put_u64(decision, next ? *next : 0);
    }
    decision = group_.broadcast_from_root(std::move(decision));
    std::size_t at = 0;
    const std::uint64_t next = get_u64(decision, at);
    if (next == 0)
      w.state.finished = true;
    else
      w.state.batch_end = next;
  }

  // Processes on CPUs of other kinds may run other variants of glibc's exp and log, which round a
  // few results in 10^4 differently: such a job would not give one process's bits.
  void refuse_mixed_math_libraries() {
    // The processes agree iff no bit of the variant's hash is 1 in one and 0 in another.
    const auto mine = static_cast<std::uint32_t>(std::hash<std::string_view>{}(libm_variant()));
    if ((group_.any_bits(mine) & group_.any_bits(~mine)) != 0)
      throw InputError(
          "the processes of this job run different variants of glibc's math library (CPUs of "
          "other kinds): their samples would not be bitwise one run's (docs/portable-builds.md); "
          "run on one kind of CPU, or start every process with "
          "GLIBC_TUNABLES=glibc.cpu.hwcaps=-FMA,-FMA4");
  }

  std::uint32_t agree_flags() {
    std::uint32_t flags = 0;
    if (options_.stop_requested && options_.stop_requested()) flags |= kStop;
    if (group_.is_root() && !options_.checkpoint_path.empty() &&
        std::chrono::duration<double>(Clock::now() - last_checkpoint_).count() >=
            options_.checkpoint_interval_s)
      flags |= kCheckpoint;
    return group_.any_bits(flags);
  }

  // Between points: a stop only (nothing is being sampled).
  bool stop_agreed() {
    const bool stop = options_.stop_requested && options_.stop_requested();
    return (group_.any_bits(stop ? kStop : 0) & kStop) != 0;
  }

  // Moves every process's chunks of this point to rank 0.
  void collect(PointWork& w, Tally& local) {
    if (group_.size() == 1) {
      w.owned.merge(std::move(local));
    } else {
      const std::vector<Bytes> all = group_.gather_to_root(encode_tally(local));
      if (group_.is_root()) {
        w.owned.merge(std::move(local));
        for (std::size_t r = 1; r < all.size(); ++r) merge_encoded_tally(w.owned, all[r]);
      }
    }
    local = empty_tally(run_, *w.study);
  }

  // Rank 0 writes a checkpoint of every chunk gathered so far. A failure (a full disk) never
  // ends the run: it is reported once, the previous checkpoint stays valid, and the next
  // interval tries again. Returns whether it was written (always true elsewhere).
  bool write_checkpoint_now() {
    last_checkpoint_ = Clock::now();
    bank_wall_time();
    if (!group_.is_root() || options_.checkpoint_path.empty()) return true;
    std::vector<CheckpointPoint> points;
    std::uint64_t chunks = 0;
    for (const auto& w : work_) {
      points.push_back(w.study ? CheckpointPoint{w.state, &w.owned, w.plan.chunk_size}
                               : CheckpointPoint{});
      if (w.study) chunks += w.owned.chunks().size();
    }
    try {
      write_checkpoint(options_.checkpoint_path, identity_, points);
    } catch (const RuntimeFailure& failure) {
      checkpoint_error_ = failure.what();
      if (!checkpoint_warned_ && options_.warn)
        options_.warn(fmt::format(
            "checkpoint '{}' could not be written ({}); sampling goes on and the next "
            "checkpoint is tried in {:g} s{}",
            options_.checkpoint_path, failure.what(), options_.checkpoint_interval_s,
            checkpoint_chunks_
                ? fmt::format(" (the previous one, of {} chunks, stays valid)", *checkpoint_chunks_)
                : std::string()));
      checkpoint_warned_ = true;
      return false;
    }
    checkpoint_chunks_ = chunks;
    checkpoint_error_.clear();
    return true;
  }

  Execution interrupted(Execution e) {
    e.interrupted = true;
    // A run of analyses only has no samples to keep: its points are computed again.
    e.checkpoint_written =
        e.chunks_total > 0 && !options_.checkpoint_path.empty() && write_checkpoint_now();
    e.checkpoint_error = checkpoint_error_;
    e.chunks_in_checkpoint = checkpoint_chunks_.value_or(0);
    for (const auto& w : work_)
      for (std::uint64_t c = w.range.begin; c < w.range.end && w.study; ++c)
        e.chunks_done += w.done[c] ? 1U : 0U;
    return e;
  }

  // A numerical failure deep in an estimator (a root search that cannot bracket) names the
  // point it happened in.
  PointSummary summarize_point(std::size_t i, PointWork& w, const SummaryContext& context) {
    const auto started = Clock::now();
    PointSummary summary = summarize_tally(i, w, context);
    w.state.wall_time_s += seconds_since(started);
    return summary;
  }

  PointSummary summarize_tally(std::size_t i, const PointWork& w,
                               const SummaryContext& context) const {
    try {
      return w.study->summarize(w.owned, context);
    } catch (const InputError&) {
      throw;
    } catch (const RuntimeFailure&) {
      throw;
    } catch (const StopRequested&) {
      throw;
    } catch (const std::exception& e) {
      throw RuntimeFailure(fmt::format("point {} ({}): its summary could not be computed: {}", i,
                                       points_[i].kind, e.what()));
    }
  }

  // Where a point stands against its targets, the user bounds' verdicts included when the run
  // samples until they are decided (at the level spent over this many looks).
  PrecisionStatus precision_status(std::size_t i, const PointWork& w) const {
    PrecisionStatus status = assess_precision(w.owned, run_.precision, run_.confidence);
    if (!run_.precision.until_bounds_decided) return status;
    const SummaryContext context{run_.confidence, points_.size()};
    const Record summary = summarize_tally(i, w, context).record;
    const BoundLevels levels = bound_levels_at(w);
    if (const std::string undecided =
            bounds_undecided(run_.bounds, points_[i], summary, w.owned, levels.level);
        !undecided.empty()) {
      status.met = false;
      status.predicted_samples = std::min(std::max(status.predicted_samples, 2 * status.samples),
                                          run_.precision.max_samples);
      status.note += fmt::format("{}{}", status.note.empty() ? "" : "; ", undecided);
      if (status.samples >= run_.precision.max_samples)
        status.note += fmt::format("; stopped at the cap, precision.max_samples = {}",
                                   run_.precision.max_samples);
    }
    return status;
  }

  // The levels of a point's bound intervals: the run's confidence, or spent over its looks.
  BoundLevels bound_levels_at(const PointWork& w) const {
    return bound_levels(run_.confidence, points_.size(), run_.bounds.size(),
                        run_.precision.until_bounds_decided
                            ? std::optional<std::uint64_t>(w.state.batches)
                            : std::nullopt);
  }

  // Summaries first (they may give up on a stop request, and then the tallies must still be in
  // place for the checkpoint), then the tallies move into the outcomes.
  std::vector<PointOutcome> outcomes() {
    std::vector<Record> summaries;
    const SummaryContext context{run_.confidence, points_.size()};
    for (std::size_t i = 0; i < work_.size(); ++i) {
      PointWork& w = work_[i];
      if (!w.study) {
        summaries.push_back(analysis_[i]);
        continue;
      }
      PointSummary summary = summarize_point(i, w, context);
      std::optional<PrecisionOutcome> precision;
      if (run_.precision.enabled)
        precision = PrecisionOutcome{&run_.precision, precision_status(i, w), w.state.batches};
      const BoundInput bounds{&run_.bounds, &w.owned, bound_levels_at(w)};
      summaries.push_back(point_record(points_[i], std::move(summary), run_.confidence,
                                       precision ? &*precision : nullptr, &bounds));
    }
    std::vector<PointOutcome> out;
    for (std::size_t i = 0; i < work_.size(); ++i) {
      PointWork& w = work_[i];
      PointOutcome o;
      o.summary = std::move(summaries[i]);
      if (w.study) {
        o.chunk_size = w.plan.chunk_size;
        o.state = w.state;
        o.tally = std::move(w.owned);
        o.wall_time_s = w.state.wall_time_s;
      } else {
        o.wall_time_s = analysis_wall_[i];
      }
      out.push_back(std::move(o));
    }
    return out;
  }

  const RunSpec& run_;
  const std::vector<PreparedPoint>& points_;
  const ExecutionOptions& options_;
  const ProcessGroup& group_;
  const RunIdentity identity_;  // what checkpoints record, and resumed ones must match
  std::vector<PointWork> work_;
  std::map<std::size_t, Record> analysis_;
  std::map<std::size_t, double> analysis_wall_;  // seconds each analysis took
  std::optional<std::size_t> sampling_;          // the point being sampled
  Clock::time_point banked_at_;                  // since when its time is not yet in its state
  std::uint64_t sampled_ = 0;                    // chunks this process sampled in this sitting
  Clock::time_point last_checkpoint_;
  std::optional<std::uint64_t> checkpoint_chunks_;  // chunks in the last checkpoint written
  std::string checkpoint_error_;                    // why the last checkpoint failed
  bool checkpoint_warned_ = false;
};

}  // namespace

Execution execute_run(const RunSpec& run, const std::vector<PreparedPoint>& points,
                      const ExecutionOptions& options, const ProcessGroup& group) {
  return Executor(run, points, options, group).run();
}

void checkpoint_outcomes(const std::string& path, const RunSpec& run,
                         const std::vector<PreparedPoint>& prepared, const PartSpec& part,
                         const std::vector<PointOutcome>& outcomes) {
  std::vector<CheckpointPoint> points;
  for (const auto& o : outcomes)
    points.push_back(o.tally ? CheckpointPoint{o.state, &*o.tally, o.chunk_size}
                             : CheckpointPoint{});
  write_checkpoint(path, run_identity(run, to_string(part), prepared), points);
}

}  // namespace collnoise
