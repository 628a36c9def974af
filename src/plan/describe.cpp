// SPDX-License-Identifier: Apache-2.0
// Plan::describe — the text `padnd explain` prints.
#include <span>
#include <sstream>
#include <string>

#include "padnd/plan.hpp"
#include "plan/plan_access.hpp"

namespace padnd {
namespace {

using detail::AxisPass;
using detail::PlanAxis;
using detail::Program;
using detail::RowSegment;

std::string join(std::span<const std::int64_t> v) {
  std::ostringstream os;
  os << '(';
  for (std::size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
  if (v.size() == 1) os << ',';
  os << ')';
  return os.str();
}

/// Prints an axis's sources compactly: at most `limit` positions from each end, "." for a pad
/// position, then where the border tables and the middle run are.
std::string sources_text(const PlanAxis& a, const std::int64_t* border_table,
                         std::int64_t limit = 12) {
  std::ostringstream os;
  const auto put = [&](std::int64_t o) {
    if (o) os << ' ';
    const std::int64_t s = a.source(o, border_table);
    if (s < 0) {
      os << '.';
    } else {
      os << s;
    }
  };
  if (a.out_len <= 2 * limit) {
    for (std::int64_t o = 0; o < a.out_len; ++o) put(o);
  } else {
    for (std::int64_t o = 0; o < limit; ++o) put(o);
    os << " ...";
    for (std::int64_t o = a.out_len - limit; o < a.out_len; ++o) put(o);
  }
  const std::int64_t head = a.head_len;
  os << "  (begin table " << a.head_tabulated << ", middle [" << head << ',' << head + a.mid_len
     << ")<-" << a.mid_src;
  if (a.mid_step > 1) os << " every " << a.mid_step;
  os << ", end table " << a.tail_tabulated;
  if (a.tabulated() < a.border_len()) os << ", period " << a.period;
  os << ')';
  return os.str();
}

const char* strategy_name(detail::Strategy s) {
  switch (s) {
    case detail::Strategy::nothing:
      return "nothing";
    case detail::Strategy::fill_then_place:
      return "fill_then_place";
    case detail::Strategy::bordered:
      return "bordered";
    case detail::Strategy::segments:
      return "segments";
    case detail::Strategy::strings:
      return "strings";
    case detail::Strategy::packed:
      return "packed";
  }
  return "?";
}

const char* kind_name(RowSegment::Kind k) {
  switch (k) {
    case RowSegment::Kind::fill:
      return "fill";
    case RowSegment::Kind::copy:
      return "copy";
    case RowSegment::Kind::reverse:
      return "reverse";
    case RowSegment::Kind::interleave:
      return "interleave";
    case RowSegment::Kind::gather:
      return "gather";
    case RowSegment::Kind::repeat:
      return "repeat";
    case RowSegment::Kind::periodic:
      return "periodic";
  }
  return "?";
}

}  // namespace

std::string Plan::describe() const {
  const Program& prog = detail::program(*this);
  std::ostringstream os;
  os << "type " << type_.name() << ", mode " << mode_name(mode_) << '\n';
  os << "input shape  " << join(in_shape_) << '\n';
  os << "output shape " << join(out_shape_) << "  (" << out_elems_ << " elements, " << out_bytes_
     << " bytes)\n";
  if (out_elems_ == 0) {
    os << "empty output: nothing to execute\n";
    return os.str();
  }
  const char* stride_unit = type_.packed() ? "elements" : "bytes";
  os << "view offset " << prog.view_offset_ << ' ' << stride_unit;
  if (prog.unit_bytes_ > 0) os << ", unit " << prog.unit_bytes_ << " bytes";
  os << '\n' << "merged axes (" << prog.axes_.size() << "), outermost first; last is the row:\n";
  for (std::size_t k = 0; k < prog.axes_.size(); ++k) {
    const PlanAxis& a = prog.axes_[k];
    os << "  [" << k << "] out " << a.out_len << ", in " << a.in_len << ", stride " << a.in_stride
       << ' ' << stride_unit << ", ";
    if (a.plain) {
      os << "plain (identity)\n";
    } else {
      os << "table: " << sources_text(a, prog.borders_.data()) << '\n';
    }
  }
  os << "write strategy: " << strategy_name(prog.strategy()) << '\n';
  os << "row segments:";
  for (const RowSegment& s : prog.row_) {
    os << ' ' << kind_name(s.kind) << '[' << s.out_begin << ',' << s.out_begin + s.len << ')';
    if (s.kind == RowSegment::Kind::copy || s.kind == RowSegment::Kind::reverse) {
      os << "<-" << s.src_begin;
    } else if (s.kind == RowSegment::Kind::gather) {
      os << "<-gather table " << s.src_begin;
    } else if (s.kind == RowSegment::Kind::interleave) {
      os << "<-" << s.src_begin << " every " << s.step;
    } else if (s.kind == RowSegment::Kind::repeat) {
      os << "<-" << s.src_begin;
    } else if (s.kind == RowSegment::Kind::periodic) {
      os << "<-segments " << s.src_begin << ".." << s.src_begin + s.step - 1;
    }
  }
  os << '\n';
  if (prog.strategy_ == detail::Strategy::fill_then_place) {
    os << "small output, the pad value around the input: filled whole, then the input rows "
          "placed\n";
  }
  if (!prog.passes_.empty()) {
    os << "axis passes, in numpy's order (over the output, after the rows):";
    for (const AxisPass& p : prog.passes_) {
      os << " axis " << p.axis << ' ' << mode_name(p.rule.mode) << (p.rule.odd ? " odd" : "");
      if (&p != &prog.passes_.back()) os << ',';
    }
    os << '\n';
  }
  return os.str();
}

}  // namespace padnd
