#include "runs/progress_display.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <ctime>

namespace collnoise {
namespace {

using Steady = std::chrono::steady_clock;

double seconds_between(Steady::time_point from, Steady::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// 52.1, 1.52k, 3.4M: a rate at a glance.
std::string compact(double v) {
  if (v >= 1e9) return fmt::format("{:.3g}G", v / 1e9);
  if (v >= 1e6) return fmt::format("{:.3g}M", v / 1e6);
  if (v >= 1e3) return fmt::format("{:.3g}k", v / 1e3);
  return fmt::format("{:.3g}", v);
}

// What the display derives from a snapshot at one moment.
struct Reading {
  double fraction = 0.0;  // of the estimated cost
  std::size_t points_done = 0;
  bool all_done = false;
  double elapsed = 0.0;       // seconds of this sitting
  double eta = 0.0;           // seconds
  bool eta_measured = false;  // from the pace so far (else the estimate over the cores)
  double rate = -1.0;         // units per second in the point under way; < 0: not measured yet
  double cost_this_sitting = 0.0;
};

Reading read(const ProgressTracker& tracker, const ProgressSnapshot& s, Steady::time_point started,
             Steady::time_point now, int cores) {
  Reading r;
  const double total = tracker.total_cost();
  const double done = tracker.cost_done(s.point, static_cast<double>(s.units_done) + s.in_flight);
  const double at_start = tracker.cost_done(s.start_point, static_cast<double>(s.start_units));
  r.fraction = total > 0.0 ? std::clamp(done / total, 0.0, 1.0) : 0.0;
  r.points_done = std::min(s.point, tracker.points().size());
  r.all_done = s.point >= tracker.points().size();
  r.elapsed = std::max(0.0, seconds_between(started, now));
  r.cost_this_sitting = done - at_start;
  const double left = std::max(0.0, total - done);
  if (r.cost_this_sitting > 0.0 && r.elapsed > 0.0) {
    r.eta = left * r.elapsed / r.cost_this_sitting;
    r.eta_measured = true;
  } else {
    r.eta = left / std::max(1, cores);
  }
  const double in_point = seconds_between(s.point_started, now);
  if (!r.all_done && in_point > 0.0 && s.units_done > s.point_start_units)
    r.rate = static_cast<double>(s.units_done - s.point_start_units) / in_point;
  return r;
}

const char* units_name(const ProgressTracker& tracker, std::size_t point) {
  return tracker.points()[point].sampled ? "samples" : "steps";
}

// " (+0.4 under way)" where units under way have reported a part done (long samples).
std::string under_way(const ProgressSnapshot& s) {
  return s.in_flight >= 0.005 ? fmt::format(" (+{:.2g} under way)", s.in_flight) : std::string();
}

}  // namespace

std::string to_string(ProgressMode mode) {
  switch (mode) {
    case ProgressMode::kNone:
      return "none";
    case ProgressMode::kBar:
      return "bar";
    case ProgressMode::kLines:
      return "lines";
  }
  return "none";
}

std::string local_timestamp(std::chrono::system_clock::time_point t) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  localtime_r(&seconds, &tm);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &tm);
  // %z gives +0200; ISO 8601's extended form (as in the date) wants +02:00.
  const long offset = tm.tm_gmtoff;
  const long minutes = std::labs(offset) / 60;
  return fmt::format("{}{}{:02}:{:02}", date, offset < 0 ? '-' : '+', minutes / 60, minutes % 60);
}

std::string clock_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0.0) return "?";
  if (seconds > 1e12) return "for ever";
  const auto total = static_cast<long long>(std::llround(seconds));
  const long long days = total / 86400;
  if (days >= 2)
    return fmt::format("{}d {:02}:{:02}:{:02}", days, (total / 3600) % 24, (total / 60) % 60,
                       total % 60);
  return fmt::format("{}:{:02}:{:02}", total / 3600, (total / 60) % 60, total % 60);
}

ProgressDisplay::ProgressDisplay(const ProgressTracker& tracker, ProgressDisplayOptions options)
    : tracker_(tracker), options_(std::move(options)) {
  if (!(options_.every_s > 0.0)) options_.every_s = 60.0;
  if (!(options_.bar_every_s > 0.0)) options_.bar_every_s = 0.25;
  started_ = options_.steady();
  next_line_ = started_;
}

ProgressDisplay::~ProgressDisplay() {
  stop_thread();
  if (bar_shown_ && !finished_ && options_.sink) options_.sink("\r\033[K");
}

void ProgressDisplay::start(const std::string& start_line) {
  started_ = options_.steady();
  next_line_ = started_ + std::chrono::duration_cast<Steady::duration>(
                              std::chrono::duration<double>(options_.every_s));
  if (!options_.sink) return;
  if (options_.mode == ProgressMode::kLines)
    options_.sink(
        fmt::format("{} collnoise: start: {}\n", local_timestamp(options_.wall()), start_line));
  else if (options_.mode == ProgressMode::kBar)
    options_.sink(fmt::format("collnoise: note: {}\n", start_line));
}

