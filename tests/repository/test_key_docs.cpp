// Documentation that ships with the code: every key a model, law or kind of time-based noise
// declares appears in the docs (docs/run-files.md, docs/models/), so a key cannot be added
// without its documentation.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "distributions/law_kind.hpp"
#include "distributions/time_noise_kind.hpp"
#include "engine/study.hpp"

using namespace collnoise;

namespace {

std::string doc(const std::string& page) {
  std::ifstream in(std::string(COLLNOISE_SOURCE_DIR) + "/" + page);
  REQUIRE(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// "`noise.a`", or the name after its table ("`overhead_c1`" for isoefficiency.overhead_c1).
bool mentions(const std::string& text, const std::string& key) {
  const std::string short_name = key.substr(key.find('.') + 1);
  return text.find("`" + key + "`") != std::string::npos ||
         text.find("`" + short_name + "`") != std::string::npos;
}

}  // namespace

TEST_CASE("every model's keys are documented") {
  const std::string run_files = doc("docs/run-files.md");
  for (const auto& model : model_kinds())
    for (const auto& key : model.keys) {
      INFO(model.name << ": " << key.name);
      CHECK(mentions(run_files, key.name));
      CHECK_FALSE(key.meaning.empty());
    }
}

TEST_CASE("every noise law and its keys are documented") {
  const std::string run_files = doc("docs/run-files.md");
  const std::string page = doc("docs/models/noise-laws.md");
  for (const auto& law : law_kinds()) {
    INFO(law.name);
    CHECK(run_files.find("`" + law.name + "`") != std::string::npos);
    CHECK(page.find("`" + law.name + "`") != std::string::npos);
    for (const auto& key : law.shape_keys) CHECK(mentions(page, "noise." + key.name));
    for (const auto& key : law.scale_keys) CHECK(mentions(page, "noise." + key.name));
  }
}

TEST_CASE("every kind of time-based noise and its keys are documented") {
  const std::string page = doc("docs/models/time-noise.md");
  for (const auto& kind : time_noise_kinds()) {
    INFO(kind.name);
    CHECK(page.find("`" + kind.name + "`") != std::string::npos);
    for (const auto& key : kind.keys) CHECK(mentions(page, "noise." + key.name));
  }
}
