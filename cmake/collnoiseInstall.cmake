# What `cmake --install build --prefix P` puts under P (docs/install.md), and the same for CPack:
#   bin/collnoise                                   the command
#   share/collnoise/runs/ (with data/)              the shipped run files: `collnoise run NAME`
#   share/collnoise/docs/, README.md, CHANGELOG.md  the documentation
#   share/collnoise/*.py                            the deprecated reader and plotting scripts
#                                                   (python/legacy/, until the next format version)
#   share/man/man1/collnoise.1                      the man page (help2man, from --help)
#   share/bash-completion/completions/collnoise     bash completion
#   lib/libcollnoise.a, include/collnoise/          the C++ library and its headers
#   lib/cmake/collnoise/                            find_package(collnoise) -> collnoise::collnoise
#   lib/python3.X/site-packages/collnoise/          the Python package (python/collnoise)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(COLLNOISE_DATA_DIR ${CMAKE_INSTALL_DATADIR}/collnoise)
set(COLLNOISE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/collnoise)

# The command finds the shipped run files from its own directory (app/shipped_runs.cpp), so the
# path from bin/ to share/collnoise/runs is compiled in; started from the build directory, it
# reads the source tree's runs/.
file(RELATIVE_PATH COLLNOISE_RUNS_FROM_BINDIR ${CMAKE_INSTALL_FULL_BINDIR}
     ${CMAKE_INSTALL_FULL_DATADIR}/collnoise/runs)
set_source_files_properties(
  ${CMAKE_SOURCE_DIR}/app/shipped_runs.cpp
  PROPERTIES COMPILE_DEFINITIONS "COLLNOISE_RUNS_FROM_BINDIR=\"${COLLNOISE_RUNS_FROM_BINDIR}\"")
set_source_files_properties(
  ${CMAKE_SOURCE_DIR}/app/executable_location.cpp
  PROPERTIES COMPILE_DEFINITIONS
             "COLLNOISE_BUILD_DIR=\"$<TARGET_FILE_DIR:collnoise>\";COLLNOISE_SOURCE_DIR=\"${CMAKE_SOURCE_DIR}\"")

