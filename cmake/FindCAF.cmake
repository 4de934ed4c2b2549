# FindCAF: the C++ Actor Framework (CAF 0.17, Debian's libcaf-dev ships no CMake config and no
# pkg-config file).
#
#   find_package(CAF [REQUIRED])  →  CAF_FOUND, CAF_VERSION, CAF_INCLUDE_DIR,
#                                    imported targets CAF::core and CAF::io (io links core).
# CAF_ROOT (variable or environment) points at a non-system installation.
find_path(CAF_INCLUDE_DIR caf/config.hpp HINTS ${CAF_ROOT} ENV CAF_ROOT PATH_SUFFIXES include)
find_library(CAF_CORE_LIBRARY NAMES caf_core HINTS ${CAF_ROOT} ENV CAF_ROOT PATH_SUFFIXES lib lib64)
find_library(CAF_IO_LIBRARY NAMES caf_io HINTS ${CAF_ROOT} ENV CAF_ROOT PATH_SUFFIXES lib lib64)

# CAF_VERSION in caf/config.hpp is MAJOR*10000 + MINOR*100 + PATCH (1706 = 0.17.6).
if(CAF_INCLUDE_DIR AND EXISTS "${CAF_INCLUDE_DIR}/caf/config.hpp")
  file(STRINGS "${CAF_INCLUDE_DIR}/caf/config.hpp" _caf_version_line REGEX "^#define CAF_VERSION [0-9]+")
  string(REGEX REPLACE "^#define CAF_VERSION ([0-9]+).*" "\\1" _caf_v "${_caf_version_line}")
  if(_caf_v)
    math(EXPR _caf_major "${_caf_v} / 10000")
    math(EXPR _caf_minor "(${_caf_v} / 100) % 100")
    math(EXPR _caf_patch "${_caf_v} % 100")
    set(CAF_VERSION "${_caf_major}.${_caf_minor}.${_caf_patch}")
  endif()
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(CAF
  REQUIRED_VARS CAF_CORE_LIBRARY CAF_IO_LIBRARY CAF_INCLUDE_DIR
  VERSION_VAR CAF_VERSION)

if(CAF_FOUND)
  find_package(Threads REQUIRED)
  if(NOT TARGET CAF::core)
    add_library(CAF::core SHARED IMPORTED)
    set_target_properties(CAF::core PROPERTIES
      IMPORTED_LOCATION "${CAF_CORE_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${CAF_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES Threads::Threads)
  endif()
  if(NOT TARGET CAF::io)
    add_library(CAF::io SHARED IMPORTED)
    set_target_properties(CAF::io PROPERTIES
      IMPORTED_LOCATION "${CAF_IO_LIBRARY}"
      INTERFACE_LINK_LIBRARIES CAF::core)
  endif()
endif()
mark_as_advanced(CAF_INCLUDE_DIR CAF_CORE_LIBRARY CAF_IO_LIBRARY)