void ProgressDisplay::run_in_background() {
  if (options_.mode == ProgressMode::kNone || !options_.sink || thread_.joinable()) return;
  thread_ = std::jthread([this](std::stop_token stop) {
    std::unique_lock lock(mutex_);
    while (!stop.stop_requested()) {
      poll();
      const auto wait = options_.mode == ProgressMode::kLines
                            ? std::max<Steady::duration>(next_line_ - options_.steady(),
                                                         std::chrono::milliseconds(1))
                            : std::chrono::duration_cast<Steady::duration>(
                                  std::chrono::duration<double>(options_.bar_every_s));
      wake_.wait_for(lock, stop, wait, [] { return false; });
    }
  });
}

void ProgressDisplay::poll() {
  if (!options_.sink || finished_) return;
  const auto now = options_.steady();
  if (options_.mode == ProgressMode::kBar) {
    options_.sink("\r\033[K" + bar_text(now));
    bar_shown_ = true;
    return;
  }
  if (options_.mode != ProgressMode::kLines || now < next_line_) return;
  options_.sink(
      fmt::format("{} collnoise: progress {}\n", local_timestamp(options_.wall()), status(now)));
  // The next line on the grid of intervals from the start (intervals slept through are skipped).
  const auto every =
      std::chrono::duration_cast<Steady::duration>(std::chrono::duration<double>(options_.every_s));
  const auto behind = (now - next_line_) / std::max(every, Steady::duration(1));
  next_line_ += (behind + 1) * every;
}

void ProgressDisplay::message(std::string_view line) {
  if (!options_.sink) return;
  const std::lock_guard lock(mutex_);
  const bool bar = options_.mode == ProgressMode::kBar && bar_shown_ && !finished_;
  std::string text = bar ? "\r\033[K" : "";
  text.append(line);
  text += '\n';
  if (bar) text += bar_text(options_.steady());
  options_.sink(text);
}

void ProgressDisplay::finish(bool completed) {
  stop_thread();
  if (finished_ || !options_.sink) return;
  finished_ = true;
  const auto now = options_.steady();
  if (options_.mode == ProgressMode::kBar) {
    if (bar_shown_) options_.sink("\r\033[K");
    return;
  }
  if (options_.mode != ProgressMode::kLines) return;
  const std::string stamp = local_timestamp(options_.wall());
  if (!completed) {
    options_.sink(fmt::format("{} collnoise: stopped: {}\n", stamp, status(now)));
    return;
  }
  const Reading r = read(tracker_, tracker_.snapshot(), started_, now, options_.cores);
  const double used = r.elapsed * options_.cores;
  options_.sink(fmt::format(
      "{} collnoise: done: {} points in {}; estimated {}, took {} on {} cores{}\n", stamp,
      tracker_.points().size(), clock_duration(r.elapsed),
      describe_core_seconds(r.cost_this_sitting), describe_core_seconds(used), options_.cores,
      r.cost_this_sitting > 0.0
          ? fmt::format(" ({:.2g} times the estimate)", used / r.cost_this_sitting)
          : std::string()));
}

std::string ProgressDisplay::status(Steady::time_point now) const {
  const ProgressSnapshot s = tracker_.snapshot();
  const Reading r = read(tracker_, s, started_, now, options_.cores);
  const std::size_t points = tracker_.points().size();
  std::string text = fmt::format("{:.1f}% of the estimated work; {}/{} points done",
                                 100.0 * r.fraction, r.points_done, points);
  if (!r.all_done)
    text +=
        fmt::format("; point {}: {}/{} {}{}", s.point + 1, s.units_done,
                    tracker_.points()[s.point].units, units_name(tracker_, s.point), under_way(s));
  text += fmt::format("; elapsed {}; ETA {}{}", clock_duration(r.elapsed),
                      r.eta_measured ? "" : "~", clock_duration(r.eta));
  if (r.rate >= 0.0)
    text += fmt::format("; {} {}/s", compact(r.rate), units_name(tracker_, s.point));
  return text;
}

std::string ProgressDisplay::bar_text(Steady::time_point now) const {
  const ProgressSnapshot s = tracker_.snapshot();
  const Reading r = read(tracker_, s, started_, now, options_.cores);
  constexpr int kBar = 20;
  const int filled = static_cast<int>(std::floor(r.fraction * kBar));
  // The most telling first: what is cut to fit a narrow terminal is the end.
  std::string text =
      fmt::format("{:5.1f}% [{}{}] ETA {}{}, elapsed {}", 100.0 * r.fraction,
                  std::string(static_cast<std::size_t>(filled), '#'),
                  std::string(static_cast<std::size_t>(kBar - filled), '.'),
                  r.eta_measured ? "" : "~", clock_duration(r.eta), clock_duration(r.elapsed));
  const std::size_t points = tracker_.points().size();
  if (r.all_done)
    text += fmt::format(", {}/{} points", points, points);
  else
    text +=
        fmt::format(", point {}/{}: {}/{} {}{}", s.point + 1, points, s.units_done,
                    tracker_.points()[s.point].units, units_name(tracker_, s.point), under_way(s));
  if (r.rate >= 0.0)
    text += fmt::format(", {} {}/s", compact(r.rate), units_name(tracker_, s.point));
  // One line: never wider than the terminal, or it would scroll on every redraw.
  const auto width = static_cast<std::size_t>(std::max(20, options_.bar_width - 1));
  if (text.size() > width) text.resize(width);
  return text;
}

void ProgressDisplay::stop_thread() {
  if (!thread_.joinable()) return;
  thread_.request_stop();
  thread_.join();
}

}  // namespace collnoise
