/* SPDX-License-Identifier: Apache-2.0 */
/* padnd's C ABI from plain C11 (built with -std=c11 -Wall -Wextra -pedantic -Werror): every
 * entry point of padnd.h, successes checked against hand-computed outputs, and every status a
 * caller can provoke, each with a message naming the argument, *plan_out set to NULL and not
 * one output byte written (outputs are filled with a sentinel pattern first). Exits non-zero
 * on any failed check. */
#include <padnd/padnd.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
static int checks = 0;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    ++checks;                                                                                      \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: CHECK(%s) failed (last error: \"%s\")\n", __FILE__, __LINE__, #cond, \
              padnd_last_error());                                                                 \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

/* A failed call: its status, a message that names `text`. */
#define EXPECT_ERROR(call, status, text) expect_error((call), (status), (text), __LINE__)

static void expect_error(padnd_status got, padnd_status want, const char* text, int line) {
  const char* message = padnd_last_error();
  ++checks;
  if (got != want || message == NULL || message[0] == '\0' || strstr(message, text) == NULL) {
    fprintf(stderr, "%s:%d: expected status %d naming \"%s\", got %d: \"%s\"\n", __FILE__, line,
            (int)want, text, (int)got, message == NULL ? "(null)" : message);
    ++failures;
  }
}

#define SENTINEL 0xA5

static void fill(void* p, size_t n) { memset(p, SENTINEL, n); }

/* Whether none of the n bytes at p changed since fill(). */
static int untouched(const void* p, size_t n) {
  const unsigned char* b = (const unsigned char*)p;
  size_t i;
  for (i = 0; i < n; ++i) {
    if (b[i] != SENTINEL) return 0;
  }
  return 1;
}

/* A plan pointer that is not NULL: a failed padnd_plan_create* must reset it. */
static padnd_plan* not_null(void) { return (padnd_plan*)&failures; }

static padnd_pad_spec spec_1d(const int64_t* begin, const int64_t* end, int32_t mode) {
  padnd_pad_spec s;
  memset(&s, 0, sizeof s);
  s.rank = 1;
  s.begin = begin;
  s.end = end;
  s.mode = mode;
  s.negative_order = PADND_MAP_ON_ORIGINAL;
  s.negative_size = PADND_NEGATIVE_SIZE_ERROR;
  return s;
}

/* ---- Version and the first message ------------------------------------------------------ */

static void test_version(void) {
  CHECK(padnd_last_error() != NULL && padnd_last_error()[0] == '\0'); /* nothing failed yet */
  CHECK(padnd_version() != NULL && strcmp(padnd_version(), PADND_VERSION_STRING) == 0);
  CHECK(PADND_C_ABI_VERSION == 1);
  CHECK(sizeof(padnd_string) == sizeof(const char*) + sizeof(int64_t));
}

/* ---- Successes, checked against hand-computed outputs ----------------------------------- */

typedef struct index_case {
  const char* name;
  int32_t mode;
  int64_t begin, end, interior;
  int has_value;
  int32_t want[8];
  int64_t want_len;
} index_case;

/* One case on the int32 input {1, 2, 3, 4, 5} (crop) or {1, 2, 3} (the rest). */
static void run_index_case(const index_case* c) {
  const int32_t data[5] = {1, 2, 3, 4, 5};
  const int64_t shape[1] = {c->begin < 0 ? 5 : 3};
  const padnd_tensor input = {data, {PADND_INT32, 0}, 1, shape, NULL};
  const int32_t nine = 9;
  padnd_pad_spec spec = spec_1d(&c->begin, &c->end, c->mode);
  padnd_plan* plan = not_null();
  int32_t out[10];
  int64_t bytes = 0;
  spec.interior = c->interior != 0 ? &c->interior : NULL;
  spec.value = c->has_value ? &nine : NULL;
  spec.value_bytes = c->has_value ? (int64_t)sizeof nine : 0;
  if (padnd_plan_create(&input, &spec, &plan) != PADND_OK) {
    fprintf(stderr, "%s: planning failed: %s\n", c->name, padnd_last_error());
    ++failures;
    return;
  }
  CHECK(padnd_plan_output(plan, NULL, NULL, 0, &bytes) == PADND_OK);
  CHECK(bytes == c->want_len * 4);
  fill(out, sizeof out);
  CHECK(padnd_execute(plan, data, out, (int64_t)sizeof out, NULL) == PADND_OK);
  if (memcmp(out, c->want, (size_t)bytes) != 0 || !untouched(out + c->want_len, 40 - bytes)) {
    fprintf(stderr, "%s:%d: %s: wrong output\n", __FILE__, __LINE__, c->name);
    ++failures;
  }
  padnd_plan_destroy(plan);
}

static void test_index_modes(void) {
  static const index_case cases[] = {
      {"reflect", PADND_REFLECT, 2, 2, 0, 0, {3, 2, 1, 2, 3, 2, 1}, 7},
      {"edge", PADND_EDGE, 2, 1, 0, 0, {1, 1, 1, 2, 3, 3}, 6},
      {"wrap", PADND_WRAP, 2, 2, 0, 0, {2, 3, 1, 2, 3, 1, 2}, 7},
      {"symmetric", PADND_SYMMETRIC, 2, 2, 0, 0, {2, 1, 1, 2, 3, 3, 2}, 7},
      {"constant 9", PADND_CONSTANT, 1, 2, 0, 1, {9, 1, 2, 3, 9, 9}, 6},
      {"constant 0", PADND_CONSTANT, 1, 0, 0, 0, {0, 1, 2, 3}, 4},
      {"interior", PADND_CONSTANT, 1, 1, 1, 1, {9, 1, 9, 2, 9, 3, 9}, 7},
      {"crop", PADND_EDGE, -1, -2, 0, 0, {2, 3}, 2},
  };
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) run_index_case(&cases[i]);
}

