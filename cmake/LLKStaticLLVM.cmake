# LLK_STATIC_LLVM: link LLVM and MLIR statically into llk's programs, so that
# they run on a machine without LLVM installed (the GPU machine).
#
# Debian ships every LLVM and MLIR library as a static archive, but its MLIR
# exports name the shared libLLVM (target `LLVM`) as their link dependency,
# and LLVMSupport names shared zlib, zstd and z3. Rewrite those imported
# targets to the static LLVM component libraries and static zlib/zstd; z3 is
# only used by LLVM's SMT solver, which nothing here references.

set(LLVM_LINK_LLVM_DYLIB OFF) # add_mlir_library's LINK_COMPONENTS: static libs

set(LLK_STATIC_LLVM_COMPONENTS
  Core Support Demangle BinaryFormat TargetParser
  AsmParser BitReader BitWriter IRReader IRPrinter Linker
  Analysis TransformUtils Passes Target MC Object
  FrontendOpenMP FrontendOffloading
  NVPTXCodeGen NVPTXDesc NVPTXInfo
  CACHE STRING "LLVM components linked statically with LLK_STATIC_LLVM")
llvm_map_components_to_libnames(llk_static_llvm_libs ${LLK_STATIC_LLVM_COMPONENTS})

get_directory_property(llk_imported IMPORTED_TARGETS)
set(llk_rewritten 0)
foreach(target ${llk_imported})
  get_target_property(libs ${target} INTERFACE_LINK_LIBRARIES)
  if(libs AND "LLVM" IN_LIST libs)
    list(REMOVE_ITEM libs LLVM)
    list(APPEND libs ${llk_static_llvm_libs})
    set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES "${libs}")
    math(EXPR llk_rewritten "${llk_rewritten} + 1")
  endif()
endforeach()

find_library(LLK_LIBZ_STATIC NAMES libz.a)
find_library(LLK_LIBZSTD_STATIC NAMES libzstd.a)
if(NOT LLK_LIBZ_STATIC OR NOT LLK_LIBZSTD_STATIC)
  message(FATAL_ERROR "LLK_STATIC_LLVM needs libz.a and libzstd.a "
                      "(apt-get install zlib1g-dev libzstd-dev)")
endif()
get_target_property(libs LLVMSupport INTERFACE_LINK_LIBRARIES)
list(FILTER libs EXCLUDE REGEX "z3|^ZLIB::|^zstd::")
list(APPEND libs ${LLK_LIBZ_STATIC} ${LLK_LIBZSTD_STATIC})
set_target_properties(LLVMSupport PROPERTIES INTERFACE_LINK_LIBRARIES "${libs}")

# The C++ runtime of this compiler may be newer than the target machine's.
add_link_options(-static-libstdc++ -static-libgcc)
message(STATUS "LLK_STATIC_LLVM: ${llk_rewritten} MLIR targets relinked to "
               "static LLVM components: ${LLK_STATIC_LLVM_COMPONENTS}")
