#pragma once
// A bound's closed form, parsed and evaluated by muparser (libmuparser-dev), with the functions
// docs/bounds.md lists: muparser's own (log is natural, log2, log10, exp, sqrt, abs, min, max,
// sum, avg, ^), and pow, floor, ceil, lgamma and the harmonic number H(n) added here.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace collnoise {

/// Why an expression was refused: muparser's message and the 1-based column at fault.
struct ExpressionFault {
  std::string message;
  int column = 0;  ///< 0 when the fault has no place (an empty expression)
};

/// An expression over named variables.
class BoundExpression {
 public:
  /// Parses `text` with `names` as its variables (each a muparser name: letters, digits and
  /// underscores, not starting with a digit). On a malformed expression or an unknown name,
  /// `fault` is set and the expression evaluates to NaN.
  BoundExpression(const std::string& text, const std::vector<std::string>& names);
  ~BoundExpression();
  BoundExpression(BoundExpression&&) noexcept;
  BoundExpression& operator=(BoundExpression&&) noexcept;

  const std::optional<ExpressionFault>& fault() const { return fault_; }
  /// The variables the expression uses, in the order of `names`.
  std::vector<std::string> used() const;
  /// Its value with `values` for the variables (NaN for one `values` lacks). Not thread-safe.
  double evaluate(const std::map<std::string, double>& values);

 private:
  struct Parser;
  std::unique_ptr<Parser> parser_;
  std::optional<ExpressionFault> fault_;
};

/// The variable name of a point key: every character other than a letter, a digit or an
/// underscore becomes an underscore ("collective.N" -> "collective_N").
std::string variable_name(const std::string& key);

}  // namespace collnoise