/* A host parallel-for that runs the tasks in order on the calling thread. */
static void serial_for(void* pool, int64_t task_count, padnd_c_task_fn task, void* context) {
  int64_t t;
  *(int64_t*)pool += task_count;
  for (t = 0; t < task_count; ++t) task(context, t);
}

/* A 512x512 image edge-padded by 64 on the host's own parallel-for: every task run once. */
static void test_host_parallel_for(void) {
  static float image[512 * 512], out[640 * 640];
  const int64_t shape[2] = {512, 512}, pad[2] = {64, 64};
  const padnd_tensor input = {image, {PADND_FLOAT32, 0}, 2, shape, NULL};
  padnd_pad_spec spec = spec_1d(pad, pad, PADND_EDGE);
  int64_t pool = 0;
  const padnd_exec_options host = {4, serial_for, &pool};
  padnd_plan* plan = NULL;
  size_t i, ones = 0;
  for (i = 0; i < 512 * 512; ++i) image[i] = 1.0f;
  spec.rank = 2;
  CHECK(padnd_plan_create(&input, &spec, &plan) == PADND_OK);
  CHECK(padnd_execute(plan, image, out, (int64_t)sizeof out, &host) == PADND_OK);
  for (i = 0; i < 640 * 640; ++i) ones += out[i] == 1.0f;
  CHECK(pool > 1 && ones == 640 * 640);
  padnd_plan_destroy(plan);
}

/* A 3x4 image reflect-padded by one pixel (5x6): the whole output, its shape, a dense window and
 * a strided window into a larger buffer (whose gaps keep the sentinel). */
