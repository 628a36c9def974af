/* SPDX-License-Identifier: Apache-2.0 */
/* A C consumer of an installed / embedded padnd: the C ABI pads one tensor and reports the
 * version it was built with. */
#include <padnd/padnd.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  const float in[3] = {1, 2, 3};
  const int64_t shape[1] = {3}, begin[1] = {2}, end[1] = {1};
  const padnd_tensor input = {in, {PADND_FLOAT32, 0}, 1, shape, NULL};
  const padnd_pad_spec spec = {1,
                               begin,
                               end,
                               NULL,
                               PADND_REFLECT,
                               NULL,
                               0,
                               PADND_MAP_ON_ORIGINAL,
                               PADND_NEGATIVE_SIZE_ERROR};
  padnd_plan* plan = NULL;
  float out[6];
  const float expected[6] = {3, 2, 1, 2, 3, 2};
  if (strcmp(padnd_version(), PADND_VERSION_STRING) != 0) {
    printf("c consumer: library %s, header %s\n", padnd_version(), PADND_VERSION_STRING);
    return 1;
  }
  if (padnd_plan_create(&input, &spec, &plan) != PADND_OK ||
      padnd_execute(plan, in, out, (int64_t)sizeof out, NULL) != PADND_OK ||
      memcmp(out, expected, sizeof out) != 0) {
    printf("c consumer: wrong result (%s)\n", padnd_last_error());
    padnd_plan_destroy(plan);
    return 1;
  }
  padnd_plan_destroy(plan);
  printf("c consumer: ok (padnd %s)\n", padnd_version());
  return 0;
}
