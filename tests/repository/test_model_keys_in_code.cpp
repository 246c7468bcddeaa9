// The run-file and output layers know no model: their code names no model key; they read the
// declarations of the models and laws (KeySpec::alternatives, short_form, table_array;
// PlotHints::table_params) instead.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

// The text with its // comments taken out (string literals holding "//" are not in these files'
// way: a comment starts at the first // of a line outside a string).
std::string code_of(const std::string& path) {
  std::ifstream in(path);
  std::string line, code;
  while (std::getline(in, line)) {
    bool in_string = false;
    std::size_t cut = line.size();
    for (std::size_t i = 0; i + 1 < line.size(); ++i) {
      if (line[i] == '"' && (i == 0 || line[i - 1] != '\\')) in_string = !in_string;
      if (!in_string && line[i] == '/' && line[i + 1] == '/') {
        cut = i;
        break;
      }
    }
    code += line.substr(0, cut) + "\n";
  }
  return code;
}

}  // namespace

TEST_CASE("runs/ and outputs/ name no model key in their code", "[model_neutral]") {
  // Comments may name keys as examples; the code reads the models' declarations instead. The
  // reference pages (runs/reference_docs.cpp) are prose about the keys, written out as docs.
  const std::string root = COLLNOISE_SOURCE_DIR;
  std::size_t files = 0;
  for (const std::string dir : {"runs", "outputs"})
    for (const auto& entry : std::filesystem::directory_iterator(root + "/" + dir)) {
      const std::string name = entry.path().filename().string();
      const std::string ext = entry.path().extension().string();
      if ((ext != ".cpp" && ext != ".hpp") || name == "reference_docs.cpp") continue;
      ++files;
      const std::string code = code_of(entry.path().string());
      for (const char* word :
           {"collective.N", "log2_N", "\"levels\"", "noise.components", "noise.law\"",
            "\"collective\"", "\"noise\"", "\"tree_barrier\"", "collective.kind"}) {
        INFO(dir + "/" + name + " names " + word);
        CHECK(code.find(word) == std::string::npos);
      }
    }
  CHECK(files > 20);
}
