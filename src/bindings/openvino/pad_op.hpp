// SPDX-License-Identifier: Apache-2.0
// padnd's pad as an OpenVINO operation (docs/runtimes.md): the canonical description (docs/
// spec.md §2) as its attributes, so any spec's adapter lowers onto it, run by padnd's planner and
// CPU executor. Inputs: data, and optionally the pad value (a scalar of data's type; absent: 0).
#pragma once

#include <cstdint>
#include <memory>
#include <openvino/op/op.hpp>
#include <string>
#include <vector>

#include "padnd/pad_spec.hpp"

namespace padnd::openvino_extension {

class PadndPad : public ov::op::Op {
 public:
  OPENVINO_OP("PadndPad", "padnd");

  PadndPad() = default;
  /// `args`: data, and optionally the pad value. `spec` must hold one entry per data axis; its
  /// value bytes are not read (the value is the second input).
  PadndPad(const ov::OutputVector& args, const PadSpec& spec);

  void validate_and_infer_types() override;
  std::shared_ptr<ov::Node> clone_with_new_inputs(const ov::OutputVector& args) const override;
  bool visit_attributes(ov::AttributeVisitor& visitor) override;
  bool evaluate(ov::TensorVector& outputs, const ov::TensorVector& inputs) const override;
  bool has_evaluate() const override;

  /// The canonical description, with `value` (an element of the data's type) as its pad value.
  PadSpec spec(std::string value) const;

 private:
  std::vector<std::int64_t> pads_begin_;
  std::vector<std::int64_t> pads_end_;
  std::vector<std::int64_t> interior_;
  std::vector<std::string> modes_;  ///< one per axis (mode_name's names)
  std::string negative_order_ = "crop_then_pad";
  std::string negative_size_ = "error";
};

}  // namespace padnd::openvino_extension
