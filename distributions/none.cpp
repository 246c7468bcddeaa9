#include "distributions/none.hpp"

#include <memory>

namespace collnoise {

LawKind none_law_kind() {
  return {
      .name = "none",
      .meaning = "no noise: eta = 0, every stage takes its nominal time",
      .make = [](ParamReader&, const std::string&) { return std::make_shared<const NoneLaw>(); },
      .stage =
          [](ParamReader&, const std::string&, double) {
            return StageNoise{std::make_shared<const NoneLaw>(), 0.0, 0.0};
          }};
}

}  // namespace collnoise
