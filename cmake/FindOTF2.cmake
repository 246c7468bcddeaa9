# FindOTF2: the Open Trace Format 2 library (Debian: libotf2-trace-dev; Spack: otf2; from source:
# Score-P's otf2), which writes timelines as OTF2 archives (outputs/timeline_otf2.hpp). OTF2 ships
# no CMake package: its header and library are found directly, with otf2-config's prefix as a
# hint. Defines the imported target OTF2::otf2, and OTF2_INCLUDE_DIR and OTF2_LIBRARY. Installed
# beside collnoiseConfig.cmake, which uses it for its consumers.
find_program(OTF2_CONFIG_EXECUTABLE otf2-config)
set(_otf2_hints "")
if(OTF2_CONFIG_EXECUTABLE)
  get_filename_component(_otf2_prefix "${OTF2_CONFIG_EXECUTABLE}" DIRECTORY)
  get_filename_component(_otf2_prefix "${_otf2_prefix}" DIRECTORY)
  set(_otf2_hints HINTS "${_otf2_prefix}")
endif()
find_path(OTF2_INCLUDE_DIR otf2/otf2.h ${_otf2_hints} PATH_SUFFIXES include)
find_library(OTF2_LIBRARY NAMES otf2 open-trace-format2 ${_otf2_hints} PATH_SUFFIXES lib lib64)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(OTF2 REQUIRED_VARS OTF2_LIBRARY OTF2_INCLUDE_DIR)
if(OTF2_FOUND AND NOT TARGET OTF2::otf2)
  add_library(OTF2::otf2 UNKNOWN IMPORTED)
  set_target_properties(OTF2::otf2 PROPERTIES IMPORTED_LOCATION "${OTF2_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${OTF2_INCLUDE_DIR}")
endif()
mark_as_advanced(OTF2_CONFIG_EXECUTABLE OTF2_INCLUDE_DIR OTF2_LIBRARY)
unset(_otf2_hints)
unset(_otf2_prefix)
