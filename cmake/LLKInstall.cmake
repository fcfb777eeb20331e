# `cmake --install <build> --prefix P`: libllk.so, libllk_runtime.a, llkc,
# llk-opt, llk-run, the headers (with tablegen's), the CMake package
# (find_package(llk CONFIG): llk::runtime, llk::jit, llk::compiler,
# llk::runtime_static) and pkg-config's llk_runtime.pc. Everything is
# relative to P, so the prefix given at install time is the one used.
include(CMakePackageConfigHelpers)

set(LLK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/llk)
set(llk_install_targets llk llk_runtime_api llk_jit_api llkc llk-opt llk-run)
if(TARGET LLKRuntime)
  list(APPEND llk_install_targets LLKRuntime)
endif()
# Installed programs find libllk.so beside them (../lib) and, with Debian's
# LLVM, libMLIR.so where it is (its directory is on no default path).
set_target_properties(llk PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
foreach(tool llkc llk-opt llk-run)
  set_target_properties(${tool} PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
endforeach()
install(TARGETS ${llk_install_targets}
  EXPORT llkTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/llk
                  ${PROJECT_SOURCE_DIR}/runtime/include/llk
                  ${PROJECT_BINARY_DIR}/include/llk
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.h.inc" PATTERN "*.td"
  PATTERN "CMakeFiles" EXCLUDE)

install(EXPORT llkTargets NAMESPACE llk:: DESTINATION ${LLK_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/llkConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/llkConfig.cmake
  INSTALL_DESTINATION ${LLK_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/llkConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/llkConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/llkConfigVersion.cmake
  DESTINATION ${LLK_INSTALL_CMAKEDIR})

configure_file(${PROJECT_SOURCE_DIR}/cmake/llk_runtime.pc.in
               ${PROJECT_BINARY_DIR}/cmake/llk_runtime.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/cmake/llk_runtime.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
