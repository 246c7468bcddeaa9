// The table of models: one line a model, each defined in its room of engine/ (docs/extending.md,
// "A new collective"). A point goes to the first model that takes it.
#include "engine/cycles/cycle_study.hpp"
#include "engine/isoefficiency/isoefficiency_study.hpp"
#include "engine/network/network_study.hpp"
#include "engine/schedules/schedule_study.hpp"
#include "engine/study.hpp"
#include "engine/tree_barrier/tree_params.hpp"

namespace collnoise {

const std::vector<ModelKind>& model_kinds() {
  // clang-format off
  static const std::vector<ModelKind> kinds = {
      isoefficiency_model_kind(),
      nhalf_model_kind(),
      network_model_kind(),
      tree_barrier_model_kind(),
      timed_tree_model_kind(),
      cycle_model_kind(),
      schedule_model_kind(),
  };
  // clang-format on
  return kinds;
}

std::vector<std::string> run_kinds() {
  std::vector<std::string> kinds = {kSampleRunKind};
  for (const ModelKind& model : model_kinds())
    if (!model.run_kind.empty()) kinds.push_back(model.run_kind);
  return kinds;
}

const KeySpec& collective_kind_key() {
  static const KeySpec kind{.name = "collective.kind",
                            .type = KeyType::kText,
                            .meaning = "the collective (engine/models.cpp lists the models)",
                            .fallback = std::string("tree_barrier")};
  return kind;
}

const std::string& noise_law_table() {
  static const std::string table = "noise";
  return table;
}

}  // namespace collnoise
