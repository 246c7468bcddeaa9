#include "outputs/summary_report.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <set>

#include "estimators/bound_fields.hpp"
#include "estimators/prediction_fields.hpp"
#include "estimators/summary_fields.hpp"
#include "outputs/points_table.hpp"
#include "outputs/record_json.hpp"

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

std::set<std::string> lines_of(const std::string& text) {
  std::set<std::string> lines;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    if (end > at) lines.insert(text.substr(at, end - at));
    at = end + 1;
  }
  return lines;
}

std::vector<std::string> varying_keys(const std::vector<Record>& params,
                                      const std::set<std::string>& always) {
  std::vector<std::string> keys;
  for (const auto& r : params)
    for (const auto& [k, v] : r.fields())
      if (!k.ends_with("_string") && std::find(keys.begin(), keys.end(), k) == keys.end())
        keys.push_back(k);
  std::vector<std::string> varying;
  for (const auto& k : keys) {
    std::set<std::string> values;
    for (const auto& r : params) values.insert(cell(r.find(k)));
    if (values.size() > 1 || always.contains(k)) varying.push_back(k);
  }
  return varying;
}

}  // namespace

namespace {

struct Column {
  std::string header;
  std::string key;
  std::string format;
};

// The model's columns, as written into the result; files written before models chose their
// columns show the generic ones.
std::vector<Column> parse_columns(const std::string& text) {
  std::vector<Column> columns;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, end - at);
    at = end + 1;
    const auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    const auto tab2 = line.find('\t', tab + 1);
    columns.push_back({line.substr(0, tab), line.substr(tab + 1, tab2 - tab - 1),
                       tab2 == std::string::npos ? std::string() : line.substr(tab2 + 1)});
  }
  if (columns.empty()) {
    // Those files' primary metric was a mean with no prefix: the tree barrier's.
    const MeanFields primary("", "", "");
    for (const FieldSpec* field :
         {&primary.samples(), &primary.mean(), &primary.ci_low(), &primary.ci_high()})
      columns.push_back({field->name, field->name, ""});
  }
  return columns;
}

}  // namespace

namespace {

// Right-aligned columns, two spaces apart.
std::string aligned(const std::vector<std::string>& header,
                    const std::vector<std::vector<std::string>>& rows) {
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

// The verdicts of the run's user bounds (fields bound_<i>_*, runs/bound_check.hpp): a row per
// point and bound; empty when the run has none.
std::string bound_verdict_table(const std::vector<Record>& summaries) {
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < summaries.size(); ++i)
    for (std::size_t b = 1; summaries[i].find(bound_field(b, BoundMember::kName, "").name); ++b) {
      const auto field = [&](BoundMember member) {
        return cell(summaries[i].find(bound_field(b, member, "").name));
      };
      using enum BoundMember;
      rows.push_back({std::to_string(i), field(kName),
                      fmt::format("{} {} {}", field(kStatistic), field(kRelation), field(kValue)),
                      field(kEstimate), fmt::format("[{}, {}]", field(kCiLow), field(kCiHigh)),
                      field(kVerdict), field(kVerdictAdjusted)});
    }
  if (rows.empty()) return "";
  return fmt::format(
      "\nbounds (docs/bounds.md):\n{}",
      aligned({"point", "bound", "claim", "estimate", "interval", "verdict", "adjusted"}, rows));
}

}  // namespace

std::string summary_table(const std::vector<Record>& params, const std::vector<Record>& summaries,
                          const std::string& table_columns, const std::string& table_params) {
  const auto keys = varying_keys(params, lines_of(table_params));
  const auto columns = summaries.empty() ? std::vector<Column>{} : parse_columns(table_columns);
  std::vector<std::string> header;
  for (const auto& k : keys) header.push_back(k.substr(k.find('.') + 1));
  for (const auto& c : columns) header.push_back(c.header);
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < summaries.size(); ++i) {
    std::vector<std::string> row;
    for (const auto& k : keys) {
      // Counts beyond a double's integers are stored twice; the exact text reads better.
      const Field* exact = params[i].find(k + "_string");
      row.push_back(cell(exact ? exact : params[i].find(k)));
    }
    for (const auto& c : columns) {
      const Field* exact = summaries[i].find(c.key + "_string");
      const Field* f = exact ? exact : summaries[i].find(c.key);
      const bool two_decimals = c.format == "z" && f && std::holds_alternative<double>(*f);
      row.push_back(two_decimals ? fmt::format("{:.2f}", std::get<double>(*f)) : cell(f));
    }
    rows.push_back(std::move(row));
  }
  return aligned(header, rows) + bound_verdict_table(summaries);
}

