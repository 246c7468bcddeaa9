#include "runs/reference_docs.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <variant>

#include "core/errors.hpp"
#include "core/key_spec.hpp"
#include "distributions/law_kind.hpp"
#include "distributions/time_noise_kind.hpp"
#include "engine/schedules/algorithms/algorithms.hpp"
#include "engine/study.hpp"
#include "estimators/bound_fields.hpp"
#include "estimators/prediction_fields.hpp"
#include "estimators/summary_fields.hpp"
#include "runs/bound_expression.hpp"
#include "runs/point_fields.hpp"
#include "runs/prediction.hpp"
#include "runs/run_settings.hpp"

namespace collnoise {
namespace {

// Every page opens with where it comes from, so that nobody edits it by hand.
std::string page_header(const std::string& title, const std::string& registry) {
  return fmt::format(
      "<!-- Generated from {} by `{}`; do not edit by hand.\n"
      "     tests/runs/test_reference_docs.cpp fails when this file differs from the registry. "
      "-->\n"
      "# {}\n\n",
      registry, kRegenerateReferenceCommand, title);
}

// Text inside a Markdown table cell: a '|' would end the cell.
std::string cell(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    if (c == '\n') {
      out += ' ';
      continue;
    }
    out += c;
  }
  return out;
}

std::string code(const std::string& text) {
  return "`" + text + "`";
}

// The shortest decimal that reads back as `value`, as a mantissa and a power of ten: 2.5e-06 is
// {"2.5", -6}.
std::pair<std::string, int> shortest_scientific(double value) {
  for (int digits = 0;; ++digits) {
    const std::string text = fmt::format("{:.{}e}", value, digits);
    if (digits == 16 || std::stod(text) == value) {
      const auto e = text.find('e');
      return {text.substr(0, e), std::stoi(text.substr(e + 1))};
    }
  }
}

// A number as the docs write it: infinities as "inf", large powers of two as "2^k" (and one
// below them, the largest integers of a width, as "2^k - 1"), powers of ten beyond 10^4 or below
// 10^-3 as "10^k", other such magnitudes as "2.5e-6", the rest in their shortest exact form.
std::string number(double value) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0.0) return "0";
  const double magnitude = std::fabs(value);
  const std::string sign = value < 0 ? "-" : "";
  int exponent = 0;
  if (magnitude >= 65536.0 && std::frexp(magnitude, &exponent) == 0.5)
    return fmt::format("{}2^{}", sign, exponent - 1);
  if (magnitude >= 65535.0 && magnitude < 0x1p53 && std::frexp(magnitude + 1.0, &exponent) == 0.5)
    return fmt::format("{}2^{} - 1", sign, exponent - 1);
  const auto [mantissa, power] = shortest_scientific(magnitude);
  if (power > 4 || power < -3)
    return mantissa == "1" ? fmt::format("{}10^{}", sign, power)
                           : fmt::format("{}{}e{}", sign, mantissa, power);
  return fmt::format("{}", value);
}

std::string type_name(KeyType type) {
  switch (type) {
    case KeyType::kNumber:
      return "number";
    case KeyType::kInteger:
      return "integer";
    case KeyType::kText:
      return "text";
    case KeyType::kChoice:
      return "choice";
    case KeyType::kFile:
      return "file";
    case KeyType::kBoolean:
      return "boolean";
    case KeyType::kRankCount:
      return "rank count";
    case KeyType::kNumberList:
      return "number list";
    case KeyType::kTextList:
      return "text list";
  }
  return "?";
}

std::string value_text(const ParamValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, double>)
          return number(v);
        else if constexpr (std::is_same_v<T, std::string>)
          return v.empty() ? "\"\"" : "\"" + v + "\"";
        else if constexpr (std::is_same_v<T, NumberList>) {
          std::string out = "[";
          for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + number(v[i]);
          return out + "]";
        } else
          return to_text(v);
      },
      value);
}

std::string default_text(const KeySpec& key) {
  if (key.fallback) return code(value_text(*key.fallback));
  return key.optional ? "none (optional)" : "required";
}

bool has_bounds(KeyType type) {
  return type == KeyType::kNumber || type == KeyType::kInteger || type == KeyType::kRankCount ||
         type == KeyType::kNumberList;
}

