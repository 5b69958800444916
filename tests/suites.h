/* SPDX-License-Identifier: BSD-2-Clause */
/* suites.h -- the Check suites linked into tests/check_core. */
#ifndef DIO_SUITES_H
#define DIO_SUITES_H

#include <check.h>

Suite *errors_suite(void);
Suite *file_suite(void);
Suite *io_suite(void);
Suite *align_suite(void);
Suite *scsi_suite(void);

#endif
