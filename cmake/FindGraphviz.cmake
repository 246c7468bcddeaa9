# FindGraphviz: Graphviz's cgraph library (Debian: libgraphviz-dev; RHEL: graphviz-devel; Spack:
# graphviz), which parses the dot topology files of engine/network/dot_topology.hpp. Graphviz
# ships a pkg-config file (libcgraph) but no CMake package: pkg-config's paths are hints, and the
# header and libraries are found directly (cgraph and cdt, which a static cgraph needs). Defines
# the imported target Graphviz::cgraph, and GRAPHVIZ_INCLUDE_DIR, GRAPHVIZ_CGRAPH_LIBRARY and
# GRAPHVIZ_CDT_LIBRARY. Installed beside collnoiseConfig.cmake, which uses it for its consumers.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PC_GRAPHVIZ_CGRAPH QUIET libcgraph)
endif()
# The header is included as <graphviz/cgraph.h>: the directory above graphviz/.
find_path(GRAPHVIZ_INCLUDE_DIR graphviz/cgraph.h HINTS ${PC_GRAPHVIZ_CGRAPH_INCLUDE_DIRS}/..
          ${PC_GRAPHVIZ_CGRAPH_INCLUDEDIR}/..)
find_library(GRAPHVIZ_CGRAPH_LIBRARY cgraph HINTS ${PC_GRAPHVIZ_CGRAPH_LIBRARY_DIRS})
find_library(GRAPHVIZ_CDT_LIBRARY cdt HINTS ${PC_GRAPHVIZ_CGRAPH_LIBRARY_DIRS})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Graphviz REQUIRED_VARS GRAPHVIZ_CGRAPH_LIBRARY
                                  GRAPHVIZ_INCLUDE_DIR)
if(Graphviz_FOUND AND NOT TARGET Graphviz::cgraph)
  add_library(Graphviz::cgraph UNKNOWN IMPORTED)
  set_target_properties(Graphviz::cgraph PROPERTIES IMPORTED_LOCATION "${GRAPHVIZ_CGRAPH_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${GRAPHVIZ_INCLUDE_DIR}")
  if(GRAPHVIZ_CDT_LIBRARY)
    set_target_properties(Graphviz::cgraph PROPERTIES INTERFACE_LINK_LIBRARIES
                          "${GRAPHVIZ_CDT_LIBRARY}")
  endif()
endif()
mark_as_advanced(GRAPHVIZ_INCLUDE_DIR GRAPHVIZ_CGRAPH_LIBRARY GRAPHVIZ_CDT_LIBRARY)
