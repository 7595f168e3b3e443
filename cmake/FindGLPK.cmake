# FindGLPK — finds the GNU Linear Programming Kit (Debian: libglpk-dev).
# GLPK ships no pkg-config file, so this looks for glpk.h and libglpk.
#
# Result: GLPK_FOUND, GLPK_INCLUDE_DIRS, GLPK_LIBRARIES, GLPK_VERSION and the
# imported target GLPK::GLPK. Hints: GLPK_ROOT.
find_path(GLPK_INCLUDE_DIR NAMES glpk.h HINTS ${GLPK_ROOT} PATH_SUFFIXES include)
find_library(GLPK_LIBRARY NAMES glpk HINTS ${GLPK_ROOT} PATH_SUFFIXES lib)

if(GLPK_INCLUDE_DIR AND EXISTS "${GLPK_INCLUDE_DIR}/glpk.h")
  file(STRINGS "${GLPK_INCLUDE_DIR}/glpk.h" _glpk_major REGEX "^#define GLP_MAJOR_VERSION")
  file(STRINGS "${GLPK_INCLUDE_DIR}/glpk.h" _glpk_minor REGEX "^#define GLP_MINOR_VERSION")
  string(REGEX REPLACE ".*VERSION +([0-9]+).*" "\\1" _glpk_major "${_glpk_major}")
  string(REGEX REPLACE ".*VERSION +([0-9]+).*" "\\1" _glpk_minor "${_glpk_minor}")
  set(GLPK_VERSION "${_glpk_major}.${_glpk_minor}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(GLPK
  REQUIRED_VARS GLPK_LIBRARY GLPK_INCLUDE_DIR
  VERSION_VAR GLPK_VERSION)

if(GLPK_FOUND)
  set(GLPK_INCLUDE_DIRS ${GLPK_INCLUDE_DIR})
  set(GLPK_LIBRARIES ${GLPK_LIBRARY})
  if(NOT TARGET GLPK::GLPK)
    add_library(GLPK::GLPK UNKNOWN IMPORTED)
    set_target_properties(GLPK::GLPK PROPERTIES
      IMPORTED_LOCATION "${GLPK_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${GLPK_INCLUDE_DIR}")
  endif()
endif()
mark_as_advanced(GLPK_INCLUDE_DIR GLPK_LIBRARY)