static void test_windows(void) {
  const float image[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const int64_t shape[2] = {3, 4}, pad[2] = {1, 1};
  const padnd_tensor input = {image, {PADND_FLOAT32, 0}, 2, shape, NULL};
  padnd_pad_spec spec = spec_1d(pad, pad, PADND_REFLECT);
  const float row0[6] = {5, 4, 5, 6, 7, 6}, tile[4] = {9, 8, 9, 10}; /* rows 0 and 3 */
  const int64_t start[2] = {3, 0}, len[2] = {1, 4}, strides[2] = {32, 8};
  int64_t out_shape[2] = {0, 0}, bytes = 0;
  const padnd_exec_options serial = {1, NULL, NULL};
  int32_t rank = 0;
  padnd_plan* plan = NULL;
  float out[30], window[4], spaced[8];
  spec.rank = 2;
  CHECK(padnd_plan_create(&input, &spec, &plan) == PADND_OK);
  CHECK(padnd_plan_output(plan, &rank, out_shape, 2, &bytes) == PADND_OK);
  CHECK(rank == 2 && out_shape[0] == 5 && out_shape[1] == 6 && bytes == (int64_t)sizeof out);
  CHECK(padnd_execute(plan, image, out, (int64_t)sizeof out, &serial) == PADND_OK);
  CHECK(memcmp(out, row0, sizeof row0) == 0 && out[29] == 6);
  fill(window, sizeof window);
  CHECK(padnd_execute_window(plan, image, start, len, window, NULL, 16, NULL) == PADND_OK);
  CHECK(memcmp(window, tile, sizeof tile) == 0);
  fill(spaced, sizeof spaced);
  CHECK(padnd_execute_window(plan, image, start, len, spaced, strides, 0, NULL) == PADND_OK);
  CHECK(spaced[0] == 9 && spaced[2] == 8 && spaced[4] == 9 && spaced[6] == 10);
  CHECK(untouched(&spaced[1], 4) && untouched(&spaced[3], 4) && untouched(&spaced[5], 4) &&
        untouched(&spaced[7], 4));
  padnd_plan_destroy(plan);
}

static void test_infer_shape(void) {
  const int64_t shape[3] = {2, 0, 5}, begin[3] = {1, 2, -1}, end[3] = {0, 0, 3};
  padnd_pad_spec spec = spec_1d(begin, end, PADND_CONSTANT);
  int64_t out[3];
  spec.rank = 3;
  CHECK(padnd_infer_shape(3, shape, &spec, out) == PADND_OK);
  CHECK(out[0] == 3 && out[1] == 2 && out[2] == 7);
  spec.rank = 0; /* a scalar: no lengths, no shape_out needed */
  CHECK(padnd_infer_shape(0, NULL, &spec, NULL) == PADND_OK);
}

/* ONNX Pad-18 with axes, OpenVINO Pad-12 symmetric, nGraph v1 edge, numpy linear_ramp. */
static void expect_output(padnd_status planned, padnd_plan* plan, const float* in,
                          const float* want, size_t count, int line) {
  float out[16];
  ++checks;
  fill(out, sizeof out);
  if (planned != PADND_OK || plan == NULL ||
      padnd_execute(plan, in, out, (int64_t)(count * sizeof(float)), NULL) != PADND_OK ||
      memcmp(out, want, count * sizeof(float)) != 0 || !untouched(out + count, 64 - 4 * count)) {
    fprintf(stderr, "%s:%d: wrong output (%s)\n", __FILE__, line, padnd_last_error());
    ++failures;
  }
  padnd_plan_destroy(plan);
}

static void test_spec_adapters(void) {
  const float data[3] = {1, 2, 3}, seven = 7;
  const int64_t shape[1] = {3}, pads[2] = {2, 1}, axes[1] = {0}, two[1] = {2}, one[1] = {1};
  const padnd_tensor input = {data, {PADND_FLOAT32, 0}, 1, shape, NULL};
  const padnd_onnx_pad onnx = {18, 4, "constant", pads, 2, &seven, 4, NULL, axes, 1};
  const padnd_openvino_pad ov = {12, "SYMMETRIC", two, 1, one, 1, NULL, 0, 0};
  const padnd_ngraph_pad ng = {1, "edge", one, 1, two, 1, NULL, 0, NULL, 0};
  const float want_onnx[6] = {7, 7, 1, 2, 3, 7}, want_ov[6] = {2, 1, 1, 2, 3, 3};
  const float want_ng[6] = {1, 1, 2, 3, 3, 3}, want_np[5] = {5, 3, 1, 2, 3};
  const int64_t widths[2] = {2, 0};
  const char* const ramp[1] = {"linear_ramp"};
  const double five[2] = {5, 0};
  padnd_numpy_pad np;
  padnd_plan* plan = NULL;
  padnd_status status = padnd_plan_create_onnx(&input, &onnx, &plan);
  expect_output(status, plan, data, want_onnx, 6, __LINE__);
  status = padnd_plan_create_openvino(&input, &ov, &plan);
  expect_output(status, plan, data, want_ov, 6, __LINE__);
  status = padnd_plan_create_ngraph(&input, &ng, &plan);
  expect_output(status, plan, data, want_ng, 6, __LINE__);
  memset(&np, 0, sizeof np);
  np.pad_width = widths;
  np.pad_width_pairs = 1;
  np.modes = ramp;
  np.mode_count = 1;
  np.end_values = five; /* np.linspace(5, 1, 2, endpoint=False) = [5, 3] */
  np.end_values_pairs = 1;
  np.negative = -1;
  status = padnd_plan_create_numpy(&input, &np, &plan);
  expect_output(status, plan, data, want_np, 5, __LINE__);
}

/* A DLTensor, declared here with DLPack's layout (DLPack 0.6+), so that no dlpack.h is needed. */
typedef struct test_dl_device {
  int32_t device_type;
  int32_t device_id;
} test_dl_device;
typedef struct test_dl_dtype {
  uint8_t code, bits;
  uint16_t lanes;
} test_dl_dtype;
typedef struct test_dl_tensor {
  void* data;
  test_dl_device device;
  int32_t ndim;
  test_dl_dtype dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
} test_dl_tensor;

/* A column-major 2x3 float32 DLTensor one element into its buffer, padded through the C ABI. */
static void test_dlpack(void) {
  float buffer[7] = {-1, 1, 4, 2, 5, 3, 6}; /* [[1, 2, 3], [4, 5, 6]] after byte_offset 4 */
  int64_t shape[2] = {2, 3}, strides[2] = {1, 2}, byte_strides[2] = {0, 0};
  const test_dl_tensor dl = {buffer, {1, 0}, 2, {2, 32, 1}, shape, strides, 4};
  const int64_t begin[2] = {0, 1}, end[2] = {0, 0};
  const float want[8] = {1, 1, 2, 3, 4, 4, 5, 6};
  padnd_pad_spec spec = spec_1d(begin, end, PADND_EDGE);
  padnd_tensor t;
  padnd_plan* plan = NULL;
  padnd_status status;
  CHECK(padnd_tensor_from_dlpack(&dl, &t, byte_strides, 2) == PADND_OK);
  CHECK(t.data == (const void*)&buffer[1] && t.type.dtype == PADND_FLOAT32 && t.rank == 2);
  CHECK(t.shape == shape && t.byte_strides == byte_strides);
  CHECK(byte_strides[0] == 4 && byte_strides[1] == 8);
  spec.rank = 2;
  status = padnd_plan_create(&t, &spec, &plan); /* before reading plan: argument order */
  expect_output(status, plan, (const float*)t.data, want, 8, __LINE__);
}

/* Whether p points into the n bytes at `buffer` (compared as integers: they may be unrelated). */
static int points_into(const char* p, const char* buffer, size_t n) {
  return (uintptr_t)p >= (uintptr_t)buffer && (uintptr_t)p < (uintptr_t)buffer + n;
}

static int same_string(padnd_string s, const char* text, int64_t length) {
  return s.length == length && (length == 0 || memcmp(s.data, text, (size_t)length) == 0);
}

/* Strings: constant (the plan's copy of the value), wrap (the input's own strings) and the
 * default value (the empty string, {NULL, 0}). */
static void test_strings(void) {
  static const char text[] = "alphabetagamma";
  const padnd_string in[3] = {{text, 5}, {text + 5, 4}, {text + 9, 5}};
  char caller[4] = {'p', 'a', 'd', '!'};
  const padnd_string value = {caller, 4};
  const int64_t shape[1] = {3}, one[1] = {1}, two[1] = {2};
  const padnd_tensor input = {in, {PADND_STRING, 0}, 1, shape, NULL};
  padnd_pad_spec spec = spec_1d(one, two, PADND_CONSTANT);
  padnd_plan* plan = NULL;
  padnd_string out[6];
  int64_t bytes = 0;
  spec.value = &value;
  spec.value_bytes = sizeof value;
  CHECK(padnd_plan_create(&input, &spec, &plan) == PADND_OK);
  memset(caller, '#', sizeof caller); /* the plan holds its own copy */
  CHECK(padnd_plan_output(plan, NULL, NULL, 0, &bytes) == PADND_OK);
  CHECK(bytes == 6 * (int64_t)sizeof(padnd_string));
  CHECK(padnd_execute(plan, in, out, bytes, NULL) == PADND_OK);
  CHECK(out[1].data == in[0].data && out[2].data == in[1].data && out[3].data == in[2].data);
  CHECK(same_string(out[0], "pad!", 4) && !points_into(out[0].data, caller, sizeof caller));
  CHECK(out[4].data == out[0].data && out[5].data == out[0].data && out[5].length == 4);
  padnd_plan_destroy(plan);
  spec.mode = PADND_WRAP;
  CHECK(padnd_plan_create(&input, &spec, &plan) == PADND_OK);
  CHECK(padnd_execute(plan, in, out, bytes, NULL) == PADND_OK);
  CHECK(out[0].data == in[2].data && out[4].data == in[0].data && out[5].data == in[1].data);
  CHECK(same_string(out[0], "gamma", 5) && same_string(out[5], "beta", 4));
  padnd_plan_destroy(plan);
  spec.mode = PADND_CONSTANT;
  spec.value = NULL;
  spec.value_bytes = 0;
  CHECK(padnd_plan_create(&input, &spec, &plan) == PADND_OK);
  CHECK(padnd_execute(plan, in, out, bytes, NULL) == PADND_OK);
  CHECK(out[0].data == NULL && out[0].length == 0 && out[5].data == NULL);
  padnd_plan_destroy(plan);
}

/* ---- Failures: a status, a message naming the argument, no plan, no byte written -------- */

/* `create` fails with `status` and a message naming `text`, and resets the caller's plan. */
#define EXPECT_NO_PLAN(create, status, text) \
  do {                                       \
    plan = not_null();                       \
    EXPECT_ERROR(create, status, text);      \
    CHECK(plan == NULL);                     \
  } while (0)

static void test_plan_create_null_and_enum_errors(void) {
  const int32_t data[3] = {1, 2, 3};
  const int64_t shape[1] = {3}, one[1] = {1};
  padnd_tensor input = {data, {PADND_INT32, 0}, 1, shape, NULL};
  padnd_pad_spec spec = spec_1d(one, one, PADND_CONSTANT);
  padnd_plan* plan = NULL;
  EXPECT_NO_PLAN(padnd_plan_create(NULL, &spec, &plan), PADND_INVALID_ARGUMENT, "input: null");
  EXPECT_NO_PLAN(padnd_plan_create(&input, NULL, &plan), PADND_INVALID_ARGUMENT, "spec: null");
  EXPECT_ERROR(padnd_plan_create(&input, &spec, NULL), PADND_INVALID_ARGUMENT, "plan_out: null");
  input.shape = NULL;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT, "input.shape");
  input.shape = shape;
  spec.begin = NULL;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT, "spec.begin");
  spec.begin = one;
  spec.end = NULL;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT, "spec.end");
  spec.end = one;
  spec.value_bytes = 4; /* and value NULL */
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
                 "spec.value: null pointer");
  spec.value_bytes = -4;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
                 "spec.value: negative length -4");
  spec.value_bytes = 0;
  spec.mode = 99;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
                 "spec.mode: unknown value 99");
  spec.mode = -1;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT, "spec.mode");
  spec.mode = PADND_CONSTANT;
  spec.negative_order = 5;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
                 "spec.negative_order: unknown value 5");
  spec.negative_order = PADND_CROP_THEN_PAD;
  spec.negative_size = 7;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
                 "spec.negative_size: unknown value 7");
}

