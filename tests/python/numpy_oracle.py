# SPDX-License-Identifier: Apache-2.0
# numpy.pad as the oracle of requests with one mode per axis (padnd's extension): numpy.pad one
# axis at a time, in numpy's own axis order, each axis with the keywords its mode reads.
import numpy as np

_KEYWORD_MODES = {"stat_length": ("maximum", "mean", "median", "minimum"),
                  "reflect_type": ("reflect", "symmetric"),
                  "end_values": ("linear_ramp",),
                  "constant_values": ("constant",)}


def numpy_pad(a, widths, mode, **kwargs):
    """numpy.pad(a, widths, mode, **kwargs); a sequence of modes pads axis after axis."""
    if isinstance(mode, str):
        return np.pad(a, widths, mode, **kwargs)
    for axis, name in enumerate(mode):
        axis_widths = [(0, 0)] * a.ndim
        axis_widths[axis] = widths[axis]
        keep = {k: v for k, v in kwargs.items() if name in _KEYWORD_MODES.get(k, ())}
        a = np.pad(a, axis_widths, name, **keep)
    return a
