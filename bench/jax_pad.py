# SPDX-License-Identifier: Apache-2.0
# padnd.jax.pad's paths on the CPU: eager (DLPack), jax.jit through the XLA FFI handler, jax.jit
# through the pure_callback fallback, and jnp.pad under jax.jit. Prints a Markdown table of
# median wall times (docs/frameworks.md). Usage: python bench/jax_pad.py [--repeats N]
import argparse
import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np

import padnd.jax as padnd_jax

CASES = [((256, 256), 16, "reflect"), ((2048, 2048), 64, "reflect"),
         ((2048, 2048), 64, "constant"), ((64, 64, 64), 8, "edge")]


def median_us(function, array, repeats: int) -> float:
    """Median wall time of function(array) in microseconds, the result ready, after a warm-up."""
    jax.block_until_ready(function(array))
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        jax.block_until_ready(function(array))
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def paths(width: int, mode: str) -> dict:
    """The four ways to pad, each a function of the array (the jitted ones trace on first use)."""
    return {"eager": lambda a: padnd_jax.pad(a, width, mode),
            "jit (FFI)": jax.jit(lambda a: padnd_jax.pad(a, width, mode)),
            "jit (pure_callback)": jax.jit(lambda a: padnd_jax.pad(a, width, mode)),
            "jnp.pad under jit": jax.jit(lambda a: jnp.pad(a, width, mode))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()
    if not FFI_BUILT:
        raise SystemExit("padnd was built without the XLA FFI handler (padnd.jax.HAS_XLA_FFI)")
    names = list(paths(1, "edge"))
    print("| input (float32) | pad | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for shape, width, mode in CASES:
        array = jnp.asarray(np.random.default_rng(0).random(shape, dtype=np.float32))
        cells = []
        for name, function in paths(width, mode).items():
            # The fallback is traced with the handler switched off (as in a build without it).
            padnd_jax.HAS_XLA_FFI = name != "jit (pure_callback)" and FFI_BUILT
            cells.append(f"{median_us(function, array, args.repeats):,.0f} µs")
            padnd_jax.HAS_XLA_FFI = FFI_BUILT
        print(f"| {'x'.join(map(str, shape))} | {width} {mode} | " + " | ".join(cells) + " |")


FFI_BUILT = padnd_jax.HAS_XLA_FFI

if __name__ == "__main__":
    main()
