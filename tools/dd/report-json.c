#include "config.h"

#include "tools/dd/dd.h"

static void
json_str_or_null(FILE *fp, const char *s)
{
	if (s)
		diot_json_string(fp, s);
	else
		fputs("null", fp);
}

static void
json_row(struct dd *dd, FILE *fp, const struct row *r, const char *ind)
{
	uint64_t cnt[NLOG2];
	int i, first = 1;

	fprintf(fp, "%s\"name\": ", ind);
	diot_json_string(fp, r->name);
	fprintf(fp, ",\n%s\"input\": ", ind);
	json_str_or_null(fp, r->input);
	fprintf(fp, ",\n%s\"output\": ", ind);
	json_str_or_null(fp, r->output);
	fprintf(fp, ",\n%s\"io\": \"%s\",\n", ind, r->io);
	fprintf(fp, "%s\"bytes\": %" PRIu64 ",\n", ind, r->bytes);
	fprintf(fp, "%s\"records_in\": {\"full\": %" PRIu64 ", \"partial\": %" PRIu64 "},\n",
	        ind, r->full, r->partial);
	fprintf(fp, "%s\"records_out\": {\"full\": %" PRIu64 ", \"partial\": %" PRIu64 "},\n",
	        ind, r->wfull, r->wpartial);
	fprintf(fp, "%s\"calls\": %" PRIu64 ",\n", ind, r->calls);
	fprintf(fp, "%s\"wall_s\": ", ind);
	diot_json_num(fp, r->wall_s);
	fprintf(fp, ",\n%s\"io_s\": ", ind);
	diot_json_num(fp, r->io_s);
	fprintf(fp, ",\n%s\"mb_per_s\": ", ind);
	diot_json_num(fp, r->mbs);
	fprintf(fp, ",\n%s\"mib_per_s\": ", ind);
	diot_json_num(fp, r->mibs);
	fprintf(fp, ",\n%s\"latency_us\": {\"mean\": ", ind);
	diot_json_num(fp, us(r->h, 0));
	fprintf(fp, ", \"p50\": ");
	diot_json_num(fp, us(r->h, 0.5));
	fprintf(fp, ", \"p90\": ");
	diot_json_num(fp, us(r->h, 0.9));
	fprintf(fp, ", \"p99\": ");
	diot_json_num(fp, us(r->h, 0.99));
	fprintf(fp, ", \"max\": ");
	diot_json_num(fp, us(r->h, 1));
	fprintf(fp, "},\n%s\"histogram\": [", ind);
	log2_buckets(r->h, cnt);
	for (i = 0; i < NLOG2; i++) {
		if (!cnt[i])
			continue;
		fprintf(fp, "%s{\"from_ns\": %" PRIu64 ", \"below_ns\": %" PRIu64
		        ", \"calls\": %" PRIu64 "}", first ? "" : ", ",
		        i == 0 ? (uint64_t)0 : (uint64_t)1 << i, (uint64_t)1 << (i + 1),
		        cnt[i]);
		first = 0;
	}
	fprintf(fp, "],\n%s\"cpu_s\": ", ind);
	diot_json_num(fp, r->cpu_s);
	fprintf(fp, ",\n%s\"sg\": ", ind);
	if (r->sg_cmds) {
		fprintf(fp, "{\"commands\": %" PRIu64 ", \"direct_asked\": %s, "
		        "\"direct_not_done\": %" PRIu64 ", \"reason\": ", r->sg_cmds,
		        dd->o.dio ? "true" : "false", r->sg_nd);
		json_str_or_null(fp, r->sg_nd ? r->reason : NULL);
		fputc('}', fp);
	} else {
		fputs("null", fp);
	}
	fprintf(fp, ",\n%s\"status\": \"%s\",\n%s\"error\": ", ind, r->status, ind);
	json_str_or_null(fp, r->error);
	fputc('\n', fp);
}

void
print_json(struct dd *dd, FILE *fp, const struct row *rows, int n, const struct row *tot, double cu,
           double cs)
{
	int i;

	fprintf(fp, "{\n  \"tool\": \"dio-dd\",\n  \"version\": \"%s\",\n  \"backend\": \"%s\",\n",
	        dio_version_string(), dio_backend_name());
	fprintf(fp, "  \"mode\": \"%s\",\n  \"io\": \"%s\",\n  \"engine\": \"%s\",\n",
	        mode_name(dd), dd->total_io, engine_name(dd));
	fprintf(fp, "  \"engine_note\": ");
	json_str_or_null(fp, dd->engine_note[0] ? dd->engine_note : NULL);
	fprintf(fp, ",\n  \"processes\": %s", dd->o.procs ? "true" : "false");
	fprintf(fp, ",\n  \"worker_sessions\": %s", !dd->o.procs ? "null" :
	        dd->o.same_session ? "\"one\"" : "\"each\"");
	fprintf(fp, ",\n  \"fadvise\": \"%s\"", fadvise_words[dd->o.fadvise]);
	fprintf(fp, ",\n  \"buffer_page_bytes\": %zu", buffer_page(dd));
	fprintf(fp, ",\n  \"buffer_offset\": %zu", dd->buf_off);
	fprintf(fp, ",\n  \"qd\": %" PRIu64 ",\n  \"threads\": %" PRIu64 ",\n  \"bs\": %" PRIu64
	        ",\n  \"bpt\": %" PRIu64 ",\n  \"transfer_bytes\": %zu,\n  \"skip\": %" PRIu64
	        ",\n  \"seek\": %" PRIu64 ",\n  \"count\": ",
	        dd->o.engine == ENG_SYNC ? 1 : dd->o.qd, dd->o.thr, dd->o.bs, dd->o.bpt, dd->tsize, dd->o.skip, dd->o.seek);
	if (dd->o.count_set)
		fprintf(fp, "%" PRIu64, dd->o.count);
	else
		fputs("null", fp);
	fprintf(fp, ",\n  \"rate_bytes_per_s\": ");
	if (dd->o.rate)
		fprintf(fp, "%" PRIu64, dd->o.rate);
	else
		fputs("null", fp);
	fprintf(fp, ",\n  \"dio\": %s,\n  \"interrupted\": %s,\n  \"devices\": [\n",
	        dd->o.dio ? "true" : "false", g_signal ? "true" : "false");
	for (i = 0; i < n; i++) {
		fprintf(fp, "    {\n      \"index\": %d,\n", i);
		json_row(dd, fp, &rows[i], "      ");
		fprintf(fp, "    }%s\n", i + 1 < n ? "," : "");
	}
	fprintf(fp, "  ],\n  \"total\": {\n    \"devices\": %d,\n", n);
	json_row(dd, fp, tot, "    ");
	fprintf(fp, "  },\n  \"cpu_user_s\": ");
	diot_json_num(fp, cu);
	fprintf(fp, ",\n  \"cpu_sys_s\": ");
	diot_json_num(fp, cs);
	fprintf(fp, "\n}\n");
}