static void test_plan_create_value_errors(void) {
  const int32_t data[3] = {1, 2, 3};
  const int64_t shape[1] = {3}, one[1] = {1}, minus[1] = {-1}, crop[1] = {-3};
  const int64_t big[1] = {INT64_MAX}, two_axes[2] = {1, 1};
  padnd_tensor input = {data, {PADND_INT32, 0}, 1, shape, NULL};
  padnd_pad_spec spec = spec_1d(one, one, PADND_CONSTANT);
  const int16_t short_value = 1;
  padnd_plan* plan = NULL;
  input.type.dtype = 77;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_UNSUPPORTED_TYPE,
                 "type: unknown padnd_dtype 77");
  input.type.dtype = -1;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_UNSUPPORTED_TYPE, "type");
  input.type.dtype = PADND_OPAQUE; /* of 0 bytes */
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_UNSUPPORTED_TYPE,
                 "type: opaque element size must be positive, got 0");
  input.type.dtype = PADND_INT32;
  spec.value = &short_value;
  spec.value_bytes = 2;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
                 "value: a int32 pad value has 4 bytes; got 2");
  spec = spec_1d(two_axes, two_axes, PADND_CONSTANT);
  spec.rank = 2;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_SHAPE_MISMATCH,
                 "pads: expected one entry per input axis (1), got 2");
  spec = spec_1d(crop, minus, PADND_CONSTANT);
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_OUT_OF_RANGE, "pads: axis 0");
  spec = spec_1d(one, one, PADND_CONSTANT);
  input.shape = big;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_OVERFLOW, "axis 0");
  spec.rank = -1;
  input.rank = -1;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
                 "input.shape: negative count -1");
}

