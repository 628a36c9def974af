# SPDX-License-Identifier: Apache-2.0
# padnd inside OpenVINO: the extension library's path, and models read with it.
"""libpadnd_openvino (src/bindings/openvino, docs/runtimes.md) is the OpenVINO extension that
adds padnd's PadndPad operation and converts every ONNX Pad node onto it. It is built against
one OpenVINO release (the one its build found) and loads only into that release."""
from __future__ import annotations

import os
import pathlib

from . import _padnd
from ._optional import import_optional

ENVIRONMENT_VARIABLE = "PADND_OPENVINO_EXTENSION"
_LIBRARY = "libpadnd_openvino.so"
_VERSION_FILE = "padnd_openvino_version.txt"


def extension_path() -> str:
    """The path of libpadnd_openvino, for ``openvino.Core().add_extension(path)`` (C++:
    ``ov::Core::add_extension(path)``): ``$PADND_OPENVINO_EXTENSION`` if set, else the copy
    installed next to padnd's extension module. FileNotFoundError when this padnd was built
    without it (no OpenVINO where it was built)."""
    path = os.environ.get(ENVIRONMENT_VARIABLE) or str(
        pathlib.Path(_padnd.__file__).with_name(_LIBRARY))
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"{path}: padnd's OpenVINO extension is not there (this padnd was built without "
            f"OpenVINO's CMake config; build with the openvino package installed, or set "
            f"{ENVIRONMENT_VARIABLE} to a libpadnd_openvino.so built with -DPADND_OPENVINO=ON)")
    return path


def built_for() -> str | None:
    """The OpenVINO version the installed extension was built against (None: not recorded)."""
    version_file = pathlib.Path(extension_path()).with_name(_VERSION_FILE)
    return version_file.read_text().strip() if version_file.is_file() else None


def add_extension(core) -> None:
    """Adds libpadnd_openvino to ``core`` once; a load failure names the release it needs."""
    if getattr(core, "_padnd_extension_added", False):
        return
    path = extension_path()
    try:
        core.add_extension(path)
    except RuntimeError as error:
        ov = import_optional("openvino", extra="openvino", needed_by="padnd.openvino")
        raise RuntimeError(f"{path} did not load into OpenVINO {ov.__version__} (it was built "
                           f"for OpenVINO {built_for()}): {error}") from error
    core._padnd_extension_added = True


def read_model(model, core=None, replace_pad: bool = False):
    """``core.read_model(model)`` with padnd's extension added: every ONNX Pad node becomes
    padnd's PadndPad (ONNX's semantics: wrap, reflect and symmetric wider than the axis,
    negative pads crop first, every type). ``model``: a path (ONNX or OpenVINO IR), or an
    ``onnx.ModelProto``. ``core``: an ``openvino.Core`` (default: a new one).
    ``replace_pad=True`` also replaces OpenVINO's own Pad-1 and Pad-12 nodes (an IR model's)
    by PadndPad with OpenVINO's semantics (docs/runtimes.md)."""
    ov = import_optional("openvino", extra="openvino", needed_by="padnd.openvino.read_model")
    core = ov.Core() if core is None else core
    add_extension(core)
    if hasattr(model, "SerializeToString"):  # an onnx.ModelProto
        result = core.read_model(model.SerializeToString(), b"")
    else:
        result = core.read_model(os.fspath(model))
    if replace_pad:
        from ._openvino_replace import replace_pads
        replace_pads(result)
    return result
