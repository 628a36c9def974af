# SPDX-License-Identifier: Apache-2.0
# Optional dependencies: import one, or say which extra of padnd brings it.
"""Imports for padnd's optional dependencies (the extras of ``pip install '.[...]'`` in padnd's
checkout)."""
from __future__ import annotations

import importlib
from types import ModuleType


def import_optional(module: str, *, extra: str, needed_by: str) -> ModuleType:
    """Imports ``module`` (e.g. ``"onnx"``), needed by ``needed_by`` (e.g.
    ``"padnd.onnx.backend"``), or raises ImportError naming the module and the extra that
    installs it from padnd's checkout (``pip install '.[extra]'``; padnd is not on PyPI). The
    original ImportError is chained (``__cause__``)."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        package = module.split(".", 1)[0]
        raise ImportError(
            f"{needed_by} needs the {package!r} package: pip install '.[{extra}]' in padnd's "
            "checkout",
            name=package) from error
