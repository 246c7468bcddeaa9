// The summary schema is truthful: for every model, small points run in process (as `collnoise
// run` runs them, shared fields included) write exactly the fields their model declares
// (ModelKind::summary_fields) and the fields every point shares declare (shared_point_fields),
// each with the declared unit. Every field declared "always" appears in every point of its model,
// and every field declared with a condition appears in at least one of the points below, which
// are chosen to meet each condition. A pattern (the mean's, the quantiles') is declared once and
// expanded field by field in the schema, so names are matched exactly; the user bounds' pattern is
// matched as bound_<i>_<member>. The table columns and plot hints of every model name declared
// fields.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "core/field_spec.hpp"
#include "core/process_group.hpp"
#include "engine/study.hpp"
#include "runs/point_factory.hpp"
#include "runs/point_fields.hpp"
#include "runs/run_executor.hpp"
#include "runs/run_file.hpp"

using namespace collnoise;

namespace {

// A run file whose points all go to one model, small enough to take well under a second.
struct SchemaCase {
  std::string model;
  std::string text;
};

const std::vector<SchemaCase>& schema_cases() {
  // The schedule cases' Netgauge files (docs/models/netgauge-files.md), written whenever the
  // cases are asked for: every test that runs them reads them. The measured latencies (us); the
  // LogGP file, whose o jumps at 4097 bytes, so both regimes' fields are written.
  std::ofstream("schema_latency.out") << "#size\trtt\n1\t2\n1\t4\n";
  std::ofstream("schema_loggp.out")
      << "# size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s) L o_s o_r g G lsqu(g,G)\n"
         "1 10 6 10.5 0 3 1 1 -nan -nan 0\n1025 10 7 12.625 0 3 1.25 1.25 1 1 0\n"
         "2049 10 8 14.75 0 3 1.5 1.5 1 1 0\n3073 10 9 16.875 0 3 1.75 1.75 1 1 0\n"
         "4097 10 10 37 0 3 12 12 1 1 0\n5121 10 11 40.25 0 3 12.25 12.25 1 1 0\n";
  // 100 distinct round trips, enough for a fitted tail (latency.tail = "gpd").
  {
    std::ofstream tail("schema_latency_tail.out");
    tail << "#size\trtt\n";
    for (int i = 0; i < 100; ++i) tail << "1\t" << 2.0 + 0.01 * i << "\n";
  }
  // A background job of two ranks exchanging 64 KiB.
  std::ofstream("schema_job.goal") << "num_ranks 2\nrank 0 {\nl1: send 65536b to 1 tag 0\n}\n"
                                      "rank 1 {\nl1: recv 65536b from 0 tag 0\n}\n";
  static const std::vector<SchemaCase> cases = {
      // Precision targets on the mean and a quantile, too narrow for the cap: every shared field.
      {"tree_barrier", R"toml(name = "schema-tree"
seed = 1
[collective]
kind = "tree_barrier"
N = 7
w = 1.0e-3
tau = 1.0e-6
[noise]
law = "exponential"
f = 0.1
[precision]
mean_relative_half_width = 0.005
quantile = 0.9
quantile_relative_half_width = 0.5
min_samples = 200
max_samples = 1000
[[case]]
"noise.law" = "pareto"
"noise.a" = 2.5
[[case]]
"collective.sampling" = "per_rank"
"noise.f" = 0.4
)toml"},
      {"timed_tree_barrier", R"toml(name = "schema-timed-tree"
seed = 2
samples = 50
[collective]
kind = "tree_barrier"
N = 15
w = 1.0e-4
tau = 1.0e-6
phases = 3
[noise]
law = "periodic"
P = 1.0e-3
D = 5.0e-5
)toml"},
      // Found and resolved; unresolved (N_1/2 near 1e27); not found below 2^126.
      {"nhalf", R"toml(name = "schema-nhalf"
kind = "nhalf"
seed = 3
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
sampling = "per_level"
[nhalf]
check_samples = 100
[[case]]
"noise.law" = "pareto"
"noise.a" = 2.0
"noise.f" = 0.01
[[case]]
"noise.law" = "exponential"
"noise.f" = 0.01
[[case]]
"noise.law" = "uniform"
"noise.f" = 1.0e-4
)toml"},
      // proportional_w: any W keeps E at m = 2, none does at m = 200.
      {"isoefficiency", R"toml(name = "schema-isoefficiency"
kind = "isoefficiency"
seed = 4
[isoefficiency]
efficiency = 0.5
p = 1.0e6
m = [2, 200]
surface_W = [1.0e3, 1.0e4]
imbalance = "proportional_w"
c1 = 1.0e-8
[[case]]
[[case]]
"isoefficiency.imbalance" = "constant"
"isoefficiency.m" = [2, 4, 8]
)toml"},
      {"network", R"toml(name = "schema-network"
seed = 5
samples = 4
[collective]
kind = "binomial_broadcast"
[network]
rho = 0.5
topology = "xgft(2; 4,4; 1,2)"
)toml"},
      // The butterfly with every case under time-based noise, the dissemination barrier under
      // per-stage noise, and the butterfly leaving cases out.
      {"cycles", R"toml(name = "schema-cycles"
seed = 6
replications = 3
[collective]
kind = "butterfly"
N = 16
cycles = 2
W = 1.0e-4
[[case]]
"noise.law" = "periodic"
"noise.P" = 1.0e-3
"noise.D" = 2.0e-5
[[case]]
"collective.kind" = "dissemination"
"noise.law" = "exponential"
"noise.f" = 0.05
[[case]]
"collective.cases" = ["quiet", "conventional"]
"noise.law" = "exponential"
"noise.f" = 0.05
)toml"},
      {"schedule", R"toml(name = "schema-schedule"
seed = 7
samples = 4
[output]
critical_path = true
[collective]
kind = "schedule"
algorithm = "dissemination_barrier"
N = 8
[noise]
law = "exponential"
f = 0.05
[[bound]]
name = "above noiseless"
relation = ">="
expression = "noiseless_completion"
[[bound]]
name = "median"
statistic = "median"
relation = "<="
expression = "2 * noiseless_completion"
[[case]]
[[case]]
"collective.finish_sample" = 2
[[case]]
"latency.file" = "schema_latency.out"
"latency.use" = "whole"
[[case]]
"loggops.file" = "schema_loggp.out"
"loggops.file_fit" = "regimes"
[[case]]
"network.nodes_per_switch" = 4
"loggops.far.L" = 2e-6
[[case]]
"latency.file" = "schema_latency_tail.out"
"latency.tail" = "gpd"
[[case]]
"sensitivity.parameters" = ["L", "o", "g", "G", "O"]
"sensitivity.method" = "both"
"loggops.L" = 1e-6
"loggops.o" = 1e-7
"loggops.g" = 5e-8
"loggops.G" = 1e-9
"loggops.O" = 1e-10
)toml"},
      // Contention, with the critical path's network category.
      {"schedule", R"toml(name = "schema-contention"
seed = 7
samples = 4
[output]
critical_path = true
[collective]
kind = "schedule"
algorithm = "recursive_doubling_allreduce"
N = 8
message_bytes = 4096
[network]
topology = "dragonfly(2, 2, 1, 3)"
contention = "simple"
[noise]
law = "exponential"
f = 0.05
)toml"},
      // A background job beside the collective, under flows.
      {"schedule", R"toml(name = "schema-job"
seed = 7
samples = 4
[collective]
kind = "schedule"
algorithm = "recursive_doubling_allreduce"
N = 8
message_bytes = 4096
[loggops]
G = 1.0e-9
[network]
topology = "xgft(2; 4,4; 1,2)"
contention = "flows"
placement = "random"
background_schedule = "schema_job.goal"
)toml"},
  };
  return cases;
}

const ModelKind* model_named(const std::string& name) {
  for (const ModelKind& model : model_kinds())
    if (model.name == name) return &model;
  return nullptr;
}

// The summary records of every point of a run file, as `collnoise run` writes them.
std::vector<Record> run_summaries(const std::string& text) {
  const RunSpec run = parse_run_text(text, "schema.toml");
  const std::vector<PreparedPoint> points = prepare_points(run);
  Execution execution = execute_run(run, points, ExecutionOptions{}, ProcessGroup::world());
  std::vector<Record> records;
  for (PointOutcome& outcome : execution.points) records.push_back(std::move(outcome.summary));
  return records;
}

// A user bound's field as the schema declares it: bound_3_value is bound_<i>_value.
std::string declared_name(const std::string& name) {
  static const std::regex numbered("^bound_[0-9]+_");
  return std::regex_replace(name, numbered, "bound_<i>_");
}

// Checks that every field of the record is declared, with the declared unit; counts each one.
// A bound's values are in the primary metric's unit, which the schema cannot name once for all.
void check_record(const Record& record, const std::map<std::string, FieldSpec>& declared,
                  std::map<std::string, int>& seen) {
  for (const auto& [name, value] : record.fields()) {
    INFO("field " << name);
    const std::string as_declared = declared_name(name);
    const auto spec = declared.find(as_declared);
    const bool is_declared = spec != declared.end();
    CHECK(is_declared);
    if (!is_declared) continue;
    if (as_declared == name)
      CHECK(record.unit_of(name) == spec->second.unit);
    else
      CHECK((record.unit_of(name) == "seconds" || record.unit_of(name).empty()));
    ++seen[as_declared];
  }
}

}  // namespace

