# libpadnd_openvino, OpenVINO's extension library (docs/runtimes.md): the PadndPad operation and
# the ONNX frontend's Pad conversion. PADND_OPENVINO: ON (OpenVINO required), OFF, or AUTO (built
# when CMake finds OpenVINO's config: OpenVINO_DIR, or the `openvino` Python package of the
# Python CMake finds, whose wheel ships headers and OpenVINOConfig.cmake). It links padnd
# statically, so it is built with a static padnd only.
set(PADND_OPENVINO AUTO CACHE STRING "Build libpadnd_openvino: ON, OFF or AUTO")
set_property(CACHE PADND_OPENVINO PROPERTY STRINGS AUTO ON OFF)
set(PADND_OPENVINO_ENABLED OFF)
if(NOT PADND_OPENVINO STREQUAL "OFF" AND NOT BUILD_SHARED_LIBS)
  if(NOT OpenVINO_DIR)
    find_package(Python COMPONENTS Interpreter QUIET)
    if(Python_EXECUTABLE)
      execute_process(COMMAND "${Python_EXECUTABLE}" -c
        "import openvino, os; print(os.path.join(os.path.dirname(openvino.__file__), 'cmake'))"
        OUTPUT_VARIABLE padnd_openvino_cmake OUTPUT_STRIP_TRAILING_WHITESPACE
        RESULT_VARIABLE padnd_openvino_result ERROR_QUIET)
      if(padnd_openvino_result EQUAL 0)
        set(OpenVINO_DIR "${padnd_openvino_cmake}")
      endif()
    endif()
  endif()
  find_package(OpenVINO QUIET COMPONENTS Runtime ONNX)
  if(OpenVINO_FOUND)
    set(PADND_OPENVINO_ENABLED ON)
  elseif(PADND_OPENVINO STREQUAL "ON")
    message(FATAL_ERROR "PADND_OPENVINO=ON: OpenVINO's CMake config was not found (set "
      "OpenVINO_DIR, or install the openvino Python package for the Python CMake finds)")
  endif()
elseif(PADND_OPENVINO STREQUAL "ON")
  message(FATAL_ERROR "PADND_OPENVINO=ON needs a static padnd (BUILD_SHARED_LIBS=OFF)")
endif()

if(PADND_OPENVINO_ENABLED)
  message(STATUS "padnd: libpadnd_openvino, OpenVINO ${OpenVINO_VERSION} in ${OpenVINO_DIR}")
  add_library(padnd_openvino MODULE
    src/bindings/openvino/element_types.cpp src/bindings/openvino/extension.cpp
    src/bindings/openvino/onnx_pad.cpp src/bindings/openvino/pad_op.cpp)
  target_link_libraries(padnd_openvino PRIVATE padnd openvino::runtime openvino::frontend::onnx)
  target_include_directories(padnd_openvino PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  # Only OPENVINO_CREATE_EXTENSIONS' entry point is exported.
  set_target_properties(padnd_openvino PROPERTIES CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON CXX_EXTENSIONS OFF)
  target_compile_features(padnd_openvino PRIVATE cxx_std_20)
  # Never unloaded: nodes of its PadndPad type can outlive the Core or NodeFactory that loaded
  # it, and their code must still be there when they are destroyed.
  target_link_options(padnd_openvino PRIVATE "LINKER:-z,nodelete")
endif()