# --- the command, its run files and documents ---------------------------------------------------
install(TARGETS collnoise RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
file(GLOB COLLNOISE_RUN_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/runs/*.toml)
install(FILES ${COLLNOISE_RUN_FILES} DESTINATION ${COLLNOISE_DATA_DIR}/runs)
install(DIRECTORY runs/data DESTINATION ${COLLNOISE_DATA_DIR}/runs)  # read relative to run files
install(DIRECTORY docs/ DESTINATION ${COLLNOISE_DATA_DIR}/docs)
install(FILES README.md CHANGELOG.md DESTINATION ${COLLNOISE_DATA_DIR})
# The deprecated reader and plotting script stay where scripts find them (share/collnoise/).
install(FILES python/legacy/collnoise_reader.py python/legacy/_collnoise_legacy.py
        DESTINATION ${COLLNOISE_DATA_DIR})
install(PROGRAMS python/legacy/plot_result.py DESTINATION ${COLLNOISE_DATA_DIR})
install(FILES scripts/collnoise-completion.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME collnoise)
install(PROGRAMS scripts/slurm-array.sh scripts/mpirun.sh DESTINATION ${COLLNOISE_DATA_DIR}/scripts)

# --- the man page: help2man, from `collnoise --help` and each command's --help -----------------
# Written after every link of the command, so that building the collnoise target alone (the
# README's command) is enough for `cmake --install`. Not for sanitized builds (nobody installs
# those, and the leak checker would judge the help text's exit).
find_program(HELP2MAN_EXECUTABLE help2man)
if(COLLNOISE_SANITIZE)
  message(STATUS "collnoise: no man page in a sanitized build")
elseif(NOT HELP2MAN_EXECUTABLE)
  message(WARNING "collnoise: help2man not found: no man page will be built or installed "
                  "(install help2man, e.g. `apt-get install help2man`, and configure again)")
else()
  set(COLLNOISE_MAN_PAGE ${CMAKE_BINARY_DIR}/collnoise.1)
  add_custom_command(
    TARGET collnoise POST_BUILD
    COMMAND ${CMAKE_COMMAND} -DCOLLNOISE=$<TARGET_FILE:collnoise> -DHELP2MAN=${HELP2MAN_EXECUTABLE}
            -DVERSION=${PROJECT_VERSION} -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
            -DOUTPUT=${COLLNOISE_MAN_PAGE} -P ${CMAKE_SOURCE_DIR}/cmake/man_page.cmake
    COMMENT "Writing the man page collnoise.1 (help2man)" VERBATIM)
  # Relinked (and the page written again) when the page's sources change.
  set_property(TARGET collnoise APPEND PROPERTY LINK_DEPENDS
               ${CMAKE_SOURCE_DIR}/cmake/man_page.cmake ${CMAKE_SOURCE_DIR}/cmake/collnoise.h2m)
  install(FILES ${COLLNOISE_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

# --- the C++ library: collnoise::collnoise ---------------------------------------------------------
add_library(collnoise::collnoise ALIAS collnoise_lib)
set_target_properties(collnoise_lib PROPERTIES OUTPUT_NAME collnoise EXPORT_NAME collnoise)
# No fused multiply-adds in consumers either: inline code of the headers then computes what the
# library computes, to the last bit (CMakeLists.txt, collnoise_warnings).
target_compile_options(collnoise_lib INTERFACE $<INSTALL_INTERFACE:-ffp-contract=off>)
# Headers include each other from the project root ("engine/tree_barrier/sampler.hpp"): they keep
# that layout under include/collnoise/, the include directory the package gives its consumers.
install(DIRECTORY core distributions estimators engine outputs runs
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/collnoise FILES_MATCHING PATTERN "*.hpp")
install(FILES ${CMAKE_BINARY_DIR}/generated/collnoise_version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/collnoise)
install(TARGETS collnoise_lib EXPORT collnoiseTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/collnoise)
install(EXPORT collnoiseTargets NAMESPACE collnoise:: DESTINATION ${COLLNOISE_CMAKE_DIR})

# The library is static: a consumer links everything it links, so the package config finds every
# package whose targets it names. Read from the target itself, so that a dependency added later
# cannot be forgotten here.
function(collnoise_find_dependency_lines out)
  get_target_property(links collnoise_lib LINK_LIBRARIES)
  set(lines "")
  set(seen "")
  foreach(item IN LISTS links)
    if(IS_ABSOLUTE "${item}")
      message(WARNING "collnoise: collnoise_lib links ${item} by its path: the installed package "
                      "config names it as is (link an imported target instead)")
    endif()
    string(REGEX MATCHALL "[A-Za-z0-9_]+::" namespaces "${item}")
    foreach(ns IN LISTS namespaces)
      string(REPLACE "::" "" ns "${ns}")
      if(ns STREQUAL "collnoise" OR ns IN_LIST seen)
        continue()
      endif()
      list(APPEND seen ${ns})
      if(ns STREQUAL "OpenMP")
        set(args "OpenMP COMPONENTS CXX")
      elseif(ns STREQUAL "hdf5")
        set(args "HDF5 COMPONENTS C")
      elseif(ns STREQUAL "MPI")
        set(args "MPI COMPONENTS CXX")
      elseif(ns STREQUAL "NLopt")
        # Debian installs NLopt's C and C++ configs under one package name: the C++ one.
        set(args "NLopt CONFIG HINTS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/nlopt_cxx")
      elseif(ns STREQUAL "Boost")
        set(args "Boost ${Boost_MAJOR_VERSION}.${Boost_MINOR_VERSION}")
      else()
        set(args "${ns}")  # TBB, fmt, tomlplusplus, xxHash, nlohmann_json, OTF2, Graphviz
      endif()
      string(APPEND lines "find_dependency(${args})\n")
    endforeach()
  endforeach()
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()
collnoise_find_dependency_lines(COLLNOISE_FIND_DEPENDENCIES)

if(COLLNOISE_WITH_MPI)
  set(COLLNOISE_CONFIG_WITH_MPI ON)
else()
  set(COLLNOISE_CONFIG_WITH_MPI OFF)
endif()
configure_package_config_file(cmake/collnoiseConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/package/collnoiseConfig.cmake
                              INSTALL_DESTINATION ${COLLNOISE_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/collnoiseConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/collnoiseConfig.cmake
              ${CMAKE_BINARY_DIR}/package/collnoiseConfigVersion.cmake cmake/FindxxHash.cmake
              cmake/FindOTF2.cmake cmake/FindGraphviz.cmake
        DESTINATION ${COLLNOISE_CMAKE_DIR})

# --- the Python package (python/collnoise) ---------------------------------------------------------
# Into the directory the interpreter of that prefix reads: on Debian, /usr -> lib/python3/
# dist-packages and /usr/local -> lib/python3.X/dist-packages (both on Debian's sys.path);
# any other prefix -> lib/python3.X/site-packages (the standard layout, as `pip install --prefix`
# uses; add it to PYTHONPATH). The prefix is only known at install time (`--prefix`), hence the
# choice in install(CODE). COLLNOISE_PYTHON_DIR (relative to the prefix) overrides it.
set(COLLNOISE_PYTHON_DIR "" CACHE STRING
    "Where the Python package goes, relative to the install prefix (empty: chosen by the prefix)")
if(EXISTS ${CMAKE_SOURCE_DIR}/python/collnoise/__init__.py)
  # Debian's own interpreter, as the scripts use (a python3 earlier on the PATH may be another).
  if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    set(python_version ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR})
    execute_process(
      COMMAND ${Python3_EXECUTABLE} -c
              "import sys; print(int('/usr/lib/python3/dist-packages' in sys.path))"
      OUTPUT_VARIABLE python_debian OUTPUT_STRIP_TRAILING_WHITESPACE)
  else()
    set(python_version 3)
    set(python_debian 0)
    message(WARNING "collnoise: no Python 3 interpreter found: the Python package goes to "
                    "lib/python3/site-packages unless COLLNOISE_PYTHON_DIR says where")
  endif()
  install(CODE "
    set(dir \"${COLLNOISE_PYTHON_DIR}\")
    if(NOT dir AND ${python_debian} AND CMAKE_INSTALL_PREFIX STREQUAL \"/usr\")
      set(dir lib/python3/dist-packages)
    elseif(NOT dir AND ${python_debian} AND CMAKE_INSTALL_PREFIX STREQUAL \"/usr/local\")
      set(dir lib/python${python_version}/dist-packages)
    elseif(NOT dir)
      set(dir lib/python${python_version}/site-packages)
    endif()
    file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/\${dir}\" TYPE DIRECTORY
         FILES \"${CMAKE_SOURCE_DIR}/python/collnoise\" PATTERN __pycache__ EXCLUDE)
    message(STATUS \"collnoise: Python package in \${CMAKE_INSTALL_PREFIX}/\${dir} \"
                   \"(PYTHONPATH=\${CMAKE_INSTALL_PREFIX}/\${dir} if it is not on sys.path)\")
  ")
  # `collnoise plot` (app/plot_command.cpp) runs this interpreter on the package: the one
  # found above when it has the modules the figures need (recorded in the cache; a python3 on
  # the PATH may lack h5py), else python3 from the PATH, whose error then names what is missing.
  # It finds the installed package beside its executable: each place the install code above may
  # choose, relative to bin/.
  if(NOT DEFINED COLLNOISE_PLOT_PYTHON)
    set(plot_python python3)
    if(Python3_FOUND)
      execute_process(COMMAND ${Python3_EXECUTABLE} -c "import h5py, numpy, pandas, matplotlib"
                      RESULT_VARIABLE python_modules_missing OUTPUT_QUIET ERROR_QUIET)
      if(python_modules_missing)
        message(WARNING "collnoise: ${Python3_EXECUTABLE} lacks h5py, numpy, pandas or "
                        "matplotlib: `collnoise plot` will need them (Debian: python3-h5py "
                        "python3-numpy python3-pandas python3-matplotlib)")
      else()
        set(plot_python ${Python3_EXECUTABLE})
      endif()
    endif()
    set(COLLNOISE_PLOT_PYTHON ${plot_python} CACHE STRING
        "The Python interpreter `collnoise plot` runs (with h5py, numpy, pandas, matplotlib)")
  endif()
  file(RELATIVE_PATH prefix_from_bindir ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_PREFIX})
  if(COLLNOISE_PYTHON_DIR)
    set(python_dirs ${COLLNOISE_PYTHON_DIR})
  else()
    set(python_dirs lib/python3/dist-packages lib/python${python_version}/dist-packages
                    lib/python${python_version}/site-packages)
  endif()
  list(TRANSFORM python_dirs PREPEND "${prefix_from_bindir}/")
  list(JOIN python_dirs ":" python_dirs)
  set_source_files_properties(
    ${CMAKE_SOURCE_DIR}/app/plot_command.cpp
    PROPERTIES COMPILE_DEFINITIONS
               "COLLNOISE_PLOT_PYTHON=\"${COLLNOISE_PLOT_PYTHON}\";COLLNOISE_PYTHON_DIRS_FROM_BINDIR=\"${python_dirs}\"")
  message(STATUS "collnoise: `collnoise plot` runs ${COLLNOISE_PLOT_PYTHON}")
else()
  message(STATUS "collnoise: no python/collnoise package in the source tree: none installed")
endif()
