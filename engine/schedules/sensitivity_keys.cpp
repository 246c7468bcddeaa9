#include "engine/schedules/sensitivity_keys.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <memory>

#include "core/errors.hpp"

namespace collnoise {
namespace {

const KeySpec kParameters{
    .name = "sensitivity.parameters",
    .type = KeyType::kTextList,
    .meaning =
        "the LogGOPS parameters (L, o, g, G, O) whose sensitivities each sample also gives, by "
        "finite differences on its own streams",
    .fallback = TextList{},
    .identity = false};
const KeySpec kMethod{
    .name = "sensitivity.method",
    .type = KeyType::kChoice,
    .meaning =
        "differences (each sample simulated again at X (1 +/- h)), path (each parameter's time on "
        "the sample's critical path divided by it: needs output.critical_path = true, no run "
        "more) or both (the differences check the path's)",
    .fallback = std::string("differences"),
    .choices = {"differences", "path", "both"},
    .identity = false};
const KeySpec kStep{.name = "sensitivity.step",
                    .meaning = "the relative step h: each parameter X is simulated at X (1 +/- h)",
                    .fallback = 0.01,
                    .bounds = {0.0, 0.5, true, false},
                    .identity = false};

// The member of `net` (const or not) that holds `p`.
template <class Net>
auto field_of(Net& net, LogGPParameter p) -> decltype((net.L)) {
  switch (p) {
    case LogGPParameter::kSmallO:
      return net.o;
    case LogGPParameter::kSmallG:
      return net.g;
    case LogGPParameter::kBigG:
      return net.G;
    case LogGPParameter::kBigO:
      return net.O;
    case LogGPParameter::kL:
      break;
  }
  return net.L;
}

}  // namespace

std::vector<KeySpec> sensitivity_keys() {
  return {kParameters, kMethod, kStep};
}

double parameter_of(const ScheduleNet& net, LogGPParameter p) {
  return field_of(net, p);
}

SensitivitySpec read_sensitivity(ParamReader& reader, const ScheduleNet& net) {
  SensitivitySpec spec;
  spec.step = reader.number(kStep);
  const std::string method = reader.text(kMethod);
  spec.method = method == "path"   ? SensitivityMethod::kPath
                : method == "both" ? SensitivityMethod::kBoth
                                   : SensitivityMethod::kDifferences;
  for (const std::string& name : reader.texts(kParameters)) {
    const auto* found =
        std::find_if(kAllLogGPParameters.begin(), kAllLogGPParameters.end(),
                     [&](LogGPParameter p) { return name == loggp_parameter_name(p); });
    if (found == kAllLogGPParameters.end())
      throw InputError(fmt::format("{} names \"{}\": use L, o, g, G or O", kParameters.name, name));
    if (std::find(spec.parameters.begin(), spec.parameters.end(), *found) != spec.parameters.end())
      throw InputError(fmt::format("{} names \"{}\" twice", kParameters.name, name));
    if (parameter_of(net, *found) == 0.0)
      throw InputError(fmt::format(
          "{} names \"{}\", which is 0 in this point: a derivative is taken to its relative "
          "change, which cannot move it (give it a small value, or leave it out)",
          kParameters.name, name));
    spec.parameters.push_back(*found);
  }
  return spec;
}

ScheduleNet scaled(const ScheduleNet& net, LogGPParameter p, double factor) {
  ScheduleNet out = net;
  field_of(out, p) *= factor;
  for (ScheduleNet& row : out.by_size) field_of(row, p) *= factor;
  if (net.classes) {
    auto classes = std::make_shared<PairClasses>(*net.classes);
    field_of(classes->far, p) *= factor;
    for (ScheduleNet& row : classes->far.by_size) field_of(row, p) *= factor;
    out.classes = std::move(classes);
  }
  return out;
}

}  // namespace collnoise
