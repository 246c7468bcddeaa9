#include "runs/bound_expression.hpp"

#include <muParser.h>

#include <cctype>
#include <cmath>
#include <limits>
#include <numbers>
#include <regex>
#include <string_view>

#include <fmt/format.h>

#include "distributions/exponential.hpp"

namespace collnoise {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double pow_of(double x, double y) {
  return std::pow(x, y);
}
double floor_of(double x) {
  return std::floor(x);
}
double ceil_of(double x) {
  return std::ceil(x);
}
double lgamma_of(double x) {
  return std::lgamma(x);
}
// H(n): the harmonic number the exponential law's theory uses; NaN below 0 (it is defined there
// as 0, which a user bound should not meet silently).
double harmonic_of(double n) {
  return n >= 0.0 ? harmonic_number(n) : kNaN;
}

// muparser's message without its 0-based position (the caller gives a 1-based column), and an
// unknown name said as such.
std::string fault_message(const mu::Parser::exception_type& e) {
  if (e.GetCode() == mu::ecUNASSIGNABLE_TOKEN && !e.GetToken().empty())
    return "unknown name \"" + e.GetToken() + "\"";
  static const std::regex position(R"( (found )?at position -?[0-9]+\.?| \(position: -?[0-9]+\))");
  return std::regex_replace(e.GetMsg(), position, "");
}

// The 1-based column of the first assignment '=' of `text` (an '=' that is not part of "==",
// "<=", ">=" or "!="), for the message; 0 when none is found.
int assignment_column(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '=') continue;
    const bool after =
        i > 0 && std::string_view("=<>!").find(text[i - 1]) != std::string_view::npos;
    const bool before = i + 1 < text.size() && text[i + 1] == '=';
    if (before) {
      ++i;  // "==": skip both
      continue;
    }
    if (!after) return static_cast<int>(i) + 1;
  }
  return 0;
}

// A bound is one closed form: muparser also takes assignments to its variables ("x = 3", which
// evaluates to 3) and lists ("1, 2", which evaluates to the last), neither of which is a bound.
// Both are seen in what muparser parsed, not in the text: an assignment is a command of its
// bytecode, a list gives more than one result.
std::optional<ExpressionFault> closed_form_fault(const mu::Parser& parser,
                                                 const std::string& text) {
  const mu::ParserByteCode& code = parser.GetByteCode();
  for (std::size_t i = 0; i < code.GetSize(); ++i)
    if (code.GetBase()[i].Cmd == mu::cmASSIGN)
      return ExpressionFault{
          "'=' assigns to a name, which a bound may not do: a bound is an expression of the "
          "point's names (compare with '==')",
          assignment_column(text)};
  if (const int results = parser.GetNumResults(); results > 1)
    return ExpressionFault{fmt::format("a list of {} expressions separated by commas is not one "
                                       "value (commas separate a function's arguments only)",
                                       results),
                           0};
  return std::nullopt;
}

}  // namespace

struct BoundExpression::Parser {
  mu::Parser parser;
  std::vector<std::string> names;
  std::vector<double> values;  // one per name, at fixed addresses (sized once)
};

std::string variable_name(const std::string& key) {
  std::string name = key;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  return name;
}

BoundExpression::BoundExpression(const std::string& text, const std::vector<std::string>& names)
    : parser_(std::make_unique<Parser>()) {
  Parser& p = *parser_;
  p.names = names;
  p.values.assign(names.size(), kNaN);
  try {
    p.parser.DefineFun("pow", pow_of);
    p.parser.DefineFun("floor", floor_of);
    p.parser.DefineFun("ceil", ceil_of);
    p.parser.DefineFun("lgamma", lgamma_of);
    p.parser.DefineFun("H", harmonic_of);
    // muparser's own constants are not exact in every build (Debian's defines _pi as
    // 3.141592653589): collnoise's are the nearest doubles to pi and e.
    p.parser.DefineConst("_pi", std::numbers::pi);
    p.parser.DefineConst("_e", std::numbers::e);
    for (std::size_t i = 0; i < names.size(); ++i) p.parser.DefineVar(names[i], &p.values[i]);
    p.parser.SetExpr(text);
    p.parser.Eval();  // muparser parses on the first evaluation: faults show here
    fault_ = closed_form_fault(p.parser, text);
  } catch (const mu::Parser::exception_type& e) {
    const int pos = e.GetPos();
    fault_ = ExpressionFault{fault_message(e), pos >= 0 ? pos + 1 : 0};
  }
}

BoundExpression::~BoundExpression() = default;
BoundExpression::BoundExpression(BoundExpression&&) noexcept = default;
BoundExpression& BoundExpression::operator=(BoundExpression&&) noexcept = default;

std::vector<std::string> BoundExpression::used() const {
  std::vector<std::string> out;
  if (fault_) return out;
  const auto& used = parser_->parser.GetUsedVar();
  for (const std::string& name : parser_->names)
    if (used.contains(name)) out.push_back(name);
  return out;
}

double BoundExpression::evaluate(const std::map<std::string, double>& values) {
  if (fault_) return kNaN;
  Parser& p = *parser_;
  for (std::size_t i = 0; i < p.names.size(); ++i) {
    const auto it = values.find(p.names[i]);
    p.values[i] = it == values.end() ? kNaN : it->second;
  }
  try {
    return p.parser.Eval();
  } catch (const mu::Parser::exception_type&) {
    return kNaN;  // a domain fault at this point's values
  }
}

}  // namespace collnoise