static void test_onnx_and_openvino_errors(void) {
  const float data[3] = {1, 2, 3};
  const int64_t shape[1] = {3}, pads[2] = {1, 1};
  const padnd_tensor input = {data, {PADND_FLOAT32, 0}, 1, shape, NULL};
  padnd_onnx_pad node = {18, 2, "constant", pads, 2, NULL, 0, NULL, NULL, 0};
  padnd_openvino_pad ov = {12, "constant", pads, 1, pads, 1, NULL, 0, 0};
  padnd_plan* plan = NULL;
  EXPECT_NO_PLAN(padnd_plan_create_onnx(&input, NULL, &plan), PADND_INVALID_ARGUMENT,
                 "node: null pointer");
  EXPECT_ERROR(padnd_plan_create_onnx(&input, &node, NULL), PADND_INVALID_ARGUMENT, "plan_out");
  EXPECT_NO_PLAN(padnd_plan_create_onnx(NULL, &node, &plan), PADND_INVALID_ARGUMENT, "input");
  node.mode = "wrap"; /* from Pad-19 */
  EXPECT_NO_PLAN(padnd_plan_create_onnx(&input, &node, &plan), PADND_INVALID_ARGUMENT,
                 "mode: 'wrap'");
  node.mode = NULL; /* "constant" */
  node.pads = NULL;
  EXPECT_NO_PLAN(padnd_plan_create_onnx(&input, &node, &plan), PADND_INVALID_ARGUMENT,
                 "node.pads: null pointer");
  node.pads = pads;
  node.pads_count = -1;
  EXPECT_NO_PLAN(padnd_plan_create_onnx(&input, &node, &plan), PADND_INVALID_ARGUMENT,
                 "node.pads: negative count -1");
  node.pads_count = 2;
  node.opset = 99;
  EXPECT_NO_PLAN(padnd_plan_create_onnx(&input, &node, &plan), PADND_INVALID_ARGUMENT,
                 "opset: ONNX opset 99 is not supported");
  node.opset = 18;
  node.constant_value = data;
  node.constant_value_bytes = -1;
  EXPECT_NO_PLAN(padnd_plan_create_onnx(&input, &node, &plan), PADND_INVALID_ARGUMENT,
                 "node.constant_value: negative length -1");
  EXPECT_NO_PLAN(padnd_plan_create_openvino(&input, NULL, &plan), PADND_INVALID_ARGUMENT,
                 "op: null pointer");
  EXPECT_ERROR(padnd_plan_create_openvino(&input, &ov, NULL), PADND_INVALID_ARGUMENT, "plan_out");
  EXPECT_NO_PLAN(padnd_plan_create_openvino(NULL, &ov, &plan), PADND_INVALID_ARGUMENT, "input");
  ov.pads_begin = NULL;
  EXPECT_NO_PLAN(padnd_plan_create_openvino(&input, &ov, &plan), PADND_INVALID_ARGUMENT,
                 "op.pads_begin: null pointer");
  ov.pads_begin = pads;
  ov.pad_mode = NULL;
  EXPECT_NO_PLAN(padnd_plan_create_openvino(&input, &ov, &plan), PADND_INVALID_ARGUMENT,
                 "op.pad_mode: null pointer");
  ov.pad_mode = "wrap";
  EXPECT_NO_PLAN(padnd_plan_create_openvino(&input, &ov, &plan), PADND_INVALID_ARGUMENT,
                 "pad_mode: 'wrap'");
  ov.pad_mode = "edge";
  ov.pads_end_count = 2;
  EXPECT_NO_PLAN(padnd_plan_create_openvino(&input, &ov, &plan), PADND_SHAPE_MISMATCH, "pads_end");
  ov.pads_end_count = -3;
  EXPECT_NO_PLAN(padnd_plan_create_openvino(&input, &ov, &plan), PADND_INVALID_ARGUMENT,
                 "op.pads_end: negative count -3");
}

static void test_ngraph_errors(void) {
  const float data[3] = {1, 2, 3}, zero = 0;
  const int64_t shape[1] = {3}, one[1] = {1};
  const padnd_tensor input = {data, {PADND_FLOAT32, 0}, 1, shape, NULL};
  padnd_ngraph_pad op = {0, "constant", one, 1, one, 1, one, 1, NULL, 0};
  padnd_plan* plan = NULL;
  EXPECT_NO_PLAN(padnd_plan_create_ngraph(&input, NULL, &plan), PADND_INVALID_ARGUMENT,
                 "op: null pointer");
  EXPECT_ERROR(padnd_plan_create_ngraph(&input, &op, NULL), PADND_INVALID_ARGUMENT, "plan_out");
  EXPECT_NO_PLAN(padnd_plan_create_ngraph(NULL, &op, &plan), PADND_INVALID_ARGUMENT, "input");
  EXPECT_NO_PLAN(padnd_plan_create_ngraph(&input, &op, &plan), PADND_INVALID_ARGUMENT,
                 "op.pad_value: null pointer"); /* v0's pad value is required */
  op.pad_value = &zero;
  op.pad_value_bytes = 4;
  op.interior_count = -1;
  EXPECT_NO_PLAN(padnd_plan_create_ngraph(&input, &op, &plan), PADND_INVALID_ARGUMENT,
                 "op.interior: negative count -1");
  op.interior_count = 1;
  op.pad_mode = "edge"; /* interior padding is constant-only */
  EXPECT_NO_PLAN(padnd_plan_create_ngraph(&input, &op, &plan), PADND_INVALID_ARGUMENT, "interior");
  op.version = 2;
  EXPECT_NO_PLAN(padnd_plan_create_ngraph(&input, &op, &plan), PADND_INVALID_ARGUMENT,
                 "op.version: nGraph Pad has versions 0 and 1, got 2");
}

static padnd_numpy_pad numpy_one_mode(const int64_t* widths, const char* const* mode) {
  padnd_numpy_pad a;
  memset(&a, 0, sizeof a);
  a.pad_width = widths;
  a.pad_width_pairs = 1;
  a.modes = mode;
  a.mode_count = 1;
  a.negative = -1;
  return a;
}

/* Prepared windows of a mean pad: numpy pads axis 0 first, so the corner is the mean of the
 * column means. Windows from the prepared box equal padnd_execute_window's. */
