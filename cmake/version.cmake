# Writes OUT (a header defining ZK_VERSION) at build time: the project's VERSION, and in a git
# checkout what `git describe --always --dirty` says ("0.1.0 (f022e55-dirty)"). The file is
# replaced only when its text changes, so an unchanged version rebuilds nothing.
#   cmake -DSRC=<source dir> -DOUT=<header> -DVERSION=<x.y.z> -P cmake/version.cmake
execute_process(
  COMMAND git -C "${SRC}" describe --always --dirty
  OUTPUT_VARIABLE described
  RESULT_VARIABLE rc
  OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_QUIET)
if(rc EQUAL 0 AND NOT described STREQUAL "")
  set(text "${VERSION} (${described})")
else()
  set(text "${VERSION}")
endif()
file(WRITE "${OUT}.new" "#pragma once\n#define ZK_VERSION \"${text}\"\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.new" "${OUT}")
file(REMOVE "${OUT}.new")
