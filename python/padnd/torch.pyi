# SPDX-License-Identifier: Apache-2.0
# Type stubs for padnd.torch.
from typing import Literal, Sequence

import torch

__all__ = ["PadError", "pad"]

class PadError(ValueError, RuntimeError): ...

def pad(
    input: torch.Tensor,
    pad: Sequence[int],
    mode: Literal["constant", "reflect", "replicate", "circular", "symmetric"] = "constant",
    value: float | complex | bool | torch.Tensor | None = None,
) -> torch.Tensor: ...
