# SPDX-License-Identifier: BSD-2-Clause
# dio_mpi.m4 -- DIO_WITH_MPI: --with-mpi for the MPI builds of the tools.
#
# With an MPI, sync-write-mpi and dio-dd-mpi are built besides sync-write
# and dio-dd (the same objects, linked with the kit's MPI team instead of
# its stand-in), so that the tools never need MPI and the MPI builds can
# be installed beside them.
#
# --with-mpi=auto (default): use the MPI of the first C wrapper found
# (mpicc), if a program calling MPI_Init links with its flags; nothing
# otherwise.  yes: the same, but its absence is an error.  no: none.
# openmpi / mpich: that implementation's wrapper (mpicc.openmpi,
# mpicc.mpich, as Debian installs them side by side).  A path: that
# wrapper.  The flags come from the wrapper itself (--showme for Open MPI,
# -show for MPICH); the library and the tools are still compiled by $CC,
# and only the MPI builds link MPI.
#
# Sets MPI_CFLAGS, MPI_LIBS, MPI_FLAVOR (openmpi, mpich or other) and
# MPIEXEC (the launcher that goes with the wrapper, for the tests); the
# conditional HAVE_MPI and the define HAVE_MPI; dio_mpi_programs (for
# configure's summary).
AC_DEFUN([DIO_WITH_MPI], [
AC_ARG_WITH([mpi],
  [AS_HELP_STRING([--with-mpi@<:@=auto|yes|no|openmpi|mpich|PATH-TO-MPICC@:>@],
                  [also build sync-write-mpi and dio-dd-mpi, which run as the ranks of an MPI job across hosts (default: auto, where mpicc exists)])],
  [], [with_mpi=auto])
dio_mpi=no
MPI_CFLAGS=
MPI_LIBS=
MPI_FLAVOR=
MPIEXEC=
AS_CASE([$with_mpi],
  [no], [dio_mpicc=],
  [auto|yes], [AC_PATH_PROGS([dio_mpicc], [mpicc], [])],
  [openmpi], [AC_PATH_PROGS([dio_mpicc], [mpicc.openmpi mpicc], [])],
  [mpich], [AC_PATH_PROGS([dio_mpicc], [mpicc.mpich mpicc], [])],
  [/*], [dio_mpicc=$with_mpi],
  [AC_MSG_ERROR([--with-mpi: '$with_mpi' is not auto, yes, no, openmpi, mpich or an absolute path to an MPI C wrapper])])
AS_IF([test -n "$dio_mpicc"], [
  AC_MSG_CHECKING([the MPI flags of $dio_mpicc])
  AS_IF([dio_mpi_cmd=`"$dio_mpicc" --showme 2>/dev/null`], [MPI_FLAVOR=openmpi],
        [dio_mpi_cmd=`"$dio_mpicc" -show 2>/dev/null`], [MPI_FLAVOR=mpich],
        [dio_mpi_cmd=])
  # The first word is the compiler the wrapper calls; of the rest, -I and
  # -D are for compiling, the others (-L, -l, -Wl, -pthread) for linking.
  set dummy $dio_mpi_cmd
  shift
  AS_IF([test $[#] -gt 0], [shift])
  for dio_w in "$[@]"; do
    AS_CASE([$dio_w],
      [-I*|-D*], [MPI_CFLAGS="$MPI_CFLAGS $dio_w"],
      [-c|-o], [],
      [MPI_LIBS="$MPI_LIBS $dio_w"])
  done
  AC_MSG_RESULT([${MPI_CFLAGS:-none}${MPI_LIBS:+ /}$MPI_LIBS])
  AC_MSG_CHECKING([whether a program calling MPI_Init links])
  dio_save_CFLAGS=$CFLAGS
  dio_save_LIBS=$LIBS
  CFLAGS="$CFLAGS $MPI_CFLAGS"
  LIBS="$MPI_LIBS $LIBS"
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
                                  [[int n = 0; MPI_Init(0, 0); MPI_Comm_size(MPI_COMM_WORLD, &n);
                                    MPI_Finalize(); return n < 1;]])],
                 [dio_mpi=yes], [dio_mpi=no])
  CFLAGS=$dio_save_CFLAGS
  LIBS=$dio_save_LIBS
  AC_MSG_RESULT([$dio_mpi])
  AS_IF([test "x$MPI_FLAVOR" = xopenmpi],
          [AC_PATH_PROGS([MPIEXEC], [mpirun.openmpi mpirun], [])],
        [test "x$MPI_FLAVOR" = xmpich],
          [AC_PATH_PROGS([MPIEXEC], [mpiexec.mpich mpiexec.hydra mpiexec], [])])
])
AS_IF([test "x$dio_mpi" = xno && test "x$with_mpi" != xno && test "x$with_mpi" != xauto],
  [AC_MSG_ERROR([--with-mpi=$with_mpi: no working MPI (a C wrapper such as mpicc whose flags link MPI_Init); install libopenmpi-dev or libmpich-dev, or pass --without-mpi])])
dio_mpi_programs=
AS_IF([test "x$dio_mpi" = xyes],
  [AC_DEFINE([HAVE_MPI], [1], [Define if sync-write-mpi and dio-dd-mpi are built])
   dio_mpi_programs="sync-write-mpi, dio-dd-mpi (${MPI_FLAVOR:-an MPI}: $dio_mpicc)"],
  [MPI_CFLAGS=; MPI_LIBS=; MPI_FLAVOR=; MPIEXEC=])
AM_CONDITIONAL([HAVE_MPI], [test "x$dio_mpi" = xyes])
AC_SUBST([MPI_CFLAGS])
AC_SUBST([MPI_LIBS])
AC_SUBST([MPI_FLAVOR])
AC_SUBST([MPIEXEC])
])
