# SPDX-License-Identifier: BSD-2-Clause
# DIO_CHECK_CFLAG(FLAG, [ACTION-IF-OK], [ACTION-IF-NOT])
# -----------------------------------------------------
# Compile an empty program with FLAG added (and -Werror, so that compilers
# which merely warn about an unknown option count as not accepting it).
AC_DEFUN([DIO_CHECK_CFLAG],
[AS_VAR_PUSHDEF([dio_var], [dio_cv_cflag_$1])dnl
AC_CACHE_CHECK([whether $CC accepts $1], [dio_var],
  [dio_save_CFLAGS=$CFLAGS
   CFLAGS="$CFLAGS -Werror $1"
   AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
     [AS_VAR_SET([dio_var], [yes])], [AS_VAR_SET([dio_var], [no])])
   CFLAGS=$dio_save_CFLAGS])
AS_VAR_IF([dio_var], [yes], [$2], [$3])dnl
AS_VAR_POPDEF([dio_var])dnl
])
