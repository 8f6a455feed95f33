/* SPDX-License-Identifier: MIT */
/*
 * test_devices.c - unit tests for target.devices in the JSON result
 * (format/result_write.c, result_read.c): every device a filesystem sits
 * on is written when there are two or more and read back; one device
 * writes no list (the JSON as before it existed) and reads back as the
 * one the target's keys name; a list of another type is refused.  The
 * reports say a device's queue/rotational as what the kernel reports.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "cdm/model/result.h"
#include "cdm/format/result_read.h"
#include "cdm/report/report.h"
#include "unit.h"

/* a run on @n devices ("loop1", "loop2"...; the first also in dev_*) */
static struct cdm_run_result *on_devices(unsigned int n)
{
	struct cdm_run_result *r = cdm_result_alloc(0);

	assert_non_null(r);
	snprintf(r->info.version, sizeof(r->info.version), "0.1.0");
	snprintf(r->info.engine, sizeof(r->info.engine), "sync");
	snprintf(r->info.target, sizeof(r->info.target), "/mnt/raid0");
	snprintf(r->info.fs_type, sizeof(r->info.fs_type), "btrfs");
	r->info.count = 1;
	r->info.time_ms = 1000;
	r->info.size = 1 << 20;
	r->info.ndevices = n;
	for (unsigned int i = 0; i < n; i++) {
		struct cdm_dev_info *d = &r->info.devices[i];

		snprintf(d->name, sizeof(d->name), "loop%u", i + 1);
		d->rotational = i ? CDM_ROT_NO : CDM_ROT_YES;
		snprintf(d->scheduler, sizeof(d->scheduler), "none");
		d->logical_block = i ? 4096 : 0;
	}
	snprintf(r->info.dev_name, sizeof(r->info.dev_name), "loop1");
	snprintf(r->info.dev_model, sizeof(r->info.dev_model), "%s", n > 1 ? "" : "M");
	r->info.dev_rotational = CDM_ROT_YES;
	snprintf(r->info.dev_scheduler, sizeof(r->info.dev_scheduler), "none");
	return r;
}

/* @r's JSON (the caller frees it); @r is freed */
static char *json_of(struct cdm_run_result *r, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	assert_int_equal(cdm_report_find("json")->write(f, r), 0);
	assert_int_equal(fclose(f), 0);
	cdm_result_free(r);
	return buf;
}

static void test_two_devices(void **state)
{
	struct cdm_run_result *back;
	struct cdm_err err;
	size_t len;
	char *buf = json_of(on_devices(2), &len);

	(void)state;
	assert_non_null(strstr(buf, "\"devices\": [\n"));
	assert_non_null(strstr(buf, "{ \"name\": \"loop1\", \"model\": null, \"rotational\": true, \"scheduler\": \"none\", \"logical_block_bytes\": null }"));
	assert_non_null(strstr(buf, "{ \"name\": \"loop2\", \"model\": null, \"rotational\": false, \"scheduler\": \"none\", \"logical_block_bytes\": 4096 }"));
	if (cdm_result_read(buf, len, CDM_RESULT_READ_AGGREGATE, &back, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(back->info.ndevices, 2);
	assert_string_equal(back->info.devices[1].name, "loop2");
	assert_int_equal(back->info.devices[1].rotational, CDM_ROT_NO);
	assert_int_equal(back->info.devices[1].logical_block, 4096);
	assert_int_equal(back->info.devices[0].logical_block, 0);
	assert_string_equal(back->info.dev_name, "loop1");
	cdm_result_free(back);
	free(buf);
}

static void test_one_device(void **state)
{
	struct cdm_run_result *back;
	struct cdm_err err;
	size_t len;
	char *buf = json_of(on_devices(1), &len), *p;

	(void)state;
	assert_null(strstr(buf, "\"devices\""));
	if (cdm_result_read(buf, len, CDM_RESULT_READ_AGGREGATE, &back, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(back->info.ndevices, 1);
	assert_string_equal(back->info.devices[0].name, "loop1");
	assert_string_equal(back->info.devices[0].model, "M");
	assert_int_equal(back->info.devices[0].rotational, CDM_ROT_YES);
	cdm_result_free(back);
	/* another type, or an element that is no object, is refused */
	p = strstr(buf, "\"memory_under\": []");
	assert_non_null(p);
	memcpy(p, "\"devices\": 7      ", 18);
	assert_int_equal(cdm_result_read(buf, len, CDM_RESULT_READ_AGGREGATE, &back, &err), -EINVAL);
	assert_string_equal(err.msg, "not a valid cdm result: target.devices: expected array, found number");
	memcpy(p, "\"devices\": [7]    ", 18);
	assert_int_equal(cdm_result_read(buf, len, CDM_RESULT_READ_AGGREGATE, &back, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "target.devices[0]: expected object, found number"));
	free(buf);
}

/*
 * issue 25, item 9: queue/rotational is what the driver says (a virtual
 * disk often says 1), and the reports printed it as a fact about the
 * device; each now says that the kernel reports it
 */
static void test_rotational_reported(void **state)
{
	struct cdm_run_result *r = on_devices(2);
	char *out;

	(void)state;
	out = unit_render("markdown", r);
	assert_non_null(strstr(out, ", device loop1 (model unknown), reported rotational by the kernel and loop2 (model unknown), reported non-rotational by the kernel;"));
	assert_null(strstr(out, "), rotational"));
	free(out);
	out = unit_render("svg", r);
	assert_non_null(strstr(out, "Device: loop1, model unknown, reported rotational by the kernel"));
	free(out);
	r->info.dev_rotational = CDM_ROT_NO;
	out = unit_render("svg", r);
	assert_non_null(strstr(out, "Device: loop1, model unknown, reported non-rotational by the kernel"));
	free(out);
	cdm_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_devices),
		cmocka_unit_test(test_one_device),
		cmocka_unit_test(test_rotational_reported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
