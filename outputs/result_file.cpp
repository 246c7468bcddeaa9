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
#include "outputs/tally_io.hpp"

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

void write_point(const h5::Group& group, const PointResult& p) {
  Record kind;
  kind.set("kind", Field(p.kind));
  group.write_record(kind);
  group.create_group("params").write_record(p.params);
  group.create_group("summary").write_record(p.summary);
  if (p.tally) write_tally(group.create_group("tally"), *p.tally, p.chunk_size);
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
                       const std::vector<PointResult>& points) {
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
    r.set("processes", Field(static_cast<std::int64_t>(info.processes)));
    r.set("run_kind", Field(to_string(run.kind)));
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
