// SPDX-License-Identifier: Apache-2.0
// padnd.pad_file's engine: the CLI's out-of-core pad of .npy files (cli/out_of_core.hpp), run
// without the GIL, its spec built by a Python callback from the file's header.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <string>

#include "cli/out_of_core.hpp"
#include "padnd/padnd.hpp"

namespace nb = nanobind;

namespace {

using padnd::cli::ProgressBar;

/// `pad_file`'s options from Python's arguments: memory (None or a size text), progress (None
/// for automatic), fsync. Python's Ctrl-C stops the pad between two windows.
padnd::cli::PadFileOptions file_options(const std::optional<std::string>& memory,
                                        std::optional<bool> progress, bool fsync) {
  padnd::cli::PadFileOptions options;
  options.memory_option = "memory";
  if (memory) options.memory_bytes = padnd::cli::parse_memory_size("memory", *memory);
  options.progress = !progress   ? ProgressBar::automatic
                     : *progress ? ProgressBar::always
                                 : ProgressBar::never;
  options.fsync = fsync;
  options.on_window = [](std::int64_t, std::int64_t) {
    nb::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw nb::python_error();  // KeyboardInterrupt, ...
  };
  return options;
}

/// `path` (str or bytes) as the bytes the OS takes, as open() converts it: a str's surrogate
/// escapes (os.fsdecode of a name that is not UTF-8) become the bytes they stand for, and a NUL
/// is refused. Errors name `argument`.
std::string os_path(nb::handle path, const char* argument) {
  PyObject* converted = nullptr;
  if (PyUnicode_FSConverter(path.ptr(), &converted) == 0) {
    const nb::python_error error;
    const std::string message = std::string(argument) + ": " + nb::str(error.value()).c_str();
    if (error.matches(PyExc_TypeError)) throw nb::type_error(message.c_str());
    throw nb::value_error(message.c_str());
  }
  const nb::bytes bytes = nb::steal<nb::bytes>(converted);
  return {bytes.c_str(), bytes.size()};
}

void pad_file(nb::handle src_path, nb::handle dst_path, const nb::callable& spec_for,
              const std::optional<std::string>& memory, std::optional<bool> progress, bool fsync) {
  const std::string src = os_path(src_path, "src");
  const std::string dst = os_path(dst_path, "dst");
  const padnd::cli::PadFileOptions options = file_options(memory, progress, fsync);
  const padnd::cli::RequestFor request_for = [&](const padnd::cli::NpyHeader& header) {
    nb::gil_scoped_acquire gil;
    const nb::object spec = spec_for(header.dtype.descr, header.shape);
    return padnd::cli::FileRequest{nb::cast<padnd::PadSpec>(spec), std::nullopt};
  };
  try {
    nb::gil_scoped_release release;
    padnd::cli::pad_npy_file(src, dst, request_for, options);
  } catch (const padnd::Error& e) {
    if (e.code() != padnd::Errc::io) throw;
    PyErr_SetString(PyExc_OSError, e.what());  // a file that cannot be read or written
    throw nb::python_error();
  }
}

}  // namespace

void bind_files(nb::module_& m) {
  m.def(
      "parse_memory_size",
      [](const std::string& option, const std::string& text) {
        return padnd::cli::parse_memory_size(option, text);
      },
      nb::arg("option"), nb::arg("text"),
      "Bytes of a size such as '512M', '2G' or '64KiB' (the CLI's --memory); errors name "
      "`option`.");
  m.def("default_memory_bytes", &padnd::cli::default_memory_bytes,
        "1 GiB, or a quarter of the physical memory where that is less.");
  m.def("pad_file", &pad_file, nb::arg("src"), nb::arg("dst"), nb::arg("spec_for"),
        nb::arg("memory").none(), nb::arg("progress").none(), nb::arg("fsync"),
        "Pads the .npy file src into dst out of core (the CLI's engine, without the GIL): "
        "spec_for(descr, shape) builds the PadSpec from the header (called again with the "
        "header in host byte order when the spec computes on non-native numbers); memory is "
        "None or a size such as '512M'; progress None draws a bar when stderr is a terminal.");
}
