// SPDX-License-Identifier: Apache-2.0
// `padnd demo`: the spec documents' examples, run through the real adapters and drawn with the
// input block marked inside each output (brackets, or bold/dim on a terminal).
#include "demo.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "padnd/padnd.hpp"

namespace padnd::cli {
namespace {

using Shape = std::vector<std::int64_t>;
using Cell = std::function<std::string(const Tensor&, std::int64_t)>;

constexpr std::string_view kBold = "\x1b[1;36m";
constexpr std::string_view kDim = "\x1b[2m";
constexpr std::string_view kReset = "\x1b[0m";

template <class T>
Tensor make_tensor(DType dtype, Shape shape, const std::vector<T>& values) {
  Tensor t(dtype, std::move(shape));
  std::memcpy(t.data(), values.data(), values.size() * sizeof(T));
  return t;
}

template <class T>
std::string cell_text(const Tensor& t, std::int64_t i) {
  T v;
  std::memcpy(&v, static_cast<const char*>(t.data()) + i * static_cast<std::int64_t>(sizeof(T)),
              sizeof(T));
  if constexpr (std::is_same_v<T, char>) {
    return std::string(1, v);
  } else {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
    return buf;
  }
}

std::vector<std::int32_t> iota_values(int n) {
  std::vector<std::int32_t> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i + 1;
  return v;
}

std::string int32_bytes(std::int32_t v) {
  std::string s(sizeof v, '\0');
  std::memcpy(s.data(), &v, sizeof v);
  return s;
}

std::string list_text(const Shape& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

/// A padded result together with what is needed to find the input block in it.
struct Result {
  Tensor out;
  Shape in_shape;
  PadSpec spec;
};

Result run(const Tensor& in, const PadSpec& spec) {
  return {pad(in.view(), spec), in.shape(), spec};
}

/// Pads nothing: shows an input with the same drawing as the outputs.
PadSpec no_pads(std::size_t rank) {
  PadSpec spec;
  spec.axes.resize(rank);
  return spec;
}

/// Output positions along one axis that hold an input element (not pad, not interior).
std::vector<bool> input_positions(std::int64_t out_len, std::int64_t in_len, const AxisPad& p) {
  const std::int64_t step = p.interior + 1;
  const std::int64_t dilated = in_len == 0 ? 0 : (in_len - 1) * step + 1;
  std::vector<bool> marks(static_cast<std::size_t>(out_len));
  for (std::int64_t o = 0; o < out_len; ++o) {
    const std::int64_t j = o - p.begin;
    marks[static_cast<std::size_t>(o)] = j >= 0 && j < dilated && j % step == 0;
  }
  return marks;
}

/// Text with its width on screen (escape codes take no columns).
struct Styled {
  std::string text;
  std::size_t columns = 0;
  void add(std::string_view s, std::size_t cols) {
    text += s;
    columns += cols;
  }
  void add_plain(std::string_view s) { add(s, s.size()); }
};

class Painter {
 public:
  explicit Painter(bool color) : color_(color) {}

  /// One cell: `[x]` for an input element and ` x ` for a pad cell; bold/dim on a terminal.
  void cell(Styled& line, const std::string& text, std::size_t width, bool input) const {
    const std::string padded = std::string(width - std::min(width, text.size()), ' ') + text;
    if (color_) {
      line.add(input ? kBold : kDim, 0);
      line.add(" " + padded + " ", width + 2);
      line.add(kReset, 0);
    } else {
      line.add_plain((input ? "[" : " ") + padded + (input ? "]" : " "));
    }
  }

  /// A rank-1 or rank-2 result as rows of cells, under a title.
  std::vector<Styled> grid(const std::string& title, const Result& r, const Cell& text) const {
    const Shape& shape = r.out.shape();
    const bool two_d = shape.size() == 2;
    const std::int64_t rows = two_d ? shape[0] : 1;
    const std::int64_t cols = shape.back();
    const auto col_marks = input_positions(cols, r.in_shape.back(), r.spec.axes.back());
    const auto row_marks =
        two_d ? input_positions(rows, r.in_shape[0], r.spec.axes[0]) : std::vector<bool>{true};
    std::size_t width = 1;
    for (std::int64_t i = 0; i < r.out.size(); ++i) width = std::max(width, text(r.out, i).size());
    std::vector<Styled> lines(1);
    lines[0].add_plain(title);
    for (std::int64_t y = 0; y < rows; ++y) {
      Styled line;
      for (std::int64_t x = 0; x < cols; ++x) {
        const bool input =
            row_marks[static_cast<std::size_t>(y)] && col_marks[static_cast<std::size_t>(x)];
        cell(line, text(r.out, y * cols + x), width, input);
      }
      lines.push_back(line);
    }
    return lines;
  }

  /// A rank-1 result of one-character cells as `vvv|abcd|vvv`, bars around the input block.
  Styled strip(const std::string& label, const Result& r, const Cell& text) const {
    const AxisPad& p = r.spec.axes[0];
    const std::int64_t n = r.out.size();
    const std::int64_t block_end = p.begin + r.in_shape[0];
    Styled line;
    line.add_plain("  " + label + std::string(14 - std::min<std::size_t>(14, label.size()), ' '));
    for (std::int64_t o = 0; o < n; ++o) {
      if ((o == p.begin && o > 0) || (o == block_end && o > 0)) line.add_plain("|");
      const bool input = o >= p.begin && o < block_end;
      if (color_) line.add(input ? kBold : kDim, 0);
      line.add_plain(text(r.out, o));
      if (color_) line.add(kReset, 0);
    }
    if (block_end == n && n > 0) line.add_plain("|");
    return line;
  }

 private:
  bool color_;
};

/// Prints panels side by side, top-aligned.
void print_side_by_side(std::ostream& os, const std::vector<std::vector<Styled>>& panels) {
  std::size_t height = 0;
  std::vector<std::size_t> widths;
  for (const auto& p : panels) {
    height = std::max(height, p.size());
    std::size_t w = 0;
    for (const Styled& s : p) w = std::max(w, s.columns);
    widths.push_back(w);
  }
  for (std::size_t y = 0; y < height; ++y) {
    std::string line = "  ";
    for (std::size_t k = 0; k < panels.size(); ++k) {
      const Styled empty;
      const Styled& s = y < panels[k].size() ? panels[k][y] : empty;
      line += s.text;
      if (k + 1 < panels.size()) line += std::string(widths[k] - s.columns + 4, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    os << line << '\n';
  }
}

void onnx_examples(std::ostream& os, const Painter& paint) {
  const Tensor data =
      make_tensor<float>(DType::float32, {3, 2}, {1.0F, 1.2F, 2.3F, 3.4F, 4.5F, 5.7F});
  const Cell text = cell_text<float>;
  std::vector<std::vector<Styled>> panels;
  panels.push_back(paint.grid("input (3, 2)", run(data, no_pads(2)), text));
  const std::pair<const char*, Shape> cases[] = {{"constant", {0, 2, 0, 0}},
                                                 {"reflect", {0, 2, 0, 0}},
                                                 {"edge", {0, 2, 0, 0}},
                                                 {"wrap", {2, 1, 1, 1}}};
  for (const auto& [mode, pads] : cases) {
    onnx::PadNode node;
    node.mode = mode;
    node.pads = IntTensor::vector(pads);
    const Result r = run(data, onnx::to_canonical(node, DType::float32, data.shape()));
    panels.push_back(paint.grid(std::string(mode) + " pads=" + list_text(pads), r, text));
  }
  os << "ONNX Pad-" << onnx::kLatestOpset
     << " doc examples: float32 3x2, pads = all begins then all ends\n";
  print_side_by_side(os, {panels[0], panels[1], panels[2]});
  print_side_by_side(os, {panels[3], panels[4]});
}

void openvino_examples(std::ostream& os, const Painter& paint) {
  const Tensor data = make_tensor(DType::int32, {3, 4}, iota_values(12));
  std::vector<std::vector<Styled>> panels;
  for (const char* mode : {"constant", "edge", "reflect", "symmetric"}) {
    openvino::PadOp op;
    op.version = 1;
    op.pad_mode = mode;
    op.pads_begin = IntTensor::vector({0, 1});
    op.pads_end = IntTensor::vector({2, 3});
    const Result r = run(data, openvino::to_canonical(op, DType::int32, data.shape()));
    panels.push_back(paint.grid(mode, r, cell_text<std::int32_t>));
  }
  os << "\nOpenVINO Pad-1 spec example: int32 3x4 = 1..12, pads_begin [0,1], pads_end [2,3]\n";
  print_side_by_side(os, {panels[0], panels[1]});
  print_side_by_side(os, {panels[2], panels[3]});
}

void ngraph_example(std::ostream& os, const Painter& paint) {
  const Tensor data = make_tensor(DType::int32, {3, 3}, iota_values(9));
  ngraph::PadV0 op;
  op.arg_pad_value = ValueTensor::scalar(DType::int32, int32_bytes(42));
  op.padding_below = {1, 2};
  op.padding_above = {1, 0};
  op.padding_interior = Shape{1, 2};
  const Result r = run(data, ngraph::to_canonical(op, DType::int32, data.shape()));
  os << "\nnGraph Pad v0 doc example: 3x3, below (1,2), above (1,0), interior (1,2), value 42\n";
  print_side_by_side(os,
                     {paint.grid("input (3, 3)", run(data, no_pads(2)), cell_text<std::int32_t>),
                      paint.grid("output (7, 9)", r, cell_text<std::int32_t>)});
}

void crop_examples(std::ostream& os, const Painter& paint) {
  const Tensor data = make_tensor(DType::int32, {3, 4}, iota_values(12));
  std::vector<std::vector<Styled>> panels;
  for (const char* mode : {"constant", "reflect"}) {
    openvino::PadOp op;
    op.pad_mode = mode;
    op.pads_begin = IntTensor::vector({2, -1});
    op.pads_end = IntTensor::vector({-1, 3});
    const Result r = run(data, openvino::to_canonical(op, DType::int32, data.shape()));
    panels.push_back(paint.grid(std::string("openvino:12 ") + mode, r, cell_text<std::int32_t>));
  }
  onnx::PadNode crop;
  crop.pads = IntTensor::vector({-1, 1, 0, -2});
  panels.push_back(paint.grid("onnx [-1,1,0,-2]",
                              run(data, onnx::to_canonical(crop, DType::int32, data.shape())),
                              cell_text<std::int32_t>));
  os << "\nCrops (negative pads) on int32 3x4 = 1..12; OpenVINO: begin [2,-1], end [-1,3]\n";
  print_side_by_side(os, panels);

  // ONNX crops before extending; OpenVINO maps every position onto the uncropped input.
  const Tensor row = make_tensor<char>(DType::uint8, {6}, {'1', '2', '3', '4', '5', '6'});
  onnx::PadNode node;
  node.mode = "reflect";
  node.pads = IntTensor::vector({-4, 3});
  openvino::PadOp op;
  op.pad_mode = "reflect";
  op.pads_begin = IntTensor::vector({-4});
  op.pads_end = IntTensor::vector({3});
  os << "  123456 with begin -4, end +3, reflect: ONNX crops first, OpenVINO maps on the input\n"
     << paint
            .strip("onnx:25", run(row, onnx::to_canonical(node, DType::uint8, {6})),
                   cell_text<char>)
            .text
     << '\n'
     << paint
            .strip("openvino:12", run(row, openvino::to_canonical(op, DType::uint8, {6})),
                   cell_text<char>)
            .text
     << '\n';
}

void mode_strips(std::ostream& os, const Painter& paint) {
  const Tensor abcd = make_tensor<char>(DType::uint8, {4}, {'a', 'b', 'c', 'd'});
  os << "\nThe five modes on abcd, 3 each side (numpy spec, constant value 'v')\n";
  for (const char* mode : {"constant", "edge", "reflect", "symmetric", "wrap"}) {
    const PadSpec spec = numpy::to_canonical({{3, 3}}, mode, "v", abcd.shape());
    os << paint.strip(mode, run(abcd, spec), cell_text<char>).text << '\n';
  }
}

}  // namespace

void run_demo(std::ostream& out, bool color) {
  const Painter paint(color);
  out << "padnd demo: every output below is computed by the library through its spec adapters.\n"
      << (color ? "Input cells are bold, pad cells dim.\n"
                : "Input cells are [bracketed]; everything else was added by padding.\n")
      << '\n';
  onnx_examples(out, paint);
  openvino_examples(out, paint);
  ngraph_example(out, paint);
  crop_examples(out, paint);
  mode_strips(out, paint);
}

}  // namespace padnd::cli
