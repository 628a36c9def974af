/* SPDX-License-Identifier: Apache-2.0 */
/* padnd from C: reflect-pads a 3x4 float image by one pixel, whole and as a 2x3 window, and an
 * ONNX Pad-18 node with axes; shows an error's status and message. Exits non-zero on any
 * unexpected result (CI runs it). */
#include <padnd/padnd.h>
#include <stdio.h>
#include <string.h>

static int fail(const char* what) {
  fprintf(stderr, "pad_image: %s: %s\n", what, padnd_last_error());
  return 1;
}

/* The whole padded image: its shape and bytes, then its first row. */
static int check_whole(const padnd_plan* plan, const float* image, float* out, int64_t out_size) {
  const float first_row[6] = {5, 4, 5, 6, 7, 6}; /* reflect: row 1 of the input, mirrored */
  int32_t rank = 0;
  int64_t out_shape[2], out_bytes = 0;
  if (padnd_plan_output(plan, &rank, out_shape, 2, &out_bytes) != PADND_OK) return fail("output");
  if (padnd_execute(plan, image, out, out_size, NULL) != PADND_OK) return fail("run");
  if (rank != 2 || out_shape[0] != 5 || out_shape[1] != 6 || out_bytes != out_size ||
      memcmp(out, first_row, sizeof first_row) != 0) {
    fprintf(stderr, "pad_image: wrong whole output\n");
    return 1;
  }
  return 0;
}

/* The window rows 3..4, columns 0..2 of the padded image, on one thread: the same elements as
 * the whole output `out`. */
static int check_window(const padnd_plan* plan, const float* image, const float* out) {
  const int64_t start[2] = {3, 0}, window[2] = {2, 3};
  const padnd_exec_options serial = {1, NULL, NULL};
  float tile[6];
  if (padnd_execute_window(plan, image, start, window, tile, NULL, (int64_t)sizeof tile, &serial) !=
      PADND_OK) {
    return fail("window");
  }
  for (int i = 0; i < 6; ++i) {
    if (tile[i] != out[(3 + i / 3) * 6 + i % 3]) {
      fprintf(stderr, "pad_image: window element %d differs\n", i);
      return 1;
    }
  }
  return 0;
}

/* Reflect-pads the image by one pixel on each side: whole, then as a window. */
static int reflect_image(const padnd_tensor* input) {
  const int64_t begin[2] = {1, 1}, end[2] = {1, 1};
  const padnd_pad_spec spec = {2,
                               begin,
                               end,
                               NULL,
                               PADND_REFLECT,
                               NULL,
                               0,
                               PADND_MAP_ON_ORIGINAL,
                               PADND_NEGATIVE_SIZE_ERROR};
  padnd_plan* plan = NULL;
  float out[5 * 6];
  if (padnd_plan_create(input, &spec, &plan) != PADND_OK) return fail("plan");
  const int failed = check_whole(plan, input->data, out, (int64_t)sizeof out) ||
                     check_window(plan, input->data, out);
  padnd_plan_destroy(plan);
  return failed;
}

/* ONNX Pad-18: pad axis 1 only (axes = [1]), constant 7. */
static int onnx_node(const padnd_tensor* input) {
  const int64_t pads[2] = {2, 0}, axes[1] = {1};
  const float seven = 7;
  const padnd_onnx_pad node = {18, 4, "constant", pads, 2, &seven, sizeof seven, NULL, axes, 1};
  padnd_plan* plan = NULL;
  float onnx_out[3 * 6];
  if (padnd_plan_create_onnx(input, &node, &plan) != PADND_OK) return fail("onnx plan");
  const padnd_status status =
      padnd_execute(plan, input->data, onnx_out, (int64_t)sizeof onnx_out, NULL);
  padnd_plan_destroy(plan);
  if (status != PADND_OK) return fail("onnx run");
  if (onnx_out[0] != 7 || onnx_out[1] != 7 || onnx_out[2] != 0 || onnx_out[17] != 11) {
    fprintf(stderr, "pad_image: wrong ONNX output\n");
    return 1;
  }
  return 0;
}

/* An error: cropping 3 + 1 rows from 3 leaves a negative length. */
static int show_error(const padnd_tensor* input) {
  const int64_t crop_begin[2] = {-3, 0}, crop_end[2] = {-1, 0};
  const padnd_pad_spec bad = {2,
                              crop_begin,
                              crop_end,
                              NULL,
                              PADND_CONSTANT,
                              NULL,
                              0,
                              PADND_MAP_ON_ORIGINAL,
                              PADND_NEGATIVE_SIZE_ERROR};
  padnd_plan* plan = NULL;
  const padnd_status status = padnd_plan_create(input, &bad, &plan);
  if (status != PADND_OUT_OF_RANGE || plan != NULL ||
      strstr(padnd_last_error(), "axis 0") == NULL) {
    fprintf(stderr, "pad_image: expected an out-of-range error, got %d: %s\n", (int)status,
            padnd_last_error());
    return 1;
  }
  printf("pad_image: ok (%s)\n", padnd_last_error());
  return 0;
}

int main(void) {
  const float image[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const int64_t shape[2] = {3, 4};
  const padnd_tensor input = {image, {PADND_FLOAT32, 0}, 2, shape, NULL};
  if (reflect_image(&input) || onnx_node(&input)) return 1;
  return show_error(&input);
}
