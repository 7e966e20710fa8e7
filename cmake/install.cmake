# `cmake --install build --prefix P`: the binary in P/bin, everything it reads in P/share/gpucast
# (found from the binary's own location, no environment variable), the Python package in
# P/lib/python3/dist-packages (see python/CMakeLists.txt). `cpack -G DEB` packages the same tree.
set(GPUCAST_SHARE ${CMAKE_INSTALL_DATADIR}/gpucast)

install(DIRECTORY hardware/catalog hardware/calibrated DESTINATION ${GPUCAST_SHARE}/hardware)
install(DIRECTORY workloads/examples DESTINATION ${GPUCAST_SHARE}/workloads)
# Scripts calibrate and validate run on a GPU machine.
install(FILES calibration/microbench/framework_overhead.py DESTINATION ${GPUCAST_SHARE}/calibration/microbench)
install(DIRECTORY calibration/validation/ DESTINATION ${GPUCAST_SHARE}/calibration/validation FILES_MATCHING PATTERN "*.py")
install(DIRECTORY docs/schemas DESTINATION ${GPUCAST_SHARE}/docs)

# Chart libraries for --html (pinned in reports/web/package-lock.json, fetched by npm ci): only the
# three minified builds and their package.json (for the versions a report names).
foreach(lib vega vega-lite vega-embed)
  set(dir ${PROJECT_SOURCE_DIR}/reports/web/node_modules/${lib})
  install(FILES ${dir}/build/${lib}.min.js DESTINATION ${GPUCAST_SHARE}/reports/web/node_modules/${lib}/build OPTIONAL)
  install(FILES ${dir}/package.json DESTINATION ${GPUCAST_SHARE}/reports/web/node_modules/${lib} OPTIONAL)
endforeach()
if(NOT EXISTS ${PROJECT_SOURCE_DIR}/reports/web/node_modules/vega-embed/build/vega-embed.min.js)
  message(STATUS "gpucast: chart libraries not in reports/web/node_modules (npm ci): an install will lack --html")
endif()

set(CPACK_PACKAGE_NAME gpucast)
set(CPACK_PACKAGE_VENDOR "gpucast")
set(CPACK_PACKAGE_CONTACT "gpucast maintainers <gpucast@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Analytical GPU performance simulator (CLI, HTML reports, Python module)")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# Shared-library dependencies from the binaries (dpkg-shlibdeps), plus the Python the module needs.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3")
set(CPACK_GENERATOR DEB)
include(CPack)
