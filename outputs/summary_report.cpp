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

namespace {

struct Column {
  const char* header;
  const char* key;
};

// The estimate columns of each kind of point, told apart by a field only that kind has.
std::vector<Column> estimate_columns(const Record& summary) {
  if (summary.find("nhalf_exact"))
    return {{"paper_approx", "nhalf_paper_approx"}, {"nhalf_exact", "nhalf_exact"},
            {"full_tree", "nhalf_full_tree"},       {"E[T](N/2)_hi", "check_below_ci_high"},
            {"E[T](2N)_lo", "check_above_ci_low"},  {"check", "check_passed"}};
  if (summary.find("conventional_mean"))
    return {{"reps", "conventional_samples"},
            {"quiet[s]", "quiet_mean"},
            {"conv[s]", "conventional_mean"},
            {"red[s]", "redundant_mean"},
            {"ratio", "recovery_ratio"},
            {"ratio_lo", "recovery_ratio_ci_low"},
            {"ratio_hi", "recovery_ratio_ci_high"},
            {"noiseless[s]", "noiseless_closed_form"}};
  if (summary.find("slowdown_mean"))
    return {{"samples", "samples"},          {"endpoints", "endpoints"},
            {"slowdown", "slowdown_mean"},   {"ci_low", "slowdown_ci_low"},
            {"ci_high", "slowdown_ci_high"}, {"quiet_cost", "cost_quiet_mean"}};
  if (summary.find("growth_exponent"))
    return {{"scalable", "scalable"},
            {"exponent", "growth_exponent"},
            {"ci_low", "growth_exponent_ci_low"},
            {"ci_high", "growth_exponent_ci_high"},
            {"predicted", "predicted_exponent"}};
  if (summary.find("exact_mean"))
    return {{"samples", "samples"},  {"mean[s]", "mean"},        {"ci_low", "ci_low"},
            {"ci_high", "ci_high"},  {"exact[s]", "exact_mean"}, {"z", "z_score"},
            {"in_ci", "exact_in_ci"}};
  return {{"samples", "samples"},
          {"mean[s]", "mean"},
          {"ci_low", "ci_low"},
          {"ci_high", "ci_high"},
          {"noiseless[s]", "noiseless_time"}};
}

}  // namespace

std::string summary_table(const std::vector<Record>& params, const std::vector<Record>& summaries) {
  const auto keys = varying_keys(params);
  const auto columns =
      summaries.empty() ? std::vector<Column>{} : estimate_columns(summaries.front());
  std::vector<std::string> header;
  for (const auto& k : keys) header.push_back(k.substr(k.find('.') + 1));
  for (const auto& c : columns) header.emplace_back(c.header);
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < summaries.size(); ++i) {
    std::vector<std::string> row;
    for (const auto& k : keys) {
      // Counts beyond a double's integers are stored twice; the exact text reads better.
      const Field* exact = params[i].find(k + "_string");
      row.push_back(cell(exact ? exact : params[i].find(k)));
    }
    for (const auto& c : columns) {
      const Field* exact = summaries[i].find(std::string(c.key) + "_string");
      const Field* f = exact ? exact : summaries[i].find(c.key);
      const bool z = std::string(c.key) == "z_score" && f && std::holds_alternative<double>(*f);
      row.push_back(z ? fmt::format("{:.2f}", std::get<double>(*f)) : cell(f));
    }
    rows.push_back(std::move(row));
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
