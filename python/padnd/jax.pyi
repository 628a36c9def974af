# SPDX-License-Identifier: Apache-2.0
# Type stubs for padnd.jax.
from typing import Any, Sequence

import jax

__all__ = ["HAS_XLA_FFI", "pad"]

HAS_XLA_FFI: bool

def pad(
    array: Any,
    pad_width: Any,
    mode: str | Sequence[str] = "constant",
    **kwargs: Any,
) -> jax.Array: ...
