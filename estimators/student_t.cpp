#include "estimators/student_t.hpp"

#include <boost/math/distributions/students_t.hpp>

namespace collnoise {

double student_t_critical(double dof, double level) {
  return boost::math::quantile(boost::math::students_t(dof), 0.5 + level / 2.0);
}

}  // namespace collnoise