TEST_CASE("summary schema: every model's points write exactly the fields it declares") {
  std::set<std::string> covered;
  std::map<std::string, int> shared_seen;
  // Fields written under a condition, seen over all the cases of their model (a model may need
  // two run files for conditions that exclude each other).
  std::map<std::string, std::map<std::string, int>> seen_by_model;
  for (const SchemaCase& c : schema_cases()) {
    INFO("model " << c.model);
    const ModelKind* found = model_named(c.model);
    REQUIRE(found);
    const ModelKind& model = *found;
    covered.insert(model.name);
    std::map<std::string, FieldSpec> declared;
    for (const FieldSpec& field : model.summary_fields) {
      CHECK(declared.emplace(field.name, field).second);  // declared once
    }
    for (const FieldSpec& field : shared_point_fields()) {
      CHECK(declared.emplace(field.name, field).second);  // no model redeclares a shared field
    }
    const std::vector<Record> records = run_summaries(c.text);
    REQUIRE_FALSE(records.empty());
    std::map<std::string, int> seen;
    for (const Record& record : records) check_record(record, declared, seen);
    for (const FieldSpec& field : model.summary_fields) {
      INFO("declared field " << field.name << " (written: always)");
      if (field.when.empty()) CHECK(seen[field.name] == static_cast<int>(records.size()));
      seen_by_model[model.name][field.name] += seen[field.name];
    }
    for (const FieldSpec& field : shared_point_fields())
      shared_seen[field.name] += seen[field.name];
  }
  // Every model has a case, each field written under a condition was written by one of them,
  // and every shared field appeared somewhere.
  for (const ModelKind& model : model_kinds()) {
    INFO("model " << model.name);
    CHECK(covered.count(model.name) == 1);
    for (const FieldSpec& field : model.summary_fields) {
      INFO("declared field " << field.name << " (written: " << field.when << ")");
      if (!field.when.empty()) CHECK(seen_by_model[model.name][field.name] > 0);
    }
  }
  for (const FieldSpec& field : shared_point_fields()) {
    INFO("shared field " << field.name);
    CHECK(shared_seen[field.name] > 0);
  }
}

