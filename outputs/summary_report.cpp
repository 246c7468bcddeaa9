#include "outputs/summary_report.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <set>

#include "outputs/json_writer.hpp"

namespace collnoise {
namespace {

std::string cell(const Field* f) {
  if (!f) return "-";
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, Null>)
          return "null";
        else if constexpr (std::is_same_v<T, bool>)
          return v ? "yes" : "no";
        else if constexpr (std::is_same_v<T, double>)
          return fmt::format("{:.6g}", v);
        else if constexpr (std::is_same_v<T, std::string>)
          return v;
        else if constexpr (std::is_same_v<T, Series>)
          return fmt::format("[{} values]", v.size());
        else
          return std::to_string(v);
      },
      *f);
}

std::vector<std::string> varying_keys(const std::vector<Record>& params) {
  std::vector<std::string> keys;
  for (const auto& r : params)
    for (const auto& [k, v] : r.fields())
      if (!k.ends_with("_string") && std::find(keys.begin(), keys.end(), k) == keys.end())
        keys.push_back(k);
  std::vector<std::string> varying;
  for (const auto& k : keys) {
    std::set<std::string> values;
    for (const auto& r : params) values.insert(cell(r.find(k)));
    if (values.size() > 1 || k == "collective.N" || k == "noise.law") varying.push_back(k);
  }
  return varying;
}

}  // namespace

std::string summary_table(const std::vector<Record>& params, const std::vector<Record>& summaries) {
  const auto keys = varying_keys(params);
  std::vector<std::string> header;
  for (const auto& k : keys) header.push_back(k.substr(k.find('.') + 1));
  for (const char* h : {"samples", "mean[s]", "ci_low", "ci_high", "exact[s]", "z", "in_ci"})
    header.emplace_back(h);
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < summaries.size(); ++i) {
    std::vector<std::string> row;
    for (const auto& k : keys) {
      // Counts beyond a double's integers are stored twice; the exact text reads better.
      const Field* exact = params[i].find(k + "_string");
      row.push_back(cell(exact ? exact : params[i].find(k)));
    }
    const auto& s = summaries[i];
    const bool nhalf = s.find("nhalf_exact") != nullptr;
    if (nhalf) {
      row.push_back(cell(s.find("nhalf_paper_approx")));
      row.push_back(cell(s.find("nhalf_exact")));
      row.push_back(cell(s.find("nhalf_full_tree")));
      row.push_back(cell(s.find("check_below_ci_high")));
      row.push_back(cell(s.find("check_above_ci_low")));
      row.push_back("");
      row.push_back(cell(s.find("check_passed")));
    } else {
      for (const char* k : {"samples", "mean", "ci_low", "ci_high", "exact_mean"})
        row.push_back(cell(s.find(k)));
      const Field* z = s.find("z_score");
      row.push_back(z && std::holds_alternative<double>(*z)
                        ? fmt::format("{:.2f}", std::get<double>(*z))
                        : cell(z));
      row.push_back(cell(s.find("exact_in_ci")));
    }
    rows.push_back(std::move(row));
  }
  if (!summaries.empty() && summaries.front().find("nhalf_exact")) {
    const std::size_t base = keys.size();
    header[base] = "paper_approx";
    header[base + 1] = "nhalf_exact";
    header[base + 2] = "full_tree";
    header[base + 3] = "E[T](N/2)_hi";
    header[base + 4] = "E[T](2N)_lo";
    header[base + 5] = "";
    header[base + 6] = "check";
  }
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& row : rows) width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  const auto line = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < row.size(); ++c) out += fmt::format("{:>{}}  ", row[c], width[c]);
    out += "\n";
  };
  line(header);
  for (const auto& row : rows) line(row);
  return out;
}

std::string summary_json(const Record& root, const std::vector<Record>& params,
                         const std::vector<Record>& summaries) {
  std::vector<std::string> keys;
  for (const auto& r : params)
    for (const auto& [k, v] : r.fields())
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  std::string out = "{\n";
  for (const char* k : {"format_version", "kind", "name", "seed", "engine_version", "git_sha"})
    if (const Field* f = root.find(k))
      out += fmt::format("  {}: {},\n", json_string(k), json_value(*f));
  out += "  \"points\": [";
  for (std::size_t i = 0; i < summaries.size(); ++i) {
    Record p;
    for (const auto& k : keys) {
      const Field* f = params[i].find(k);
      if (f)
        p.set(k, *f);
      else if (!k.ends_with("_string"))
        p.set(k, Field(Null{"not a parameter of this point"}));
    }
    std::string body = json_object(summaries[i], 4);
    body.erase(0, 1);  // drop '{' to splice "params" in front
    out +=
        fmt::format("{}\n    {{\n      \"params\": {},{}", i ? "," : "", json_object(p, 6), body);
  }
  out += "\n  ]\n}\n";
  return out;
}

}  // namespace collnoise
