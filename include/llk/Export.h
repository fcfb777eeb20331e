/*===- llk/Export.h - what libllk.so exports --------------------*- C -*-===*
 *
 * llk's code is compiled with -fvisibility=hidden: libllk.so exports only
 * what is marked LLK_API (the C interface of llk/runtime.h and the C++ API
 * of the runtime, the JIT, the compiler and the interpreter). C and C++.
 *
 *===----------------------------------------------------------------------===*/

#ifndef LLK_EXPORT_H
#define LLK_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define LLK_API __attribute__((visibility("default")))
/* Around declarations that cannot carry LLK_API (tablegen's classes). */
#define LLK_API_BEGIN _Pragma("GCC visibility push(default)")
#define LLK_API_END _Pragma("GCC visibility pop")
#else
#define LLK_API
#define LLK_API_BEGIN
#define LLK_API_END
#endif

#endif /* LLK_EXPORT_H */
