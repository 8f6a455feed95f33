/* SPDX-License-Identifier: MIT */
/*
 * devspec.c - the text of a simulated device into phases and back
 * (cdm/base/devspec.h has the grammar): one parser for the command line
 * and for a saved result's record of it, one canonical form for every
 * report.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cdm/base/devspec.h"
#include "cdm/base/err.h"
#include "cdm/base/text.h"
#include "cdm/base/uint.h"

#define NS_PER_S 1000000000ull

static const struct unit {
	const char *name;
	uint64_t ns;
} units[] = {           /* largest first: the canonical form's choice */
	{ "s", NS_PER_S },
	{ "ms", 1000000 },
	{ "us", 1000 },
	{ "ns", 1 },
};

/* @ns in the largest exact unit */
static int dur_format(char *buf, size_t len, uint64_t ns)
{
	size_t i = 0;

	while (ns && ns % units[i].ns)
		i++;
	return snprintf(buf, len, "%" PRIu64 "%s", ns / units[i].ns, units[i].name);
}

/* "12", "2.5" then a unit, into *@ns; 0, or -EINVAL (no unit, not whole ns, above @max) */
static int dur_parse(const char *s, uint64_t max, uint64_t *ns)
{
	uint64_t whole, frac = 0, scale = 1;
	const char *p = s;

	if (*p < '0' || *p > '9' || cdm_uint_scan(&p, 100000000000ull, &whole))
		return -EINVAL;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (scale >= NS_PER_S)
				return -EINVAL;         /* finer than 1 ns in any unit */
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		const struct unit *u = &units[i];

		if (strcmp(p, u->name))
			continue;
		if (frac * u->ns % scale || whole > max / u->ns)
			return -EINVAL;
		*ns = whole * u->ns + frac * u->ns / scale;
		return *ns <= max ? 0 : -EINVAL;
	}
	return -EINVAL;
}

/* a number, or the word @none (0) */
static int num_parse(const char *s, const char *none, uint64_t max, uint64_t *v)
{
	unsigned long n;

	if (!strcmp(s, none)) {
		*v = 0;
		return 0;
	}
	if (cdm_uint_parse(s, 1, (unsigned long)max, &n) < 0)
		return -EINVAL;
	*v = n;
	return 0;
}

