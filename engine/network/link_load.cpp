#include "engine/network/link_load.hpp"

#include <algorithm>

namespace collnoise {

LinkLoadRecorder::LinkLoadRecorder(std::uint64_t link_id_bound, std::span<const LinkId> traced,
                                   std::size_t max_steps)
    : links_(link_id_bound), max_steps_(std::max<std::size_t>(max_steps, 1)) {
  for (const LinkId link : traced) {
    State& s = links_[link];
    if (s.traced) continue;
    s.traced = true;
    s.trace = static_cast<std::uint32_t>(traces_.size());
    traces_.emplace_back();
  }
}

void LinkLoadRecorder::hold(State& s, double t, std::vector<LinkStep>* steps) const {
  const double held = t - s.since;
  if (held <= 0.0) return;  // a load of no duration: not a load the link had
  const LinkLoad& now = s.now;
  s.messages_area += static_cast<double>(now.messages) * held;
  s.rate_area += now.rate * held;
  if (now.messages > now.background) s.busy += held;
  s.max_messages = std::max(s.max_messages, now.messages);
  s.max_rate = std::max(s.max_rate, now.rate);
  if (steps == nullptr || s.truncated) return;
  const LinkStep step{.t = s.since, .messages = now.messages, .rate = now.rate};
  // Only change points: a load equal to the last one kept goes on from it.
  if (!steps->empty() && steps->back().messages == step.messages && steps->back().rate == step.rate)
    return;
  if (steps->size() == max_steps_) {
    s.truncated = true;
    s.truncated_at = step.t;
    return;
  }
  steps->push_back(step);
}

void LinkLoadRecorder::load(LinkId link, double t, const LinkLoad& load) {
  State& s = links_[link];
  if (!s.seen) {
    // Its background was there from the start.
    s.seen = true;
    s.now = LinkLoad{.messages = load.background,
                     .background = load.background,
                     .rate = 0.0,
                     .bandwidth = load.bandwidth};
    s.since = 0.0;
  }
  hold(s, t, s.traced ? &traces_[s.trace] : nullptr);
  s.now = load;
  s.since = t;
  if (load.messages > load.background) s.ours_ever = true;
}

void LinkLoadRecorder::carried(LinkId link, std::uint64_t bytes) {
  links_[link].bytes += bytes;
}

std::vector<LinkLoadStats> LinkLoadRecorder::result(double completion_ns) const {
  std::vector<LinkLoadStats> all;
  for (std::size_t link = 0; link < links_.size(); ++link) {
    if (!links_[link].ours_ever) continue;
    // The last load held until the completion: counted on a copy, so result() can be asked
    // again.
    State s = links_[link];
    std::vector<LinkStep> steps = s.traced ? traces_[s.trace] : std::vector<LinkStep>{};
    hold(s, completion_ns, s.traced ? &steps : nullptr);
    const double span = completion_ns > 0.0 ? completion_ns : 1.0;
    LinkLoadStats out{
        .link = static_cast<LinkId>(link),
        .bytes = s.bytes,
        .busy_ns = s.busy,
        .mean_messages = completion_ns > 0.0 ? s.messages_area / span : 0.0,
        .max_messages = s.max_messages,
        .mean_rate = completion_ns > 0.0 ? s.rate_area / span : 0.0,
        .max_rate = s.max_rate,
        .bandwidth = s.now.bandwidth,
        .utilisation = link_utilisation(s.bytes, s.now.bandwidth, completion_ns),
        .background = s.now.background,
        .steps = std::move(steps),
        .steps_end_ns = s.truncated ? s.truncated_at : completion_ns,
        .steps_truncated = s.truncated,
    };
    all.push_back(std::move(out));
  }
  std::sort(all.begin(), all.end(), [](const LinkLoadStats& a, const LinkLoadStats& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.link < b.link;
  });
  return all;
}

double LinkLoadRecorder::bytes(std::uint64_t link_id_bound, std::size_t traced,
                               std::size_t max_steps) {
  // Its states, and the result's statistics and a file's row with the link's name (some 100
  // bytes) for every link at most; the steps twice (kept, then copied to the result).
  return static_cast<double>(link_id_bound) * (sizeof(State) + sizeof(LinkLoadStats) + 200.0) +
         2.0 * static_cast<double>(traced) * static_cast<double>(max_steps) * sizeof(LinkStep);
}

double link_utilisation(std::uint64_t bytes, double bandwidth, double completion_ns) {
  return completion_ns > 0.0 ? static_cast<double>(bytes) / (bandwidth * completion_ns) : 0.0;
}

std::span<const LinkLoadStats> busiest_links(std::span<const LinkLoadStats> all, std::size_t k) {
  return all.first(std::min(k, all.size()));
}

}  // namespace collnoise
