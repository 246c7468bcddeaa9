# The Debian package, from the install rules (cmake/collnoiseInstall.cmake):
#   cpack --config build/CPackConfig.cmake -G DEB -B build/package
# The command and library are built for the build machine's CPU unless COLLNOISE_NATIVE=OFF:
# configure with -DCOLLNOISE_NATIVE=OFF for a package meant for other machines.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME collnoise)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Monte Carlo engine for the impact of noise on collective operations at scale")
set(CPACK_PACKAGE_CONTACT "collnoise developers <collnoise@localhost>")
# Installed through DESTDIR, so that install-time choices (the Python package's directory) see
# the real prefix, /usr.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The runtime libraries, from the binary when dpkg-shlibdeps is there; else Debian 12's names.
find_program(COLLNOISE_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(COLLNOISE_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "libc6, libstdc++6, libgomp1, libtbb12, libhdf5-103-1, libfmt9, libtomlplusplus3, libxxhash0, libmuparser2v5, libnlopt-cxx0, libcgraph6")
  if(COLLNOISE_WITH_MPI)
    string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libopenmpi3")
  endif()
  if(COLLNOISE_OTF2)
    string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libopen-trace-format2-10")
  endif()
endif()
# The Python package (and the deprecated reader and plotting script); and what building against
# the static library needs.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "python3, python3-h5py, python3-numpy, python3-matplotlib, python3-xxhash")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
    "libtbb-dev, libhdf5-dev, libfmt-dev, libtomlplusplus-dev, libboost-math-dev, libxxhash-dev, libmuparser-dev, libnlopt-cxx-dev, libgraphviz-dev, libotf2-trace-dev, otf2-tools")
if(COLLNOISE_NATIVE)
  message(STATUS "collnoise: the package (cpack) is built for this CPU (-march=native); "
                 "COLLNOISE_NATIVE=OFF for other machines")
endif()
include(CPack)
