/* SPDX-License-Identifier: MIT */
/*
 * verify.c - --verify: the record of one test's writes and their read-back
 * (include/cdm/run/verify.h; docs/method.md, "Verification").
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cdm/base/err.h"
#include "cdm/model/stamp.h"
#include "cdm/run/verify.h"

/* the most read back in one pread(): runs of recorded blocks are merged up to it */
#define READ_MAX (1u << 20)
/* O_DIRECT's buffer alignment: the largest logical block size Linux has */
#define READ_ALIGN 4096u

struct cdm_verify_map *cdm_verify_map_new(uint64_t nblocks, uint64_t block)
{
	struct cdm_verify_map *m = calloc(1, sizeof(*m));

	if (!m || !nblocks || !block) {
		free(m);
		return NULL;
	}
	m->nblocks = nblocks;
	m->block = block;
	m->every = (nblocks + CDM_VERIFY_MAX_SLOTS - 1) / CDM_VERIFY_MAX_SLOTS;
	m->nslots = (nblocks + m->every - 1) / m->every;
	/* calloc: zero is "no write completed", and the pages come zeroed */
	m->word = calloc(m->nslots, sizeof(*m->word));
	if (!m->word) {
		free(m);
		return NULL;
	}
	return m;
}

void cdm_verify_map_free(struct cdm_verify_map *m)
{
	if (!m)
		return;
	free(m->word);
	free(m);
}

enum cdm_verify_kind cdm_verify_block(const void *buf, uint64_t len, uint64_t offset,
				      uint64_t seq, uint64_t *meant)
{
	const unsigned char *p = buf;
	uint64_t first = 0;
	int torn = 0, lost = 0;

	for (uint64_t at = 0; at + CDM_STAMP_SECTOR <= len; at += CDM_STAMP_SECTOR) {
		struct cdm_stamp st;

		cdm_stamp_read(p + at, CDM_STAMP_SECTOR, &st);
		if (st.offset != offset + at) {
			if (meant)
				*meant = st.offset;
			return CDM_VERIFY_MISDIRECTED;
		}
		if (at == 0)
			first = st.seq;
		else if (st.seq != first)
			torn = 1;
		if (st.seq != seq)
			lost = 1;
	}
	return torn ? CDM_VERIFY_TORN : lost ? CDM_VERIFY_LOST : CDM_VERIFY_OK;
}

int cdm_verify_check_plan(const struct cdm_run_config *cfg, uint64_t size, struct cdm_err *err)
{
	if (cfg->zero_fill)
		return cdm_err_set(err, -EINVAL, "--verify needs the stamped data cdm writes: drop --data zero (zeros carry no stamp to check)");
	/* an engine that writes nothing would read back as every write lost */
	if (cfg->engine && (cfg->engine->flags & CDM_ENGINE_NO_IO))
		return cdm_err_set(err, -EINVAL, "--verify checks what the storage returns: the %s engine writes nothing (choose another --engine)",
				   cfg->engine->name);
	/* only a write or Mix test's writes are serialised (reads are never held back) */
	if (!cdm_plan_writes(cfg))
		return 0;
	for (unsigned int i = 0; i < cfg->ntests; i++) {
		const struct cdm_spec *sp = &cfg->tests[i];
		uint64_t inflight = (uint64_t)sp->qd * sp->threads;
		char name[64];

		if (!sp->block || size / sp->block > inflight)
			continue;
		cdm_spec_name(sp, name, sizeof(name));
		return cdm_err_set(err, -EINVAL, "--verify: %s keeps %" PRIu64 " write%s in flight on a file of %" PRIu64 " block%s; it needs more blocks than that, as a write never starts on a block with one in flight (a larger --size)",
				   name, inflight, inflight == 1 ? "" : "s", size / sp->block,
				   size / sp->block == 1 ? "" : "s");
	}
	return 0;
}

