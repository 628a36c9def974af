// SPDX-License-Identifier: Apache-2.0
// padnd: N-dimensional tensor padding for every published Pad spec. Umbrella header.
#pragma once

#include "padnd/adapters/ngraph.hpp"
#include "padnd/adapters/numpy.hpp"
#include "padnd/adapters/onnx.hpp"
#include "padnd/adapters/openvino.hpp"
#include "padnd/cuda.hpp"
#include "padnd/element_type.hpp"
#include "padnd/error.hpp"
#include "padnd/pad_spec.hpp"
#include "padnd/parallel.hpp"
#include "padnd/plan.hpp"
#include "padnd/prepared_windows.hpp"
#include "padnd/tensor.hpp"
#include "padnd/version.h"
