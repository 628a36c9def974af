# SPDX-License-Identifier: Apache-2.0
# Type stubs for the C++ extension padnd._padnd (internal).
def infer_shape(shape: list[int], begins: list[int], ends: list[int], interiors: list[int],
                mode: str, crop_then_pad: bool) -> list[int]: ...
def execute(in_address: int, type_name: str, shape: list[int], byte_strides: list[int],
            begins: list[int], ends: list[int], interiors: list[int], mode: str, value: bytes,
            crop_then_pad: bool, out_address: int, out_bytes: int) -> None: ...
