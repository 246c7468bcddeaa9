#include "outputs/result_file.hpp"

#include <fmt/format.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "collnoise_version.hpp"
#include "engine/errors.hpp"
#include "outputs/hdf5.hpp"

namespace collnoise {
namespace {

std::string temporary_name(const std::string& path) {
  return fmt::format("{}.tmp-{}", path, static_cast<long>(::getpid()));
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void write_point(const h5::Group& group, const PointOutcome& p) {
  group.create_group("params").write_record(p.params);
  group.create_group("summary").write_record(p.summary);
  if (p.chunks.empty()) return;
  const auto acc = group.create_group("accumulator");
  Record a;
  a.set("count", Field(p.total.count));
  a.set("mean", Field(p.total.mean));
  a.set("m2", Field(p.total.m2));
  a.set("min", Field(p.total.min));
  a.set("max", Field(p.total.max));
  acc.write_record(a);
  std::vector<std::uint64_t> counts;
  std::vector<double> means, m2s, mins, maxs;
  for (const auto& c : p.chunks) {
    counts.push_back(c.count);
    means.push_back(c.mean);
    m2s.push_back(c.m2);
    mins.push_back(c.min);
    maxs.push_back(c.max);
  }
  const auto chunks = group.create_group("chunks");
  chunks.write_counts("count", counts);
  chunks.write_doubles("mean", means);
  chunks.write_doubles("m2", m2s);
  chunks.write_doubles("min", mins);
  chunks.write_doubles("max", maxs);
  const auto hist = group.create_group("histogram");
  hist.write_doubles("edges", p.histogram.edges());
  hist.write_counts("counts", p.histogram.counts());
  Record h;
  h.set("underflow", Field(p.histogram.underflow()));
  h.set("overflow", Field(p.histogram.overflow()));
  h.set("spacing", Field(to_string(p.histogram.spacing())));
  h.set("unit", Field(std::string("seconds")));
  h.set("uhi_kind",
        Field(std::string(p.histogram.spacing() == BinSpacing::kLog ? "variable" : "regular")));
  hist.write_record(h);
  group.write_doubles("top_values", p.top.descending());
  if (!p.raw.empty()) group.write_doubles("phase_times", p.raw, true);
}

}  // namespace

void check_writable(const std::string& path) {
  const std::string tmp = temporary_name(path);
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f)
    throw RuntimeFailure(
        fmt::format("output '{}' cannot be written: {}", path, std::strerror(errno)));
  std::fclose(f);
  std::remove(tmp.c_str());
}

void write_result_file(const std::string& path, const RunSpec& run, const RunInfo& info,
                       const std::vector<PointOutcome>& points) {
  const std::string tmp = temporary_name(path);
  try {
    h5::File file = h5::File::create(tmp);
    const h5::Group root = file.root();
    Record r;
    r.set("filetype", Field(std::string(kFileType)));
    r.set("format_version", Field(kFormatVersion));
    r.set("engine_version", Field(std::string(kEngineVersion)));
    r.set("git_sha", Field(std::string(kGitSha)));
    r.set("date", Field(utc_now()));
    r.set("name", Field(run.name));
    r.set("kind", Field(info.kind));
    r.set("seed", Field(run.seed));
    r.set("threads", Field(static_cast<std::int64_t>(info.threads)));
    r.set("processes", Field(std::int64_t{1}));
    r.set("chunk_size", Field(run.chunk_size));
    r.set("samples_per_point", Field(run.samples));
    r.set("confidence", Field(run.confidence));
    r.set("run_file_path", Field(run.path));
    r.set("run_file_text", Field(run.text));
    r.set("wall_time_s", Field(info.wall_time_s));
    r.set("points", Field(static_cast<std::uint64_t>(points.size())));
    root.write_record(r);
    const h5::Group all = root.create_group("points");
    for (std::size_t i = 0; i < points.size(); ++i)
      write_point(all.create_group(fmt::format("{:04d}", i)), points[i]);
    file.close();
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw RuntimeFailure(fmt::format("cannot rename '{}' to '{}': {}", tmp, path, ec.message()));
  }
}

ResultFile read_result_file(const std::string& path) {
  const h5::File file = h5::File::open(path);
  const h5::Group root = file.root();
  ResultFile out;
  out.root = root.read_record();
  const Field* type = out.root.find("filetype");
  if (!type || !std::holds_alternative<std::string>(*type) ||
      std::get<std::string>(*type) != kFileType)
    throw InputError(fmt::format("'{}' is not a collnoise result file (filetype attribute)", path));
  const Field* version = out.root.find("format_version");
  if (!version || !std::holds_alternative<std::int64_t>(*version) ||
      std::get<std::int64_t>(*version) != kFormatVersion)
    throw InputError(fmt::format("'{}' has an unsupported format_version (this build reads {})",
                                 path, kFormatVersion));
  const h5::Group all = root.open_group("points");
  for (const auto& name : all.children()) {
    const h5::Group g = all.open_group(name);
    out.params.push_back(g.open_group("params").read_record());
    out.summaries.push_back(g.open_group("summary").read_record());
  }
  return out;
}

}  // namespace collnoise
