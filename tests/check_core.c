/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * check_core.c -- the library's unit and behaviour tests that run
 * anywhere: files are created in $DIO_TEST_DIR (default: the build
 * directory), whatever file system that is.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>

#include "libdirectio.h"
#include "tests/suites.h"
#include "tests/testutil.h"

int
main(void)
{
	SRunner *sr = srunner_create(errors_suite());

	srunner_add_suite(sr, file_suite());
	srunner_add_suite(sr, io_suite());
	srunner_add_suite(sr, align_suite());
	srunner_add_suite(sr, scsi_suite());
	printf("libdirectio %s, backend %s, caps 0x%x, test dir %s\n",
	       dio_version_string(), dio_backend_name(), dio_caps(), tu_dir());
	return tu_run(sr);
}
