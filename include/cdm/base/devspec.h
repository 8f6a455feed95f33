/* SPDX-License-Identifier: MIT */
/*
 * devspec.h - the text of a simulated device (--null-device SPEC, and
 * --null-service-us as its shorthand), read into phases and written back
 * in one canonical form.  The one grammar: the command line, a saved
 * result's settings.null_device (format/result_read.c) and a text report's
 * "<Null device SPEC>" mark (format/cdm_read.c) all read it here.  What the
 * device does with it is engine/null_device.c's (cdm/engine/null_device.h);
 * docs/engines.md, "The simulated device", is the user's page.
 *
 * SPEC is phases separated by ';', each a list of KEY=VALUE separated by
 * ',':
 *
 *	lat=DUR          service time of one I/O in a channel
 *	channels=N|all   I/Os served at once, device-wide (all: no limit)
 *	iops=N|none      device-wide I/Os per second, at most
 *	mbs=N|none       device-wide MB/s (10^6 bytes/s), at most
 *	at=DUR           when the phase starts, from the test's first I/O
 *	stall=DUR        at the phase's start the device completes nothing
 *	                 for DUR
 *
 * DUR is a number with a unit, ns, us, ms or s ("100us", "2.5s"), a whole
 * number of ns.  The first phase starts at 0 (at=0 may be written); every
 * later one needs at=, later than the previous phase's start and its
 * stall's end.  lat, channels, iops and mbs carry over from the phase
 * before when not given (the first phase's defaults: lat=0s,
 * channels=all, iops=none, mbs=none); at and stall are events of their
 * phase and do not.
 */
#ifndef CDM_BASE_DEVSPEC_H
#define CDM_BASE_DEVSPEC_H

#include <stdint.h>

struct cdm_err;

#define CDM_DEVSPEC_PHASES   16                 /* most phases */
#define CDM_DEVSPEC_TEXT_MAX 256                /* a spec's text with its NUL */
#define CDM_DEVSPEC_LAT_MAX  3600000000000ull   /* lat: 3600 s, ns */
#define CDM_DEVSPEC_AT_MAX   86400000000000ull  /* at and stall: a day, ns */
#define CDM_DEVSPEC_CHANNELS_MAX 1000000u
#define CDM_DEVSPEC_IOPS_MAX 1000000000ull      /* 1 ns apart */
#define CDM_DEVSPEC_MBS_MAX  10000000ull        /* 10^13 bytes/s */

/* the keys a phase's text gave (struct cdm_devspec_phase.given) */
#define CDM_DEVSPEC_AT       (1u << 0)
#define CDM_DEVSPEC_STALL    (1u << 1)
#define CDM_DEVSPEC_LAT      (1u << 2)
#define CDM_DEVSPEC_CHANNELS (1u << 3)
#define CDM_DEVSPEC_IOPS     (1u << 4)
#define CDM_DEVSPEC_MBS      (1u << 5)

/*
 * struct cdm_devspec_phase - one phase, with the carried-over keys filled
 * in: every field is in force from @at_ns on.
 */
struct cdm_devspec_phase {
	uint64_t at_ns;         /* start, ns from the test's first I/O; 0 for the first */
	uint64_t stall_ns;      /* nothing completes in [at_ns, at_ns + stall_ns); 0 = none */
	uint64_t lat_ns;        /* service time of one I/O, ns */
	uint32_t channels;      /* I/Os served at once; 0 = all (no limit) */
	uint64_t iops;          /* cap, I/Os per second; 0 = none */
	uint64_t mbs;           /* cap, 10^6 bytes per second; 0 = none */
	unsigned int given;     /* CDM_DEVSPEC_*: the keys its text named */
};

/* struct cdm_devspec - a simulated device; nphases 0: none */
struct cdm_devspec {
	unsigned int nphases;
	struct cdm_devspec_phase phase[CDM_DEVSPEC_PHASES];
};

/*
 * cdm_devspec_parse - @text (the grammar above) into *@out.  Returns 0,
 * or -EINVAL with *@out zeroed and one phrase in @err (may be NULL) that
 * quotes the bad part and says what it takes, for the caller to put after
 * its subject: "'iops=abc' (iops=N|none, N 1-1000000000)".  Refused too:
 * more than CDM_DEVSPEC_PHASES phases, and a text of more than
 * CDM_DEVSPEC_TEXT_MAX - 1 characters as given or as cdm_devspec_format()
 * writes it ("1.5s" is "1500ms"), so that the record holds it whole.
 */
int cdm_devspec_parse(const char *text, struct cdm_devspec *out, struct cdm_err *err);

/*
 * cdm_devspec_service - --null-service-us's text into *@out: "N" is
 * lat=N us with channels=all; "N,M@S" adds a phase at=S s with lat=M us.
 * N and M are whole microseconds 0-10000000, S seconds 0.001-3600 to the
 * millisecond (a decimal fraction allowed: "3.75").  Returns 0, or
 * -EINVAL with *@out zeroed (the caller words the error: it knows the
 * option's limits from this comment).
 */
int cdm_devspec_service(const char *text, struct cdm_devspec *out);

/*
 * cdm_devspec_format - @spec's canonical text into @buf of @len bytes
 * (CDM_DEVSPEC_TEXT_MAX holds any spec cdm_devspec_parse() took): each
 * phase's given keys in the order at, stall, lat, channels, iops, mbs,
 * each duration in the largest unit that is exact ("2500ms", "0s").
 * cdm_devspec_parse() reads it back to the same phases.  "" for no
 * phases.  Returns @buf.
 */
char *cdm_devspec_format(const struct cdm_devspec *spec, char *buf, unsigned int len);

/*
 * cdm_devspec_stateless - 1 when no phase of @spec limits channels or caps
 * a rate: every I/O's completion then depends on its own submit time only
 * (the device needs no lock); else 0.
 */
int cdm_devspec_stateless(const struct cdm_devspec *spec);

#endif /* CDM_BASE_DEVSPEC_H */