// The values a key accepts: an interval with its open and closed ends ("[0, 1)"), the choices,
// or nothing for text and files.
std::string range_text(const KeySpec& key) {
  if (key.type == KeyType::kChoice || !key.choices.empty()) {
    std::string out;
    for (const auto& choice : key.choices) out += (out.empty() ? "" : ", ") + code(choice);
    return "one of " + out;
  }
  if (key.type == KeyType::kBoolean) return "true, false";
  if (!has_bounds(key.type)) return "";
  const Bounds& b = key.bounds;
  // A rank count is an integer >= 1; each model checks its own limit (docs/run-files.md).
  if (key.type == KeyType::kRankCount && std::isinf(b.lo) && std::isinf(b.hi))
    return "[1, inf): the model's own limit is in docs/run-files.md";
  // An infinite end is never reached: it is written open whatever the flag says.
  const bool lo_open = b.lo_open || std::isinf(b.lo);
  const bool hi_open = b.hi_open || std::isinf(b.hi);
  const std::string interval = fmt::format("{}{}, {}{}", lo_open ? "(" : "[", number(b.lo),
                                           number(b.hi), hi_open ? ")" : "]");
  return key.type == KeyType::kNumberList ? "each in " + interval : interval;
}

// The name a user bound reads a point key by (docs/bounds.md), in SI units; none for keys whose
// values are not numbers.
std::string bound_name(const KeySpec& key, const std::string& prefix) {
  switch (key.type) {
    case KeyType::kNumber:
    case KeyType::kInteger:
    case KeyType::kBoolean:
    case KeyType::kRankCount:
      return code(variable_name(prefix + key.name));
    default:
      return "";
  }
}

// One table of keys; `prefix` is put before relative names ("noise."). `in_bounds`: with the
// name user bounds read each key by (point keys, not run settings).
std::string key_table(const std::vector<KeySpec>& keys, const std::string& prefix,
                      bool in_bounds = true) {
  std::string out = in_bounds
                        ? "| key | type | unit | default | valid values | defines the streams "
                          "| meaning | in a bound |\n"
                          "|---|---|---|---|---|---|---|---|\n"
                        : "| key | type | unit | default | valid values | defines the streams "
                          "| meaning |\n"
                          "|---|---|---|---|---|---|---|\n";
  for (const KeySpec& key : keys) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |", code(prefix + key.name),
                       type_name(key.type), cell(key.unit), cell(default_text(key)),
                       cell(range_text(key)), key.identity ? "yes" : "no", cell(key.meaning));
    out += in_bounds ? fmt::format(" {} |\n", bound_name(key, prefix)) : "\n";
  }
  return out;
}

std::string names_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + code(name);
  return out;
}

std::string keys_page() {
  std::string out = page_header("Keys of the models", "model_kinds() (engine/models.cpp)");
  out +=
      "Every key a model reads, as the model declares it (`KeySpec`, core/key_spec.hpp). The\n"
      "models are listed in the order they are asked whether they take a point: the first that\n"
      "takes it gets it. A key that *defines the streams* enters the point's stream identity\n"
      "(docs/models/streams.md); the others change how, not what, is computed. Intervals are\n"
      "closed at `[` `]` and open at `(` `)`. The keys of the noise laws and of time-based noise\n"
      "are in [laws.md](laws.md) and [time-noise.md](time-noise.md); run settings (`seed`,\n"
      "`samples`, `[output]`, `[precision]`, ...) in docs/run-files.md. *In a bound*: the name\n"
      "a user bound's expression reads the key by, in SI units (docs/bounds.md); the summary\n"
      "fields are read by their own names (summary-fields.md).\n";
  for (const ModelKind& model : model_kinds()) {
    out += fmt::format("\n## {}\n\n{}\n\n", code(model.name), model.meaning);
    if (!model.collectives.empty())
      out += fmt::format("`collective.kind`: {}.\n\n", names_list(model.collectives));
    out += key_table(model.keys, "");
    if (!model.settings.empty())
      out += "\nIts settings table, keys of the run rather than of a point:\n\n" +
             key_table(model.settings, "", false);
  }
  return out;
}

std::string rule_text(const SettingRule& rule) {
  using Kind = SettingRule::Kind;
  switch (rule.kind) {
    case Kind::kExclusive:
      return "at most one of " + names_list(rule.keys);
    case Kind::kTogether:
      return "all or none of " + names_list(rule.keys);
    case Kind::kNeedsAny:
      return "any of " + names_list(rule.keys) + " needs one of " + names_list(rule.others);
    case Kind::kExcludes:
      return "any of " + names_list(rule.keys) + " excludes " + names_list(rule.others);
    case Kind::kOrdered:
      return fmt::format("{} <= {} when any of {} is given", code(rule.keys[0]), code(rule.keys[1]),
                         names_list(rule.others));
  }
  return {};
}

