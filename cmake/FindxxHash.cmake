# FindxxHash: xxHash (Debian: libxxhash-dev; RHEL: xxhash-devel; Spack: xxhash) ships no CMake
# package, so its header and library are found directly. Defines the imported target
# xxHash::xxhash (the name xxHash's own CMake build exports), and XXHASH_INCLUDE_DIR and
# XXHASH_LIBRARY. Installed beside collnoiseConfig.cmake, which uses it for its consumers.
find_path(XXHASH_INCLUDE_DIR xxhash.h)
find_library(XXHASH_LIBRARY xxhash)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(xxHash REQUIRED_VARS XXHASH_LIBRARY XXHASH_INCLUDE_DIR)
if(xxHash_FOUND AND NOT TARGET xxHash::xxhash)
  add_library(xxHash::xxhash UNKNOWN IMPORTED)
  set_target_properties(xxHash::xxhash PROPERTIES IMPORTED_LOCATION "${XXHASH_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${XXHASH_INCLUDE_DIR}")
endif()
mark_as_advanced(XXHASH_INCLUDE_DIR XXHASH_LIBRARY)