TEST_CASE("summary schema: every model's table columns and plot hints name declared fields") {
  // A column or a plot hint that names a field no declaration holds would print or draw nothing.
  for (const SchemaCase& c : schema_cases()) {
    INFO("model " << c.model);
    const ModelKind* model = model_named(c.model);
    REQUIRE(model);
    std::set<std::string> declared;
    for (const FieldSpec& field : model->summary_fields) declared.insert(field.name);
    for (const FieldSpec& field : shared_point_fields()) declared.insert(field.name);
    const RunSpec run = parse_run_text(c.text, "schema.toml");
    for (const PreparedPoint& point : prepare_points(run)) {
      for (const TableColumn& column : point.columns()) {
        INFO("column " << column.header);
        CHECK(declared.count(column.field) == 1);
      }
      const PlotHints hints = point.plot_hints();
      CHECK(declared.count(hints.y) == 1);
      for (const std::string& end : {hints.y_low, hints.y_high})
        if (!end.empty()) CHECK(declared.count(end) == 1);
      for (const std::string& reference : hints.references) {
        INFO("reference " << reference);
        CHECK(declared.count(reference) == 1);
      }
    }
  }
}

TEST_CASE("summary schema: every declared field has a meaning, and units are the records'") {
  std::vector<FieldSpec> all = shared_point_fields();
  for (const ModelKind& model : model_kinds()) {
    INFO("model " << model.name);
    CHECK_FALSE(model.summary_fields.empty());
    all.insert(all.end(), model.summary_fields.begin(), model.summary_fields.end());
  }
  const std::set<std::string> units = {"",  "seconds",       "work units", "work units per second",
                                       "1", "message-times", "bytes",      "seconds per byte"};
  for (const FieldSpec& field : all) {
    INFO("field " << field.name);
    CHECK_FALSE(field.name.empty());
    CHECK_FALSE(field.meaning.empty());
    CHECK(field.meaning.find('\n') == std::string::npos);
    CHECK(units.count(field.unit) == 1);
  }
}