/* a run of recorded blocks in file order: [*first, *first + *n) slots, one pread */
static int next_run(const struct cdm_verify_map *m, uint64_t *slot, uint64_t *first, uint64_t *n)
{
	uint64_t most = m->block >= READ_MAX ? 1 : READ_MAX / m->block;
	uint64_t s = *slot;

	/* a block still busy never completed its last write: not checked */
	while (s < m->nslots && (!m->word[s] || (m->word[s] & CDM_VERIFY_BUSY)))
		s++;
	if (s >= m->nslots)
		return 0;
	*first = s;
	*n = 1;
	/* only consecutive blocks share a read: without sampling, every = 1 */
	while (m->every == 1 && *n < most && s + *n < m->nslots && m->word[s + *n] &&
	       !(m->word[s + *n] & CDM_VERIFY_BUSY))
		(*n)++;
	*slot = s + *n;
	return 1;
}

/* pread all of @len at @off, short reads continued; 0, -errno, or -EIO at the end of the file */
static int read_full(int fd, unsigned char *buf, uint64_t len, uint64_t off)
{
	uint64_t done = 0;

	while (done < len) {
		ssize_t r = pread(fd, buf + done, len - done, (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EIO;
		done += (uint64_t)r;
	}
	return 0;
}

/* count block @blk's @kind into @out */
static void count(struct cdm_verify *out, enum cdm_verify_kind kind, uint64_t off)
{
	uint64_t *n = kind == CDM_VERIFY_LOST ? &out->lost :
		      kind == CDM_VERIFY_MISDIRECTED ? &out->misdirected : &out->torn;
	uint64_t *first = kind == CDM_VERIFY_LOST ? &out->first_lost :
			  kind == CDM_VERIFY_MISDIRECTED ? &out->first_misdirected : &out->first_torn;

	/* file order: the first found is the lowest offset */
	if (!(*n)++)
		*first = off;
}

/* what the recorded blocks number, for the progress and the percentage */
static uint64_t recorded(const struct cdm_verify_map *m)
{
	uint64_t n = 0;

	for (uint64_t s = 0; s < m->nslots; s++)
		n += m->word[s] && !(m->word[s] & CDM_VERIFY_BUSY);
	return n;
}

int cdm_verify_read_back(const struct cdm_verify_map *m, int fd, int direct,
			 struct cdm_verify *out,
			 void (*progress)(uint64_t done, uint64_t total), int (*stop)(void),
			 struct cdm_err *err)
{
	uint64_t most = m->block >= READ_MAX ? m->block : READ_MAX / m->block * m->block;
	uint64_t slot = 0, first, n, done = 0, total = recorded(m);
	unsigned char *buf = NULL;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->sampled = m->every != 1;
	out->every = m->every;
	if (!direct) {
		/*
		 * Through the page cache the read would return what cdm wrote
		 * to memory: write it out and drop it, so the check reads what
		 * the device returns (as far as the kernel lets it go).
		 */
		if (fdatasync(fd) < 0)
			return cdm_err_set(err, -errno, "read-back: fdatasync failed: %s", strerror(errno));
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	}
	if (posix_memalign((void **)&buf, READ_ALIGN, (size_t)most))
		return cdm_err_set(err, -ENOMEM, "read-back: out of memory for a %" PRIu64 "-byte buffer", most);
	while (next_run(m, &slot, &first, &n)) {
		uint64_t off = (m->every == 1 ? first : cdm_verify_sample_at(m, first)) * m->block;

		if (stop && stop()) {
			ret = -EINTR;
			break;
		}
		ret = read_full(fd, buf, n * m->block, off);
		if (ret < 0) {
			cdm_err_set(err, ret, "read-back failed at offset %" PRIu64 ": %s", off,
				    ret == -EIO ? "short read or I/O error" : strerror(-ret));
			break;
		}
		for (uint64_t i = 0; i < n; i++) {
			uint64_t at = off + i * m->block;
			enum cdm_verify_kind k = cdm_verify_block(buf + i * m->block, m->block, at,
								  m->word[first + i],
								  out->misdirected ? NULL : &out->first_meant);

			if (k != CDM_VERIFY_OK)
				count(out, k, at);
		}
		done += n;
		out->blocks += n;
		if (progress)
			progress(done, total);
	}
	free(buf);
	if (!ret) {
		out->done = 1;
		out->meant_known = out->misdirected != 0;
	} else if (ret == -EINTR) {
		/* what was read so far checks nothing as a whole: say so, count nothing */
		memset(out, 0, sizeof(*out));
		out->interrupted = 1;
	}
	return ret;
}
