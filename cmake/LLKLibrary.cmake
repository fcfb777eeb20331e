# libllk.so: llk's compiler, interpreter, runtime and JIT in one shared
# library, which every llk program, the C interface (llk/runtime.h) and other
# languages use.
#
# MLIR is linked into it statically, once, in every build: llk's code is
# built by GCC while Debian's libMLIR.so is built by Clang, and the two name
# the local types of MLIR's trait TypeIDs differently (TypeID::get<Trait>()),
# so trait queries across that boundary fail (func.return would not be a
# terminator). libllk.so therefore exports MLIR (the compiler's C++ API is
# MLIR's) along with llk's API, and programs that use MLIR's API themselves
# (llkc, llk-opt, llk-run, the kernel checks) take it from there, linking the
# static libraries after libllk.so only for what it does not hold.
#
# LLVM: with Debian's packages (the default) libLLVM.so; with
# LLK_STATIC_LLVM (for the GPU machine, which has no LLVM) static and inside
# libllk.so too, exported, with the C++ runtime (cmake/LLKStaticLLVM.cmake).
# Programs find libllk.so at $ORIGIN/../lib.

find_package(Threads REQUIRED)

set(LLK_LIBRARY_COMPONENTS LLKTileDialect LLKTileTransforms LLKAnalysis
    LLKTileToGPU LLKNVVMTransforms LLKTargetPTX LLKCompiler LLKInterpreter)
set(llk_objects $<TARGET_OBJECTS:LLKSupport>)
foreach(component ${LLK_LIBRARY_COMPONENTS})
  list(APPEND llk_objects $<TARGET_OBJECTS:obj.${component}>)
endforeach()
# The runtime and the JIT (runtime/CMakeLists.txt, which needs cuda.h).
foreach(part LLKRuntimeObjects LLKJITObjects)
  list(APPEND llk_objects
       $<$<TARGET_EXISTS:${part}>:$<TARGET_OBJECTS:${part}>>)
endforeach()

add_library(llk SHARED ${llk_objects})
target_include_directories(llk PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/runtime/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
set_target_properties(llk PROPERTIES
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
# Calls inside the library stay inside it, whatever else a process loads
# (another MLIR or LLVM, another C++ runtime).
target_link_options(llk PRIVATE -Wl,--no-undefined -Wl,-Bsymbolic-functions)
# The MLIR libraries llk's components name (and, with LLK_STATIC_LLVM, the
# static LLVM ones), once lib/ has defined the components.
function(llk_link_dependencies)
  set(dependencies)
  foreach(component ${LLK_LIBRARY_COMPONENTS})
    get_target_property(links ${component} LINK_LIBRARIES)
    list(APPEND dependencies ${links})
  endforeach()
  list(REMOVE_ITEM dependencies ${LLK_LIBRARY_COMPONENTS})
  list(REMOVE_DUPLICATES dependencies)
  target_link_libraries(llk PRIVATE ${dependencies})
endfunction()
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL llk_link_dependencies)
target_link_libraries(llk PRIVATE ${CMAKE_DL_LIBS} Threads::Threads)
if(LLK_STATIC_LLVM)
  # Debian's static zlib and zstd are not position-independent: kept out of
  # the exports, their references resolve inside the library.
  target_link_options(llk PRIVATE -Wl,--exclude-libs,libz.a:libzstd.a)
else()
  # llk's and MLIR's API (cmake/llk.exports), not LLVM's (libLLVM.so has
  # it) nor the standard library's templates that the code instantiates.
  target_link_options(llk PRIVATE
    -Wl,--version-script=${PROJECT_SOURCE_DIR}/cmake/llk.exports)
  set_property(TARGET llk APPEND PROPERTY LINK_DEPENDS
               ${PROJECT_SOURCE_DIR}/cmake/llk.exports)
endif()

# What other CMake projects link (llkConfig.cmake): llk::runtime and llk::jit
# are libllk.so with the runtime's headers; llk::compiler (the C++ compiler
# API, over MLIR) is defined by llkConfig.cmake, which finds MLIR's headers.
add_library(llk_runtime_api INTERFACE)
target_link_libraries(llk_runtime_api INTERFACE llk)
set_target_properties(llk_runtime_api PROPERTIES EXPORT_NAME runtime)
add_library(llk_jit_api INTERFACE)
target_link_libraries(llk_jit_api INTERFACE llk)
set_target_properties(llk_jit_api PROPERTIES EXPORT_NAME jit)
add_library(llk::llk ALIAS llk)
add_library(llk::runtime ALIAS llk_runtime_api)
add_library(llk::jit ALIAS llk_jit_api)

# Links `target` (a program) to libllk.so. The rest of ARGN: the MLIR
# libraries the program's own code uses, linked after libllk.so, so that
# only what libllk.so does not hold comes from them (llk-opt's
# MlirOptMain, say).
function(llk_link_program target)
  target_link_libraries(${target} PRIVATE llk ${ARGN})
  if(NOT LLK_STATIC_LLVM)
    target_link_libraries(${target} PRIVATE LLVM) # for its own use of LLVM
  endif()
  set_target_properties(${target} PROPERTIES
    BUILD_RPATH "\$ORIGIN/../lib"
    INSTALL_RPATH "\$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
endfunction()
