#include "distributions/law_spec.hpp"

#include <fmt/format.h>

namespace collnoise {
namespace {

void add_parameters(const LawSpec& spec, const std::string& prefix, ParamMap& out) {
  out[prefix + ".law"] = spec.law;
  for (const auto& [key, value] : spec.numbers) out[prefix + "." + key] = value;
  if (!spec.file.empty()) out[prefix + ".file"] = spec.file;
  for (std::size_t i = 0; i < spec.components.size(); ++i)
    add_parameters(spec.components[i], fmt::format("{}.components[{}]", prefix, i), out);
}

}  // namespace

ParamMap law_parameters(const LawSpec& spec) {
  ParamMap out;
  add_parameters(spec, spec.where, out);
  return out;
}

std::shared_ptr<const NoiseLaw> make_law(const LawSpec& spec) {
  ParamReader reader(law_parameters(spec));
  return read_unit_law(reader, spec.where);
}

StageNoise make_stage_noise(const LawSpec& spec, double w) {
  ParamReader reader(law_parameters(spec));
  return read_stage_noise(reader, spec.where, w);
}

}  // namespace collnoise