static const struct key {
	const char *name;
	unsigned int bit;
	const char *takes;      /* what the error says it takes */
} keys[] = {            /* the canonical order */
	{ "at", CDM_DEVSPEC_AT, "at=DUR: a number and ns, us, ms or s, up to 86400s" },
	{ "stall", CDM_DEVSPEC_STALL, "stall=DUR: a number and ns, us, ms or s, up to 86400s" },
	{ "lat", CDM_DEVSPEC_LAT, "lat=DUR: a number and ns, us, ms or s, up to 3600s" },
	{ "channels", CDM_DEVSPEC_CHANNELS, "channels=N|all, N 1-1000000" },
	{ "iops", CDM_DEVSPEC_IOPS, "iops=N|none, N 1-1000000000" },
	{ "mbs", CDM_DEVSPEC_MBS, "mbs=N|none, N 1-10000000 (MB/s)" },
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

/* one KEY=VALUE into @ph; 0, or -EINVAL with the phrase in @err */
static int key_parse(char *kv, struct cdm_devspec_phase *ph, unsigned int n, struct cdm_err *err)
{
	char *val = strchr(kv, '=');
	const struct key *k = NULL;
	uint64_t v = 0;
	int bad;

	if (val) {
		*val = '\0';
		for (size_t i = 0; i < NKEYS && !k; i++)
			if (!strcmp(kv, keys[i].name))
				k = &keys[i];
		*val++ = '=';
	}
	if (!k)
		return cdm_err_set(err, -EINVAL, "'%s' (KEY=VALUE, KEY one of at, stall, lat, channels, iops, mbs)",
				   kv);
	if (ph->given & k->bit)
		return cdm_err_set(err, -EINVAL, "'%s' (%s= given twice in phase %u)", kv, k->name, n);
	switch (k->bit) {
	case CDM_DEVSPEC_AT:
		bad = dur_parse(val, CDM_DEVSPEC_AT_MAX, &ph->at_ns);
		break;
	case CDM_DEVSPEC_STALL:
		bad = dur_parse(val, CDM_DEVSPEC_AT_MAX, &ph->stall_ns);
		break;
	case CDM_DEVSPEC_LAT:
		bad = dur_parse(val, CDM_DEVSPEC_LAT_MAX, &ph->lat_ns);
		break;
	case CDM_DEVSPEC_CHANNELS:
		bad = num_parse(val, "all", CDM_DEVSPEC_CHANNELS_MAX, &v);
		ph->channels = (uint32_t)v;
		break;
	case CDM_DEVSPEC_IOPS:
		bad = num_parse(val, "none", CDM_DEVSPEC_IOPS_MAX, &ph->iops);
		break;
	default:
		bad = num_parse(val, "none", CDM_DEVSPEC_MBS_MAX, &ph->mbs);
		break;
	}
	if (bad)
		return cdm_err_set(err, -EINVAL, "'%s' (%s)", kv, k->takes);
	ph->given |= k->bit;
	return 0;
}

/* phase @n (1-based) of text @s, over the one before it (@prev, NULL for the first) */
static int phase_parse(char *s, const struct cdm_devspec_phase *prev, unsigned int n,
		       struct cdm_devspec_phase *ph, struct cdm_err *err)
{
	char text[CDM_DEVSPEC_TEXT_MAX], at[32], *kv = s, *next;

	memset(ph, 0, sizeof(*ph));
	if (!*s)
		return cdm_err_set(err, -EINVAL, "phase %u is empty (KEY=VALUE,...)", n);
	snprintf(text, sizeof(text), "%s", s);  /* for the messages: s is cut up */
	if (prev) {
		ph->lat_ns = prev->lat_ns;
		ph->channels = prev->channels;
		ph->iops = prev->iops;
		ph->mbs = prev->mbs;
	}
	for (; kv; kv = next) {
		next = strchr(kv, ',');
		if (next)
			*next++ = '\0';
		if (key_parse(kv, ph, n, err) < 0)
			return -EINVAL;
	}
	dur_format(at, sizeof(at), ph->at_ns);
	if (!prev && ph->at_ns)
		return cdm_err_set(err, -EINVAL, "'at=%s' (the first phase starts at 0: at= belongs to a later phase)",
				   at);
	if (prev && !(ph->given & CDM_DEVSPEC_AT))
		return cdm_err_set(err, -EINVAL, "'%s' (phase %u needs at=DUR: when it starts)", text, n);
	if (prev && (ph->at_ns <= prev->at_ns || ph->at_ns < prev->at_ns + prev->stall_ns))
		return cdm_err_set(err, -EINVAL, "'at=%s' (phase %u must start after phase %u%s)",
				   at, n, n - 1, prev->stall_ns ? " and its stall" : "");
	return 0;
}

int cdm_devspec_parse(const char *text, struct cdm_devspec *out, struct cdm_err *err)
{
	/* each duration grows by 2 characters at most in canonical form: twice is room */
	char buf[CDM_DEVSPEC_TEXT_MAX], canon[2 * CDM_DEVSPEC_TEXT_MAX], *s, *next;
	unsigned int n = 0;

	memset(out, 0, sizeof(*out));
	if (strlen(text) >= sizeof(buf))
		return cdm_err_set(err, -EINVAL, "'%.20s...' (at most %u characters)", text,
				   CDM_DEVSPEC_TEXT_MAX - 1);
	snprintf(buf, sizeof(buf), "%s", text);
	for (s = buf; s; s = next) {
		next = strchr(s, ';');
		if (next)
			*next++ = '\0';
		if (n == CDM_DEVSPEC_PHASES) {
			memset(out, 0, sizeof(*out));
			return cdm_err_set(err, -EINVAL, "'%s' (at most %u phases)", text,
					   CDM_DEVSPEC_PHASES);
		}
		if (phase_parse(s, n ? &out->phase[n - 1] : NULL, n + 1, &out->phase[n], err) < 0) {
			memset(out, 0, sizeof(*out));
			return -EINVAL;
		}
		n++;
	}
	out->nphases = n;
	/* "1.5s" is written "1500ms": the record must hold what was taken */
	if (strlen(cdm_devspec_format(out, canon, sizeof(canon))) >= CDM_DEVSPEC_TEXT_MAX) {
		memset(out, 0, sizeof(*out));
		return cdm_err_set(err, -EINVAL, "'%.20s...' (at most %u characters as cdm writes it: %.20s...)",
				   text, CDM_DEVSPEC_TEXT_MAX - 1, canon);
	}
	return 0;
}

/* whole microseconds 0-10000000 */
static int service_us(const char *s, uint64_t *ns)
{
	unsigned long us;

	if (cdm_uint_parse(s, 0, 10000000, &us) < 0)
		return -EINVAL;
	*ns = (uint64_t)us * 1000;
	return 0;
}

int cdm_devspec_service(const char *text, struct cdm_devspec *out)
{
	char buf[64], *comma, *at;
	struct cdm_devspec_phase *ph = out->phase;
	uint64_t at_ns;

	memset(out, 0, sizeof(*out));
	if (strlen(text) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", text);
	comma = strchr(buf, ',');
	if (comma)
		*comma++ = '\0';
	if (service_us(buf, &ph[0].lat_ns) < 0)
		goto bad;
	ph[0].given = CDM_DEVSPEC_LAT | CDM_DEVSPEC_CHANNELS;
	out->nphases = 1;
	if (!comma)
		return 0;
	at = strchr(comma, '@');
	if (!at)
		goto bad;
	*at++ = '\0';
	/* seconds to the millisecond: "3.75" is 3750ms; "3.7501" is refused */
	if (service_us(comma, &ph[1].lat_ns) < 0 || strspn(at, "0123456789.") != strlen(at) ||
	    snprintf(buf, sizeof(buf), "%ss", at) >= (int)sizeof(buf) ||
	    dur_parse(buf, 3600 * NS_PER_S, &at_ns) < 0 || at_ns < 1000000 || at_ns % 1000000)
		goto bad;
	ph[1].at_ns = at_ns;
	ph[1].given = CDM_DEVSPEC_AT | CDM_DEVSPEC_LAT;
	out->nphases = 2;
	return 0;
bad:
	memset(out, 0, sizeof(*out));
	return -EINVAL;
}

static int val_format(char *buf, size_t len, const struct cdm_devspec_phase *ph, unsigned int bit)
{
	switch (bit) {
	case CDM_DEVSPEC_AT:
		return dur_format(buf, len, ph->at_ns);
	case CDM_DEVSPEC_STALL:
		return dur_format(buf, len, ph->stall_ns);
	case CDM_DEVSPEC_LAT:
		return dur_format(buf, len, ph->lat_ns);
	case CDM_DEVSPEC_CHANNELS:
		return ph->channels ? snprintf(buf, len, "%" PRIu32, ph->channels) :
				      snprintf(buf, len, "all");
	case CDM_DEVSPEC_IOPS:
		return ph->iops ? snprintf(buf, len, "%" PRIu64, ph->iops) : snprintf(buf, len, "none");
	default:
		return ph->mbs ? snprintf(buf, len, "%" PRIu64, ph->mbs) : snprintf(buf, len, "none");
	}
}

char *cdm_devspec_format(const struct cdm_devspec *spec, char *buf, unsigned int len)
{
	char val[32];
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned int p = 0; p < spec->nphases; p++) {
		const struct cdm_devspec_phase *ph = &spec->phase[p];
		int first = 1;

		if (p)
			cdm_text_add(buf, len, &n, ";");
		for (size_t k = 0; k < NKEYS; k++) {
			if (!(ph->given & keys[k].bit))
				continue;
			val_format(val, sizeof(val), ph, keys[k].bit);
			cdm_text_add(buf, len, &n, "%s%s=%s", first ? "" : ",", keys[k].name, val);
			first = 0;
		}
	}
	return buf;
}

int cdm_devspec_stateless(const struct cdm_devspec *spec)
{
	for (unsigned int p = 0; p < spec->nphases; p++)
		if (spec->phase[p].channels || spec->phase[p].iops || spec->phase[p].mbs)
			return 0;
	return 1;
}