static void test_prepared_windows(void) {
  const float image[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const int64_t shape[2] = {3, 4}, widths[4] = {2, 2, 2, 2};
  const char* const mean[1] = {"mean"};
  const padnd_tensor input = {image, {PADND_FLOAT32, 0}, 2, shape, NULL};
  padnd_numpy_pad args = numpy_one_mode(widths, mean);
  const int64_t corner_start[2] = {0, 0}, corner_len[2] = {1, 3};
  const float corner[3] = {5.5f, 5.5f, 4}; /* (4 + 5 + 6 + 7) / 4, then column 0's mean */
  const int64_t start[2] = {1, 3}, len[2] = {5, 5}, strides[2] = {40, 8};
  float want[25], got[25], spaced[50];
  padnd_plan* plan = NULL;
  padnd_prepared* prepared = (padnd_prepared*)&failures;
  int64_t bytes = -1;
  int i;
  args.pad_width_pairs = 2;
  CHECK(padnd_plan_create_numpy(&input, &args, &plan) == PADND_OK);
  CHECK(padnd_prepare_windows(plan, image, NULL, &prepared) == PADND_OK);
  CHECK(padnd_prepared_bytes(prepared, &bytes) == PADND_OK);
  CHECK(bytes == 5 * 6 * 4); /* the input and a position per side */
  CHECK(padnd_prepared_execute_window(prepared, corner_start, corner_len, got, NULL, 12) ==
        PADND_OK);
  CHECK(memcmp(got, corner, sizeof corner) == 0);
  CHECK(padnd_execute_window(plan, image, start, len, want, NULL, 100, NULL) == PADND_OK);
  fill(got, sizeof got);
  CHECK(padnd_prepared_execute_window(prepared, start, len, got, NULL, 100) == PADND_OK);
  CHECK(memcmp(got, want, sizeof want) == 0);
  fill(spaced, sizeof spaced);
  CHECK(padnd_prepared_execute_window(prepared, start, len, spaced, strides, 0) == PADND_OK);
  for (i = 0; i < 25; ++i) CHECK(memcmp(&spaced[2 * i], &want[i], 4) == 0);
  for (i = 0; i < 25; ++i) CHECK(untouched(&spaced[2 * i + 1], 4));
  EXPECT_ERROR(padnd_prepared_execute_window(prepared, start, len, got, NULL, 99),
               PADND_SHAPE_MISMATCH, "output: buffer of 99 bytes");
  EXPECT_ERROR(padnd_prepared_execute_window(NULL, start, len, got, NULL, 100),
               PADND_INVALID_ARGUMENT, "prepared");
  EXPECT_ERROR(padnd_prepare_windows(plan, image, NULL, NULL), PADND_INVALID_ARGUMENT,
               "prepared_out");
  padnd_prepared_destroy(prepared);
  prepared = (padnd_prepared*)&failures;
  EXPECT_ERROR(padnd_prepare_windows(NULL, image, NULL, &prepared), PADND_INVALID_ARGUMENT, "plan");
  CHECK(prepared == NULL);
  EXPECT_ERROR(padnd_prepare_windows(plan, NULL, NULL, &prepared), PADND_INVALID_ARGUMENT,
               "input: null data pointer");
  CHECK(prepared == NULL);
  EXPECT_ERROR(padnd_prepared_bytes(NULL, &bytes), PADND_INVALID_ARGUMENT, "prepared");
  padnd_prepared_destroy(NULL);
  padnd_plan_destroy(plan);
}

static void test_numpy_errors(void) {
  const float data[3] = {1, 2, 3};
  const int64_t shape[1] = {3}, widths[2] = {1, 1};
  const char* const constant[1] = {"constant"};
  const char* const bogus[1] = {"bogus"};
  const char* const missing[1] = {NULL};
  const padnd_tensor input = {data, {PADND_FLOAT32, 0}, 1, shape, NULL};
  padnd_numpy_pad a = numpy_one_mode(widths, constant);
  padnd_plan* plan = NULL;
  EXPECT_NO_PLAN(padnd_plan_create_numpy(&input, NULL, &plan), PADND_INVALID_ARGUMENT,
                 "args: null pointer");
  EXPECT_ERROR(padnd_plan_create_numpy(&input, &a, NULL), PADND_INVALID_ARGUMENT, "plan_out");
  EXPECT_NO_PLAN(padnd_plan_create_numpy(NULL, &a, &plan), PADND_INVALID_ARGUMENT, "input");
  a.pad_width = NULL;
  EXPECT_NO_PLAN(padnd_plan_create_numpy(&input, &a, &plan), PADND_INVALID_ARGUMENT,
                 "args.pad_width: null pointer");
  a.pad_width = widths;
  a.pad_width_pairs = -1;
  EXPECT_NO_PLAN(padnd_plan_create_numpy(&input, &a, &plan), PADND_INVALID_ARGUMENT,
                 "args.pad_width: bad pair count -1");
  a = numpy_one_mode(widths, missing);
  EXPECT_NO_PLAN(padnd_plan_create_numpy(&input, &a, &plan), PADND_INVALID_ARGUMENT,
                 "args.modes: null pointer");
  a = numpy_one_mode(widths, bogus);
  EXPECT_NO_PLAN(padnd_plan_create_numpy(&input, &a, &plan), PADND_INVALID_ARGUMENT, "bogus");
  a = numpy_one_mode(widths, constant);
  a.constant_values_pairs = 1; /* and constant_values NULL */
  EXPECT_NO_PLAN(padnd_plan_create_numpy(&input, &a, &plan), PADND_INVALID_ARGUMENT,
                 "args.constant_values: null pointer");
  a.constant_values_pairs = INT64_MAX;
  EXPECT_NO_PLAN(padnd_plan_create_numpy(&input, &a, &plan), PADND_INVALID_ARGUMENT,
                 "args.constant_values: bad pair count");
  a = numpy_one_mode(widths, constant);
  a.negative = 5;
  EXPECT_NO_PLAN(padnd_plan_create_numpy(&input, &a, &plan), PADND_INVALID_ARGUMENT,
                 "args.negative: unknown value 5");
  a.negative = -1;
  a.ramp_type.dtype = 99;
  EXPECT_NO_PLAN(padnd_plan_create_numpy(&input, &a, &plan), PADND_UNSUPPORTED_TYPE,
                 "unknown padnd_dtype 99");
}

/* Failures of padnd_tensor_from_dlpack write neither the tensor nor a stride. */
static void test_dlpack_errors(void) {
  float data[6] = {0};
  int64_t shape[2] = {2, 3}, strides[2] = {1, INT64_MAX};
  test_dl_tensor dl = {data, {2, 1}, 2, {2, 32, 1}, shape, strides, 0}; /* CUDA, device 1 */
  padnd_tensor t;
  int64_t byte_strides[2];
  fill(&t, sizeof t);
  fill(byte_strides, sizeof byte_strides);
  EXPECT_ERROR(padnd_tensor_from_dlpack(NULL, &t, byte_strides, 2), PADND_INVALID_ARGUMENT,
               "dltensor: null pointer");
  EXPECT_ERROR(padnd_tensor_from_dlpack(&dl, NULL, byte_strides, 2), PADND_INVALID_ARGUMENT,
               "tensor_out: null pointer");
  EXPECT_ERROR(padnd_tensor_from_dlpack(&dl, &t, byte_strides, 2), PADND_UNSUPPORTED_TYPE,
               "device type 2 (device 1)");
  dl.device.device_type = 1; /* the CPU */
  dl.dtype.lanes = 4;
  EXPECT_ERROR(padnd_tensor_from_dlpack(&dl, &t, byte_strides, 2), PADND_UNSUPPORTED_TYPE,
               "dltensor: dtype (code 2, bits 32, lanes 4)");
  dl.dtype.lanes = 1;
  dl.ndim = -1;
  EXPECT_ERROR(padnd_tensor_from_dlpack(&dl, &t, byte_strides, 2), PADND_INVALID_ARGUMENT,
               "dltensor: negative ndim -1");
  dl.ndim = 2;
  dl.shape = NULL;
  EXPECT_ERROR(padnd_tensor_from_dlpack(&dl, &t, byte_strides, 2), PADND_INVALID_ARGUMENT,
               "dltensor.shape: null pointer");
  dl.shape = shape;
  EXPECT_ERROR(padnd_tensor_from_dlpack(&dl, &t, byte_strides, 1), PADND_SHAPE_MISMATCH,
               "byte_strides_out: room for 1");
  EXPECT_ERROR(padnd_tensor_from_dlpack(&dl, &t, NULL, 2), PADND_INVALID_ARGUMENT,
               "byte_strides_out: null pointer");
  EXPECT_ERROR(padnd_tensor_from_dlpack(&dl, &t, byte_strides, 2), PADND_OVERFLOW,
               "dltensor.strides: axis 1");
  CHECK(untouched(&t, sizeof t) && untouched(byte_strides, sizeof byte_strides));
}

/* A 2x3 uint8 input padded by one on every side (4x5 = 20 bytes), for the execution errors. */
static const uint8_t small_data[6] = {1, 2, 3, 4, 5, 6};

static padnd_plan* small_plan(void) {
  static const int64_t shape[2] = {2, 3}, one[2] = {1, 1};
  const padnd_tensor input = {small_data, {PADND_UINT8, 0}, 2, shape, NULL};
  padnd_pad_spec spec = spec_1d(one, one, PADND_CONSTANT);
  padnd_plan* plan = NULL;
  spec.rank = 2;
  CHECK(padnd_plan_create(&input, &spec, &plan) == PADND_OK);
  return plan;
}

static void test_execute_errors(void) {
  padnd_plan* plan = small_plan();
  const padnd_exec_options negative = {-1, NULL, NULL};
  uint8_t out[24];
  fill(out, sizeof out);
  EXPECT_ERROR(padnd_execute(NULL, small_data, out, 20, NULL), PADND_INVALID_ARGUMENT,
               "plan: null pointer");
  EXPECT_ERROR(padnd_execute(plan, NULL, out, 20, NULL), PADND_INVALID_ARGUMENT, "input");
  EXPECT_ERROR(padnd_execute(plan, small_data, NULL, 20, NULL), PADND_INVALID_ARGUMENT, "out");
  EXPECT_ERROR(padnd_execute(plan, small_data, out, 19, NULL), PADND_SHAPE_MISMATCH, "19 bytes");
  EXPECT_ERROR(padnd_execute(plan, small_data, out, -1, NULL), PADND_SHAPE_MISMATCH, "-1");
  EXPECT_ERROR(padnd_execute(plan, small_data, out, 20, &negative), PADND_INVALID_ARGUMENT,
               "threads");
  CHECK(untouched(out, sizeof out));
  padnd_plan_destroy(plan);
  padnd_plan_destroy(NULL); /* allowed */
}

static void test_window_errors(void) {
  padnd_plan* plan = small_plan();
  const int64_t start[2] = {0, 3}, len[2] = {4, 3}, ok_start[2] = {0, 0}, ok_len[2] = {4, 5};
  const int64_t negative[2] = {-1, 0}, strides[2] = {5, 1};
  uint8_t out[24];
  fill(out, sizeof out);
  EXPECT_ERROR(padnd_execute_window(NULL, small_data, ok_start, ok_len, out, NULL, 20, NULL),
               PADND_INVALID_ARGUMENT, "plan: null pointer");
  EXPECT_ERROR(padnd_execute_window(plan, small_data, NULL, ok_len, out, NULL, 20, NULL),
               PADND_INVALID_ARGUMENT, "start: null pointer");
  EXPECT_ERROR(padnd_execute_window(plan, small_data, ok_start, NULL, out, NULL, 20, NULL),
               PADND_INVALID_ARGUMENT, "shape: null pointer");
  EXPECT_ERROR(padnd_execute_window(plan, NULL, ok_start, ok_len, out, NULL, 20, NULL),
               PADND_INVALID_ARGUMENT, "input");
  EXPECT_ERROR(padnd_execute_window(plan, small_data, start, len, out, NULL, 20, NULL),
               PADND_OUT_OF_RANGE, "window: axis 1");
  EXPECT_ERROR(padnd_execute_window(plan, small_data, negative, len, out, NULL, 20, NULL),
               PADND_OUT_OF_RANGE, "window: axis 0");
  EXPECT_ERROR(padnd_execute_window(plan, small_data, ok_start, ok_len, out, NULL, 19, NULL),
               PADND_SHAPE_MISMATCH, "19 bytes");
  EXPECT_ERROR(padnd_execute_window(plan, small_data, start, len, out, strides, 0, NULL),
               PADND_OUT_OF_RANGE, "window: axis 1"); /* strided */
  EXPECT_ERROR(padnd_execute_window(plan, small_data, ok_start, ok_len, NULL, strides, 0, NULL),
               PADND_INVALID_ARGUMENT, "out");
  CHECK(untouched(out, sizeof out));
  padnd_plan_destroy(plan);
}

static void test_output_and_infer_errors(void) {
  padnd_plan* plan = small_plan();
  const int64_t shape[1] = {3}, one[1] = {1}, big[1] = {INT64_MAX}, crop[1] = {-5};
  padnd_pad_spec spec = spec_1d(one, one, PADND_CONSTANT);
  int64_t out[2];
  int32_t rank;
  fill(out, sizeof out);
  fill(&rank, sizeof rank);
  EXPECT_ERROR(padnd_plan_output(NULL, &rank, out, 2, NULL), PADND_INVALID_ARGUMENT,
               "plan: null pointer");
  EXPECT_ERROR(padnd_plan_output(plan, &rank, out, 1, NULL), PADND_SHAPE_MISMATCH,
               "shape_out: room for 1 lengths, the output has 2");
  EXPECT_ERROR(padnd_infer_shape(1, shape, NULL, out), PADND_INVALID_ARGUMENT, "spec: null");
  EXPECT_ERROR(padnd_infer_shape(1, NULL, &spec, out), PADND_INVALID_ARGUMENT, "shape: null");
  EXPECT_ERROR(padnd_infer_shape(1, shape, &spec, NULL), PADND_INVALID_ARGUMENT, "shape_out");
  EXPECT_ERROR(padnd_infer_shape(-1, shape, &spec, out), PADND_INVALID_ARGUMENT,
               "shape: negative count -1");
  EXPECT_ERROR(padnd_infer_shape(1, big, &spec, out), PADND_OVERFLOW, "axis 0");
  spec.begin = crop;
  EXPECT_ERROR(padnd_infer_shape(1, shape, &spec, out), PADND_OUT_OF_RANGE, "axis 0");
  spec.begin = one;
  spec.mode = 42;
  EXPECT_ERROR(padnd_infer_shape(1, shape, &spec, out), PADND_INVALID_ARGUMENT, "spec.mode");
  CHECK(untouched(out, sizeof out) && untouched(&rank, sizeof rank));
  padnd_plan_destroy(plan);
}

/* A string value is one padnd_string whose length and data are checked; strides are whole
 * padnd_strings; what computes values, or a spec that forbids strings, is an error. */
static void test_string_errors(void) {
  const padnd_string data[3] = {{"a", 1}, {"b", 1}, {"c", 1}};
  const int64_t shape[1] = {3}, one[1] = {1}, odd_stride[1] = {8}, widths[2] = {1, 1};
  const char* const mean[1] = {"mean"};
  padnd_tensor input = {data, {PADND_STRING, 0}, 1, shape, NULL};
  padnd_pad_spec spec = spec_1d(one, one, PADND_CONSTANT);
  padnd_string value = {"v", -1};
  const padnd_openvino_pad pad1 = {1, "constant", one, 1, one, 1, NULL, 0, 0};
  const padnd_numpy_pad np = numpy_one_mode(widths, mean);
  padnd_plan* plan = NULL;
  spec.value = &value;
  spec.value_bytes = sizeof value;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
                 "spec.value.length: negative length -1");
  value.data = NULL;
  value.length = 3;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
                 "spec.value.data: null pointer");
  spec.value_bytes = 8;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
                 "spec.value: a string value is one padnd_string");
  spec.value_bytes = 0; /* the empty string */
  input.byte_strides = odd_stride;
  EXPECT_NO_PLAN(padnd_plan_create(&input, &spec, &plan), PADND_INVALID_ARGUMENT,
                 "strides: axis 0: byte stride 8 is not a multiple of sizeof(padnd_string)");
  input.byte_strides = NULL;
  EXPECT_NO_PLAN(padnd_plan_create_openvino(&input, &pad1, &plan), PADND_UNSUPPORTED_TYPE,
                 "data: element type string is not allowed by OpenVINO Pad-1");
  EXPECT_NO_PLAN(padnd_plan_create_numpy(&input, &np, &plan), PADND_UNSUPPORTED_TYPE,
                 "mode: axis 0: mean computes values");
}