std::string settings_page() {
  std::string out = page_header("Settings of a run",
                                "run_setting_keys() and run_setting_rules() "
                                "(runs/run_settings.cpp)");
  out +=
      "The run's own settings, as declared (`KeySpec`, core/key_spec.hpp) and read through the\n"
      "same checked reader as the models' keys; docs/run-files.md describes them. A model's own\n"
      "settings table (`[nhalf]`) is in [keys.md](keys.md). None of them defines a point's\n"
      "streams.\n\n";
  out += key_table(run_setting_keys(), "", false);
  out +=
      "\n## Rules between settings\n\nChecked in this order: those on which keys are given "
      "before any value is read, those comparing values after.\n\n| rule | refusal |\n"
      "|---|---|\n";
  for (const SettingRule& rule : run_setting_rules())
    out += fmt::format("| {} | {} |\n", cell(rule_text(rule)), cell(rule.message));
  return out;
}

std::string law_scale_text(const LawKind& law) {
  if (!law.scale_keys.empty()) {
    std::vector<std::string> names;
    for (const auto& key : law.scale_keys) names.push_back(key.name);
    return names_list(names);
  }
  return law.stage ? "none" : code(overhead_fraction_key().name);
}

std::string laws_page() {
  std::string out = page_header("Per-stage noise laws", "law_kinds() (distributions/laws.cpp)");
  out += fmt::format(
      "The {} laws `noise.law` names (docs/models/noise-laws.md has their definitions). A law's\n"
      "keys are relative to where it is given: `noise.` for a point, `noise.components[i].` in a\n"
      "mixture, `noise.base.` under a truncation, `noise.duration.` for Poisson detours; the\n"
      "tables below write them under `noise.`. The shape keys define the unit-mean variable eta;\n"
      "the scale keys turn it into seconds of delay (by default `f`: scale = w f/(1-f)). A law\n"
      "that is not *nestable* may not be a mixture component or a Poisson duration law.\n\n",
      law_kinds().size());
  out +=
      "| law | meaning | shape keys | scale keys | nestable |\n"
      "|---|---|---|---|---|\n";
  for (const LawKind& law : law_kinds()) {
    std::vector<std::string> shape;
    for (const auto& key : law.shape_keys) shape.push_back(key.name);
    out += fmt::format("| {} | {} | {} | {} | {} |\n", code(law.name), cell(law.meaning),
                       names_list(shape), law_scale_text(law), law.nestable ? "yes" : "no");
  }
  for (const LawKind& law : law_kinds()) {
    std::vector<KeySpec> keys = law.shape_keys;
    if (!law.scale_keys.empty())
      keys.insert(keys.end(), law.scale_keys.begin(), law.scale_keys.end());
    else if (!law.stage)
      keys.push_back(overhead_fraction_key());
    out += fmt::format("\n## {}\n\n{}\n\n", code(law.name), law.meaning);
    out += keys.empty() ? std::string("No keys.\n") : key_table(keys, "noise.");
  }
  return out;
}

std::string time_noise_page() {
  std::string out = page_header("Kinds of time-based noise",
                                "time_noise_kinds() (distributions/time_noises.cpp)");
  out += fmt::format(
      "The {} kinds of time-based noise `noise.law` names (docs/models/time-noise.md): CPU work\n"
      "is suspended during detours at absolute times. They are looked up before the per-stage\n"
      "laws ([laws.md](laws.md)).\n\n"
      "| kind | meaning |\n"
      "|---|---|\n",
      time_noise_kinds().size());
  for (const TimeNoiseKind& kind : time_noise_kinds())
    out += fmt::format("| {} | {} |\n", code(kind.name), cell(kind.meaning));
  for (const TimeNoiseKind& kind : time_noise_kinds()) {
    out += fmt::format("\n## {}\n\n{}\n\n", code(kind.name), kind.meaning);
    out += kind.keys.empty() ? std::string("No keys.\n") : key_table(kind.keys, "noise.");
  }
  return out;
}

std::string algorithms_page() {
  std::string out = page_header("Generated algorithms",
                                "algorithm_kinds() (engine/schedules/algorithms/algorithms.cpp)");
  out += fmt::format(
      "The {} algorithms `collective.algorithm` names and `collnoise schedule` writes as GOAL\n"
      "(docs/models/schedules.md, \"Built-in algorithms\"), generated at any number of ranks,\n"
      "root 0. The columns say which of `collective.k`, `collective.segments`,\n"
      "`collective.receives` and `collective.compute` an algorithm uses, and whether it can be\n"
      "generated on the fly (memory independent of N, for some parameters at least).\n\n"
      "| algorithm | meaning | k | segments | receives | compute | on the fly |\n"
      "|---|---|---|---|---|---|---|\n",
      algorithm_kinds().size());
  const auto mark = [](bool used) { return used ? "yes" : ""; };
  for (const AlgorithmKind& kind : algorithm_kinds())
    out +=
        fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", code(kind.name), cell(kind.meaning),
                    mark(kind.uses_k), mark(kind.uses_segments), mark(kind.uses_receive_order),
                    mark(kind.uses_compute), mark(static_cast<bool>(kind.generate_on_the_fly)));
  return out;
}

