// SPDX-License-Identifier: Apache-2.0
// numpy's element-type rules for value modes and odd reflection (docs/spec.md §3.6), read from
// the element-type table's numpy kinds.
#include "plan/type_rules.hpp"

#include <string>

#include "core/message_text.hpp"
#include "padnd/error.hpp"
#include "plan/plan_internal.hpp"

namespace padnd::detail {
namespace {

/// Whether numpy computes mode `m` for `type`: everything for numbers (kinds b, i, u, f, c,
/// long double included); maximum and minimum of datetime64 and odd reflection of timedelta64
/// (numpy rounds statistics of timedelta64 with np.round, which has no timedelta loop, and has
/// no loops for the rest).
bool computes_in(const ElementType& type, const AxisMode& m) {
  switch (numpy_kind(type)) {
    case 'b':
    case 'i':
    case 'u':
    case 'f':
    case 'c':
      return true;
    case 'M':
      return !m.odd && (m.mode == Mode::maximum || m.mode == Mode::minimum);
    case 'm':
      return m.odd;
    default:
      return false;  // types numpy does not have (bfloat16, float8, packed, strings, opaque)
  }
}

bool is_complex(const ElementType& type) { return numpy_kind(type) == 'c'; }

/// np.linspace's types: float16/32/64, longdouble, complex64/128, clongdouble.
bool is_ramp_type(const ElementType& type) { return numpy_kind(type) == 'f' || is_complex(type); }

/// linear_ramp's arithmetic type and end values.
void check_ramp(const ElementType& type, const PadSpec& spec, std::size_t k, const AxisMode& m) {
  if (!is_ramp_type(spec.ramp_type)) {
    throw Error(Errc::unsupported_type,
                "ramp_type: linear_ramp computes in float16/32/64, longdouble or complex64/128 "
                "/clongdouble; got " +
                    spec.ramp_type.name());
  }
  if (is_complex(spec.ramp_type) && is_integer(type)) {
    throw Error(Errc::unsupported_type, where("end_values", k) +
                                            "a complex ramp cannot be floored to " + type.name() +
                                            " (numpy's floor has no complex loop)");
  }
  check_value(spec.ramp_type, m.begin_value, "end_values", k, "begin");
  check_value(spec.ramp_type, m.end_value, "end_values", k, "end");
}

}  // namespace

void check_computable(const ElementType& type, const PadSpec& spec, std::size_t k,
                      const AxisMode& m, bool reads_empty) {
  const std::string mode = m.odd ? std::string(mode_name(m.mode)) + " with reflect_type 'odd'"
                                 : std::string(mode_name(m.mode));
  if (!computes_in(type, m)) {
    throw Error(Errc::unsupported_type, where("mode", k) + mode +
                                            " computes values, which needs a bool, integer, "
                                            "float, complex or long double element type (or "
                                            "datetime64 for maximum/minimum, timedelta64 for "
                                            "odd reflection, as numpy); got " +
                                            type.name());
  }
  if (m.mode == Mode::linear_ramp) check_ramp(type, spec, k, m);
  // Only a side that gets positions writes its statistic; numpy computes the other too and
  // discards it.
  const AxisPad& pad = spec.axes[k];
  const bool writes_empty =
      (m.begin_stat_elems == 0 && pad.begin > 0) || (m.end_stat_elems == 0 && pad.end > 0);
  if ((m.mode == Mode::mean || m.mode == Mode::median) && is_integer(type) && !reads_empty &&
      writes_empty) {
    throw Error(Errc::invalid_argument, where("stat_length", k) + "the " + mode +
                                            " of 0 elements " +
                                            side_text(m.begin_stat_elems, m.end_stat_elems) +
                                            " is NaN, which has no " + type.name() + " value");
  }
}

}  // namespace padnd::detail
