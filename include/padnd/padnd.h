/* SPDX-License-Identifier: Apache-2.0 */
/* padnd's C ABI (C11): plans from the canonical description or from each spec's arguments,
 * shape inference without data, and execution of a whole output or any window of it into a
 * caller's buffer. No C++ type crosses it and no exception escapes it: every function returns a
 * padnd_status, and on failure padnd_last_error() says which argument, axis and values were
 * wrong (docs/c-api.md). */
#ifndef PADND_PADND_H
#define PADND_PADND_H

#include <stddef.h>
#include <stdint.h>

#include "padnd/export.h"
#include "padnd/version.h" /* PADND_VERSION_MAJOR, _MINOR, _PATCH, _STRING */

#ifdef __cplusplus
extern "C" {
#endif
PADND_PUBLIC_BEGIN

/** The ABI's version: raised when a declaration here changes incompatibly. */
#define PADND_C_ABI_VERSION 1

/** What a call returns. Every value but PADND_OK leaves a message in padnd_last_error(). */
typedef enum padnd_status {
  PADND_OK = 0,
  PADND_INVALID_ARGUMENT = 1, /**< a value outside what the spec allows; a null pointer */
  PADND_UNSUPPORTED_TYPE = 2, /**< an element type the spec or version does not allow */
  PADND_SHAPE_MISMATCH = 3,   /**< lengths or ranks that do not agree; a small buffer */
  PADND_OUT_OF_RANGE = 4,     /**< a pad, index or window outside its allowed range */
  PADND_OVERFLOW = 5,         /**< a size that does not fit in int64 */
  PADND_OUT_OF_MEMORY = 6,    /**< an allocation failed; the message names its bytes */
  PADND_INTERNAL = 7          /**< a failure padnd did not expect (a bug: please report it) */
} padnd_status;

/** Element types, numbered as padnd::DType (padnd/element_type.hpp). */
typedef enum padnd_dtype {
  PADND_BOOL = 0,
  PADND_INT8,
  PADND_INT16,
  PADND_INT32,
  PADND_INT64,
  PADND_UINT8,
  PADND_UINT16,
  PADND_UINT32,
  PADND_UINT64,
  PADND_FLOAT16,
  PADND_BFLOAT16,
  PADND_FLOAT32,
  PADND_FLOAT64,
  PADND_COMPLEX64,
  PADND_COMPLEX128,
  PADND_STRING, /**< elements are padnd_string (see there) */
  PADND_FLOAT8E4M3FN,
  PADND_FLOAT8E4M3FNUZ,
  PADND_FLOAT8E5M2,
  PADND_FLOAT8E5M2FNUZ,
  PADND_FLOAT8E8M0,
  PADND_INT4,
  PADND_UINT4,
  PADND_FLOAT4E2M1, /**< packed two per byte, low nibble first */
  PADND_INT2,
  PADND_UINT2, /**< packed four per byte, lowest bits first */
  PADND_DATETIME64,
  PADND_TIMEDELTA64,
  PADND_LONGDOUBLE,
  PADND_CLONGDOUBLE,
  PADND_OPAQUE /**< any fixed number of bytes: padnd_type.opaque_bytes */
} padnd_dtype;

/** A PADND_STRING element: `length` bytes at `data` (any bytes, no terminator needed; NULL
 * only when `length` is 0). A string tensor's data is an array of padnd_string (its byte
 * strides multiples of sizeof(padnd_string)), and so is its output: padding copies elements and
 * computes on no string, so an output element is a copy of an input element, pointing at the
 * input's own bytes, or the pad value, pointing at the plan's copy of its text (the empty
 * string is {NULL, 0}). An output's strings are therefore valid while the input's strings and
 * the plan live. A string pad value (`spec.value`, `constant_value`, `pad_value`, each of
 * `constant_values`) is given as one padnd_string, its byte count sizeof(padnd_string) (or 0:
 * the empty string); the plan copies its text, so the caller's may change after planning. */
typedef struct padnd_string {
  const char* data;
  int64_t length;
} padnd_string;

/** An element type: a padnd_dtype, and for PADND_OPAQUE its size in bytes. */
typedef struct padnd_type {
  int32_t dtype;        /**< a padnd_dtype */
  int64_t opaque_bytes; /**< PADND_OPAQUE only; 0 otherwise */
} padnd_type;

/** How positions outside the input get their value (padnd::Mode; docs/spec.md §2.4). */
typedef enum padnd_mode {
  PADND_CONSTANT = 0,
  PADND_EDGE,
  PADND_REFLECT,
  PADND_SYMMETRIC,
  PADND_WRAP
} padnd_mode;

/** Negative pads in non-constant modes (docs/spec.md §2.5). */
typedef enum padnd_negative_order {
  PADND_MAP_ON_ORIGINAL = 0, /**< OpenVINO, nGraph */
  PADND_CROP_THEN_PAD = 1    /**< ONNX */
} padnd_negative_order;

/** An axis whose output length would be negative. */
typedef enum padnd_negative_size {
  PADND_NEGATIVE_SIZE_ERROR = 0,
  PADND_NEGATIVE_SIZE_CLAMP_TO_ZERO = 1
} padnd_negative_size;

/** The canonical pad request (docs/spec.md §2.1), one entry per input axis in each array. */
typedef struct padnd_pad_spec {
  int32_t rank;
  const int64_t* begin;    /**< elements before each axis (negative: crop) */
  const int64_t* end;      /**< elements after each axis (negative: crop) */
  const int64_t* interior; /**< elements between neighbours (constant mode); NULL: none */
  int32_t mode;            /**< a padnd_mode */
  const void* value;       /**< one element's bytes (packed types: one byte, the code;
                                strings: one padnd_string); NULL: zero bits, "" */
  int64_t value_bytes;
  int32_t negative_order; /**< a padnd_negative_order */
  int32_t negative_size;  /**< a padnd_negative_size */
} padnd_pad_spec;

/** A tensor as DLPack describes one on the CPU, with strides in bytes: `data` points at
 * element [0, ..., 0]; `byte_strides` NULL means C-contiguous. */
typedef struct padnd_tensor {
  const void* data;
  padnd_type type;
  int32_t rank;
  const int64_t* shape;
  const int64_t* byte_strides;
} padnd_tensor;

/** ONNX Pad's inputs and attributes for one node, opsets 1 to 28 (docs/spec.md §4). A NULL
 * array with a count of 0 means the input or attribute is absent; a negative count is an
 * error. */
typedef struct padnd_onnx_pad {
  int32_t opset;
  int32_t input_count; /**< the node's inputs, data included */
  const char* mode;    /**< NULL: "constant" */
  const int64_t* pads; /**< Pad-1 `paddings`, Pad-2 `pads` attribute, Pad-11+ `pads` input */
  int64_t pads_count;
  const void* constant_value; /**< Pad-11+: one element of the data's type (bytes; strings:
                                   one padnd_string) */
  int64_t constant_value_bytes;
  const float* value;  /**< Pad-1/2: the FLOAT attribute `value` */
  const int64_t* axes; /**< Pad-18+: the `axes` input (int64) */
  int64_t axes_count;
} padnd_onnx_pad;

/** OpenVINO Pad-1 / Pad-12 (docs/spec.md §5): `version` 1 or 12. */
typedef struct padnd_openvino_pad {
  int32_t version;
  const char* pad_mode; /**< constant | edge | reflect | symmetric (any case) */
  const int64_t* pads_begin;
  int64_t pads_begin_count;
  const int64_t* pads_end;
  int64_t pads_end_count;
  const void* pad_value; /**< one element of the data's type; NULL: absent */
  int64_t pad_value_bytes;
  int32_t allow_negative_pads_v1; /**< Pad-1: accept negative pads (a runtime's choice) */
} padnd_openvino_pad;

/** nGraph Pad v0 (with interior padding) and v1 (docs/spec.md §6): `version` 0 or 1. */
typedef struct padnd_ngraph_pad {
  int32_t version;
  const char* pad_mode;      /**< CONSTANT | EDGE | REFLECT | SYMMETRIC (any case) */
  const int64_t* pads_begin; /**< v0 padding_below, v1 pads_begin */
  int64_t pads_begin_count;
  const int64_t* pads_end; /**< v0 padding_above, v1 pads_end */
  int64_t pads_end_count;
  const int64_t* interior; /**< v0 padding_interior; NULL: absent */
  int64_t interior_count;
  const void* pad_value; /**< one element of the data's type; v1: NULL is absent */
  int64_t pad_value_bytes;
} padnd_ngraph_pad;

/** numpy.pad's arguments after numpy's broadcasting: one entry per axis (or count 0 for "not
 * given"), as docs/spec.md §7 describes them. Pairs are (before, after). */
typedef struct padnd_numpy_pad {
  const int64_t* pad_width; /**< 2 * pad_width_pairs values */
  int64_t pad_width_pairs;
  const char* const* modes; /**< one mode for every axis, or one per axis */
  int64_t mode_count;
  const void* constant_values; /**< 2 * constant_values_pairs elements of the data's type */
  int64_t constant_values_pairs;
  const void* end_values; /**< 2 * end_values_pairs elements of `ramp_type` */
  int64_t end_values_pairs;
  padnd_type ramp_type;       /**< np.linspace's type for linear_ramp (dtype 0: float64) */
  const int64_t* stat_length; /**< 2 * stat_length_pairs values; -1: the whole axis */
  int64_t stat_length_pairs;
  const char* reflect_type; /**< NULL or "even"; "odd" */
  int32_t negative;         /**< -1: negative widths are errors; else a padnd_negative_order */
  const int64_t* interior;  /**< padnd's extension; NULL: none */
  int64_t interior_count;
} padnd_numpy_pad;

/** A host's parallel-for (an engine's own pool): calls task(task_context, t) once for every t
 * in [0, task_count), on any threads, and returns when all have returned. Tasks never throw. */
typedef void (*padnd_c_task_fn)(void* task_context, int64_t task);
typedef void (*padnd_c_parallel_for_fn)(void* pool, int64_t task_count, padnd_c_task_fn task,
                                        void* task_context);

/** How execution may use threads (padnd::ExecOptions). NULL options: the defaults. */
typedef struct padnd_exec_options {
  int32_t threads;                      /**< 0: one per core; 1: the calling thread only */
  padnd_c_parallel_for_fn parallel_for; /**< NULL: padnd's own pool */
  void* pool;                           /**< passed unchanged to parallel_for */
} padnd_exec_options;

/** A validated, immutable, reusable plan. Safe to execute from several threads at once. */
typedef struct padnd_plan padnd_plan;

/** The library's version, "MAJOR.MINOR.PATCH": the PADND_VERSION_STRING it was built with
 * (compare with the header's to detect a mismatched shared library). */
const char* padnd_version(void);

/** The message of the calling thread's last failed call (never NULL; "" before any). */
const char* padnd_last_error(void);

/** Plans `spec` for `input` (its data is not read; it may be NULL). On success *plan_out owns
 * a plan to release with padnd_plan_destroy; on failure it is set to NULL. */
padnd_status padnd_plan_create(const padnd_tensor* input, const padnd_pad_spec* spec,
                               padnd_plan** plan_out);

/** The same from ONNX Pad's own arguments: ONNX's validation, then the canonical plan. */
padnd_status padnd_plan_create_onnx(const padnd_tensor* input, const padnd_onnx_pad* node,
                                    padnd_plan** plan_out);

/** The same from OpenVINO Pad-1 / Pad-12's arguments. */
padnd_status padnd_plan_create_openvino(const padnd_tensor* input, const padnd_openvino_pad* op,
                                        padnd_plan** plan_out);

/** The same from nGraph Pad v0 / v1's arguments. */
padnd_status padnd_plan_create_ngraph(const padnd_tensor* input, const padnd_ngraph_pad* op,
                                      padnd_plan** plan_out);

/** The same from numpy.pad's arguments, value modes and their keywords included. */
padnd_status padnd_plan_create_numpy(const padnd_tensor* input, const padnd_numpy_pad* args,
                                     padnd_plan** plan_out);

/** Describes a DLPack tensor (`dltensor` points at a `DLTensor`, DLPack 0.6 or later: pass it
 * directly) as a padnd_tensor: its data (byte_offset added), element type (int, uint, float,
 * bfloat, complex and bool of the widths padnd has, one lane), shape (borrowed from the
 * DLTensor) and strides, converted from elements to bytes into `byte_strides_out` (room for
 * its ndim entries; NULL strides stay NULL, C order). A tensor not in host memory (CUDA,
 * ROCm, ...) is PADND_UNSUPPORTED_TYPE naming its device. */
padnd_status padnd_tensor_from_dlpack(const void* dltensor, padnd_tensor* tensor_out,
                                      int64_t* byte_strides_out, int32_t byte_strides_capacity);

/** Releases a plan (NULL is allowed). */
void padnd_plan_destroy(padnd_plan* plan);

/** The output's rank, shape (`shape_out` holds `shape_capacity` entries; NULL to ask the rank
 * only) and bytes (strings: count * sizeof(padnd_string)). */
padnd_status padnd_plan_output(const padnd_plan* plan, int32_t* rank_out, int64_t* shape_out,
                               int32_t shape_capacity, int64_t* bytes_out);

/** Output shape of `spec` on an input of `rank` lengths `shape`, with every rule checked, no
 * data needed. `shape_out` holds `rank` entries. */
padnd_status padnd_infer_shape(int32_t rank, const int64_t* shape, const padnd_pad_spec* spec,
                               int64_t* shape_out);

/** Writes the whole padded tensor into `out` (dense row-major, `out_bytes` available). `in` is
 * the input's data as planned (strides included). Precondition: the output's bytes do not
 * overlap the bytes the input spans (padnd reads the input while it writes); an overlap that
 * these ranges show, `out == in` included, is refused with PADND_INVALID_ARGUMENT. Nothing is
 * written on failure. */
padnd_status padnd_execute(const padnd_plan* plan, const void* in, void* out, int64_t out_bytes,
                           const padnd_exec_options* options);

/** Writes the window [start[k], start[k] + shape[k]) of the output (rank entries each) into
 * `out`: dense row-major when `out_byte_strides` is NULL (`out_bytes` available; a packed
 * type's window starts at bit 0), else through those strides (out points at window element
 * [0, ..., 0]; `out_bytes` is ignored; strings: multiples of sizeof(padnd_string)). As for
 * padnd_execute, `out` (its `out_bytes` bytes, or the bytes the strided window addresses) must
 * not overlap the input, and a visible overlap is refused. Nothing is written on failure. */
padnd_status padnd_execute_window(const padnd_plan* plan, const void* in, const int64_t* start,
                                  const int64_t* shape, void* out, const int64_t* out_byte_strides,
                                  int64_t out_bytes, const padnd_exec_options* options);

/** padnd_execute on an NVIDIA GPU (docs/gpu.md): `in` and `out` are device (or managed) memory of
 * the current CUDA device, `stream` a cudaStream_t (NULL: the default stream). Returns once the
 * work is queued on the stream; errors of the request are reported before anything is queued.
 * Index modes only: strings and numpy's value modes are refused by name, as is everything in a
 * padnd built without its CUDA executor (PADND_CUDA=OFF). */
padnd_status padnd_cuda_execute(const padnd_plan* plan, const void* in, void* out,
                                int64_t out_bytes, void* stream);

/** padnd_execute_window on an NVIDIA GPU, as padnd_cuda_execute. */
padnd_status padnd_cuda_execute_window(const padnd_plan* plan, const void* in,
                                       const int64_t* start, const int64_t* shape, void* out,
                                       const int64_t* out_byte_strides, int64_t out_bytes,
                                       void* stream);

/** 1 if this padnd has its CUDA executor and the process sees a CUDA device, else 0. */
int padnd_cuda_available(void);

/** Windows of one plan's output over one input, with numpy's statistics computed once
 * (padnd::PreparedWindows): holds pointers to the plan and the input, which must outlive it.
 * Its windows may be written from several threads at once. */
typedef struct padnd_prepared padnd_prepared;

/** Computes what every window of `plan` over `in` shares: with numpy's value modes (but
 * linear_ramp), one box of the output holding the input and one position of each statistic's
 * side, at most twice the input; otherwise nothing. `options` apply here and to the windows
 * written from the input. On success *prepared_out owns it, to release with
 * padnd_prepared_destroy; on failure it is set to NULL. */
padnd_status padnd_prepare_windows(const padnd_plan* plan, const void* in,
                                   const padnd_exec_options* options,
                                   padnd_prepared** prepared_out);

/** padnd_execute_window's window of the prepared plan and input: copied from the prepared
 * values, or written from the input where nothing was prepared. `out` must not overlap the
 * input, as for padnd_execute_window. */
padnd_status padnd_prepared_execute_window(const padnd_prepared* prepared, const int64_t* start,
                                           const int64_t* shape, void* out,
                                           const int64_t* out_byte_strides, int64_t out_bytes);

/** The bytes the prepared values take (0: windows are written from the input). */
padnd_status padnd_prepared_bytes(const padnd_prepared* prepared, int64_t* bytes_out);

/** Releases prepared windows (NULL is allowed). */
void padnd_prepared_destroy(padnd_prepared* prepared);

PADND_PUBLIC_END
#ifdef __cplusplus
}
#endif

#endif /* PADND_PADND_H */
