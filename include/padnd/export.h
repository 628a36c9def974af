/* SPDX-License-Identifier: Apache-2.0 */
/* What padnd's shared library exports. The library is compiled with hidden visibility; the
 * declarations of the public headers, between PADND_PUBLIC_BEGIN and PADND_PUBLIC_END, are the
 * shared library's whole interface (the padnd_* C functions and the padnd:: C++ API). */
#ifndef PADND_EXPORT_H
#define PADND_EXPORT_H

/* Only while compiling the shared library (CMake defines PADND_SHARED_BUILD): a static libpadnd
 * and the code that includes these headers mark nothing, so that a shared object linking
 * libpadnd.a, or using the headers, does not re-export padnd. */
#if defined(__GNUC__) && defined(PADND_SHARED_BUILD)
#define PADND_PUBLIC_BEGIN _Pragma("GCC visibility push(default)")
#define PADND_PUBLIC_END _Pragma("GCC visibility pop")
#else
#define PADND_PUBLIC_BEGIN
#define PADND_PUBLIC_END
#endif

#endif /* PADND_EXPORT_H */