// One table of summary fields.
std::string field_table(const std::vector<FieldSpec>& fields) {
  std::string out =
      "| field | unit | meaning | written |\n"
      "|---|---|---|---|\n";
  for (const FieldSpec& field : fields)
    out += fmt::format("| {} | {} | {} | {} |\n", code(field.name), cell(field.unit),
                       cell(field.meaning), field.when.empty() ? "always" : cell(field.when));
  return out;
}

std::string summary_fields_page() {
  std::string out = page_header("Summary fields",
                                "model_kinds() (engine/models.cpp) and shared_point_fields() "
                                "(runs/point_fields.cpp)");
  out +=
      "The fields of each point's summary record (`/points/<i>/summary` in a result file,\n"
      "docs/hdf5-layout.md; `summary --json`), as each model declares them\n"
      "(`ModelKind::summary_fields`, `FieldSpec` in core/field_spec.hpp). The unit is the one the\n"
      "file stores beside the field (`<field>_units`); a blank unit means none: a count, a ratio\n"
      "of like quantities, text or a verdict. *Written* says whether every point of the model\n"
      "writes the field or when it does. A field may be null, with its reason beside it\n"
      "(`<field>_reason`). tests/runs/test_summary_schema.cpp runs a point of each model and "
      "checks\n"
      "that it writes exactly the fields declared here.\n\n"
      "## Fields every point carries\n\n"
      "Written after the model's own (runs/point_fields.hpp), by `run` and `merge` alike.\n\n";
  out += field_table(shared_point_fields());
  for (const ModelKind& model : model_kinds()) {
    out += fmt::format("\n## {}\n\n{}\n\n", code(model.name), model.meaning);
    out += field_table(model.summary_fields);
  }
  out +=
      "\n## Predictions\n\n"
      "A run with `prediction.draws` (docs/calibration.md, \"Predictions with intervals\") writes\n"
      "one prediction per point of its run file (`/predictions/<i>/summary`, the table\n"
      "`/predictions_table`): these fields, then for each estimate with an interval of the\n"
      "points' summaries (`<estimate>`: a mean or a reported quantile) the fields after them.\n"
      "Each draw's point carries the parameter " +
      code(prediction_draw_field().name) + " (" + prediction_draw_field().meaning + ").\n\n";
  std::vector<FieldSpec> predicted = prediction_fields().specs();
  const PredictedEstimateFields pattern("<estimate>", "as the estimate's");
  for (const FieldSpec& field : pattern.specs()) predicted.push_back(field);
  out += field_table(predicted);
  return out;
}

}  // namespace

std::vector<ReferencePage> reference_pages() {
  return {
      {"keys.md", keys_page()},
      {"laws.md", laws_page()},
      {"time-noise.md", time_noise_page()},
      {"algorithms.md", algorithms_page()},
      {"settings.md", settings_page()},
      {"summary-fields.md", summary_fields_page()},
  };
}

namespace {

// Every declared field, each name once, in the order of the reference page; the patterned
// names (bound_<i>_name) are the patterns' members (python_patterns).
std::vector<FieldSpec> every_declared_field() {
  std::vector<FieldSpec> fields;
  std::set<std::string> seen;
  const auto add = [&](const std::vector<FieldSpec>& list) {
    for (const FieldSpec& field : list) {
      if (!seen.insert(field.name).second) continue;
      if (field.name.find('<') == std::string::npos) fields.push_back(field);
    }
  };
  add(shared_point_fields());
  for (const ModelKind& model : model_kinds()) add(model.summary_fields);
  add(prediction_fields().specs());
  return fields;
}

// A Python string literal of `text` (the names and units are plain ASCII words).
std::string python_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out)
    throw RuntimeFailure(
        fmt::format("{}: the file cannot be written: {}", path, std::strerror(errno)));
}

// A tuple of Python strings, one per line.
std::string python_tuple(const std::vector<std::string>& items) {
  std::string out = "(\n";
  for (const std::string& item : items) out += fmt::format("    {},\n", python_string(item));
  return out + ")\n";
}