/* The one allocation a caller can make fail: the box of the output that numpy's value modes
 * compute to write a window (here 2^61 bytes: 2^58 positions out, beyond each side's first
 * chunk, odd reflection's box is the whole axis). */
static void test_out_of_memory(void) {
  const float data[2] = {1, 2};
  const int64_t shape[1] = {2}, widths[2] = {(int64_t)1 << 58, (int64_t)1 << 58};
  const int64_t start[1] = {0}, len[1] = {4};
  const char* const reflect[1] = {"reflect"};
  const padnd_tensor input = {data, {PADND_FLOAT32, 0}, 1, shape, NULL};
  padnd_numpy_pad args = numpy_one_mode(widths, reflect);
  args.reflect_type = "odd";
  padnd_plan* plan = NULL;
  float out[4];
  CHECK(padnd_plan_create_numpy(&input, &args, &plan) == PADND_OK);
  fill(out, sizeof out);
  EXPECT_ERROR(padnd_execute_window(plan, data, start, len, out, NULL, 16, NULL),
               PADND_OUT_OF_MEMORY, "bytes");
  CHECK(untouched(out, sizeof out));
  padnd_plan_destroy(plan);
}

int main(void) {
  test_version(); /* first: no call has failed yet */
  test_index_modes();
  test_windows();
  test_prepared_windows();
  test_host_parallel_for();
  test_infer_shape();
  test_spec_adapters();
  test_dlpack();
  test_strings();
  test_plan_create_null_and_enum_errors();
  test_plan_create_value_errors();
  test_onnx_and_openvino_errors();
  test_ngraph_errors();
  test_numpy_errors();
  test_dlpack_errors();
  test_execute_errors();
  test_window_errors();
  test_output_and_infer_errors();
  test_string_errors();
  test_out_of_memory();
  printf("c_api_pure_test: %d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