namespace {

// The estimates a prediction table shows: those of the point table's columns, and with a mean
// its median and p99 (a prediction's distribution at a glance).
std::vector<std::string> predicted_estimates(const std::string& point_columns,
                                             const Record& prediction) {
  std::vector<std::string> shown;
  const auto add = [&](const std::string& name) {
    const PredictedEstimateFields fields(name, "");
    const bool predicted = prediction.find(fields.low().name) != nullptr;
    if (predicted && std::find(shown.begin(), shown.end(), name) == shown.end())
      shown.push_back(name);
  };
  const std::string mean = MeanFields("", "", "").mean().name;
  for (const Column& column : parse_columns(point_columns)) {
    add(column.key);
    if (column.key.ends_with(mean)) {
      const std::string prefix = column.key.substr(0, column.key.size() - mean.size());
      add(prefix + quantile_name(0.5));
      add(prefix + quantile_name(0.99));
    }
  }
  return shown;
}

}  // namespace

std::string prediction_table(std::span<const PredictionResult> predictions,
                             const std::string& point_columns, const std::string& table_params) {
  if (predictions.empty()) return "";
  std::vector<Record> params, summaries;
  for (const PredictionResult& p : predictions) {
    params.push_back(p.params);
    summaries.push_back(p.summary);
  }
  const PredictionFields& general = prediction_fields();
  std::string columns = fmt::format("{0}\t{0}\t\n", general.extrapolation.name);
  for (const std::string& name : predicted_estimates(point_columns, summaries.front())) {
    const PredictedEstimateFields fields(name, "");
    columns += fmt::format("{}\t{}\t\n", name, name);
    for (const FieldSpec* member :
         {&fields.low(), &fields.high(), &fields.mc_low(), &fields.mc_high(), &fields.dominant()})
      columns += fmt::format("{}\t{}\t\n", member->name.substr(name.size() + 1), member->name);
  }
  const Field* level = summaries.front().find(general.level.name);
  const Field* draws = summaries.front().find(general.draws.name);
  return fmt::format(
      "predictions from {} draws of the machine's calibration ({} intervals: "
      "low-high with the calibration, mc_low-mc_high without):\n{}",
      cell(draws), cell(level), summary_table(params, summaries, columns, table_params));
}

std::string prediction_table(std::span<const PredictionResult> predictions,
                             const std::vector<PointResult>& results) {
  if (results.empty()) return "";
  return prediction_table(predictions, results.front().table_columns, results.front().table_params);
}

std::string summary_table(const std::vector<PointResult>& results) {
  std::vector<Record> params, summaries;
  for (const auto& r : results) {
    params.push_back(r.params);
    summaries.push_back(r.summary);
  }
  return summary_table(params, summaries,
                       results.empty() ? std::string() : results.front().table_columns,
                       results.empty() ? std::string() : results.front().table_params);
}

std::string summary_json(const Record& root, const std::vector<Record>& params,
                         const std::vector<Record>& summaries,
                         std::span<const PredictionResult> predictions) {
  std::vector<std::string> keys;
  for (const auto& r : params)
    for (const auto& [k, v] : r.fields())
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  Json document = Json::object();
  for (const char* k :
       {"format_version", "kind", "name", "seed", "stream_format", "engine_version", "git_sha"})
    if (const Field* f = root.find(k)) document[k] = json_of(*f);
  Json points = Json::array();
  for (std::size_t i = 0; i < summaries.size(); ++i) {
    Record p;
    for (const auto& k : keys) {
      const Field* f = params[i].find(k);
      if (f)
        p.set(k, *f);
      else if (!k.ends_with("_string"))
        p.set(k, Field(Null{"not a parameter of this point"}));
    }
    JsonObjectBuilder point;
    point.set("params", json_of(p));
    point.set_all(json_of(summaries[i]));
    points.push_back(std::move(point).take());
  }
  document["points"] = std::move(points);
  if (!predictions.empty()) {
    Json predicted = Json::array();
    for (const PredictionResult& p : predictions) {
      JsonObjectBuilder prediction;
      prediction.set("params", json_of(p.params));
      prediction.set_all(json_of(p.summary));
      predicted.push_back(std::move(prediction).take());
    }
    document["predictions"] = std::move(predicted);
  }
  // Last, so that a key's first appearance in the text is in the points.
  JsonObjectBuilder units;
  for (const auto& records : {std::span<const Record>(params), std::span<const Record>(summaries)})
    for (const auto& [key, unit] : merged_units(records)) units.set(key, unit);
  document["units"] = std::move(units).take();
  return json_text(document);
}

}  // namespace collnoise