// The members of the patterns (estimators/summary_fields.hpp, estimators/bound_fields.hpp).
std::string python_patterns() {
  std::string out =
      "\n# An estimated mean's fields are <prefix><member> (MeanFields): MEAN.ci_low is "
      "\"ci_low\".\n"
      "MEAN = SimpleNamespace(\n";
  const MeanFields mean("", "", "");
  for (const FieldSpec& member : mean.specs())
    out += fmt::format("    {}={},\n", member.name, python_string(member.name));
  out +=
      ")\n\n# The reported quantiles' names (QuantileFields), each with _ci_low, _ci_high and\n"
      "# _resolution.\nQUANTILES = ";
  std::vector<std::string> quantiles;
  for (const double p : reported_probabilities()) quantiles.push_back(quantile_name(p));
  out += python_tuple(quantiles);
  std::vector<std::string> members, text, quantities;
  for (const BoundMemberSpec& member : bound_members()) {
    members.emplace_back(member.suffix);
    if (member.text) text.emplace_back(member.suffix);
    if (member.in_metric_unit) quantities.emplace_back(member.suffix);
  }
  out +=
      "\n# A user bound's fields are bound(i, member), i from 1 (estimators/bound_fields.hpp):\n"
      "# bound(2, BOUND.ci_low) is \"bound_2_ci_low\".\nBOUND = SimpleNamespace(\n";
  for (const std::string& member : members)
    out += fmt::format("    {}={},\n", member, python_string(member));
  out += ")\n#: The members, in the order the bounds table holds them.\nBOUND_MEMBERS = ";
  out += python_tuple(members);
  out += "#: The members holding text; the others are numbers.\nBOUND_TEXT_MEMBERS = ";
  out += python_tuple(text);
  out += "#: The members in the primary metric's unit.\nBOUND_QUANTITY_MEMBERS = ";
  out += python_tuple(quantities);
  out +=
      "\n# A prediction's fields of an estimate are <estimate><suffix> (PredictedEstimateFields,\n"
      "# estimators/prediction_fields.hpp): \"completion_mean\" + PREDICTED.low.\n"
      "PREDICTED = SimpleNamespace(\n";
  const PredictedEstimateFields predicted("", "");
  for (const FieldSpec& member : predicted.specs())
    if (!member.name.empty())
      out += fmt::format("    {}={},\n", member.name.substr(1), python_string(member.name));
  out += ")\n";
  return out;
}

}  // namespace

std::string python_fields_module() {
  const std::vector<FieldSpec> fields = every_declared_field();
  std::string out = fmt::format(
      "\"\"\"The summary fields' names and units, as the models declare them.\n\n"
      "Generated from model_kinds() (engine/models.cpp) and shared_point_fields()\n"
      "(runs/point_fields.cpp) by `{}`; do not edit by hand.\n"
      "tests/runs/test_reference_docs.cpp fails when this file differs from the declarations.\n"
      "docs/reference/summary-fields.md says what each field means. A module of the package\n"
      "names a field as `fields.<name>`, never as a string of its own.\n"
      "\"\"\"\n\nfrom types import SimpleNamespace\n\n",
      kRegenerateReferenceCommand);
  for (const FieldSpec& field : fields)
    out += fmt::format("{} = {}\n", field.name, python_string(field.name));
  out += "\n# The unit each field is stored with (\"\" for none).\nUNITS = {\n";
  for (const FieldSpec& field : fields)
    out += fmt::format("    {}: {},\n", field.name, python_string(field.unit));
  out += "}\n";
  out +=
      "\n# The fields holding exact values beside the estimates (FieldKind::kExact): closed\n"
      "# forms, a theory's bounds, the noiseless run.\nEXACT = frozenset({\n";
  for (const FieldSpec& field : fields)
    if (field.kind == FieldKind::kExact) out += fmt::format("    {},\n", field.name);
  out += "})\n";
  out += python_patterns();
  out +=
      "\n\n"
      "def bound(i, member):\n"
      "    \"\"\"The name of user bound i's field `member` (one of BOUND_MEMBERS).\"\"\"\n"
      "    if member not in BOUND_MEMBERS:\n"
      "        raise KeyError(member)\n"
      "    return f\"bound_{i}_{member}\"\n";
  return out;
}

void write_python_fields_module(const std::string& path) {
  write_text_file(path, python_fields_module());
}

void write_reference_pages(const std::string& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error)
    throw RuntimeFailure(
        fmt::format("{}: the directory cannot be created: {}", directory, error.message()));
  for (const ReferencePage& page : reference_pages()) {
    write_text_file((std::filesystem::path(directory) / page.file).string(), page.text);
  }
}

}  // namespace collnoise
