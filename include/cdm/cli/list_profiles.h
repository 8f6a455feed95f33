/* SPDX-License-Identifier: MIT */
/*
 * list_profiles.h - `cdm --list-profiles`: every built-in profile
 * (plan/profile.h) with what it imitates, its settings and its tests.
 */
#ifndef CDM_CLI_LIST_PROFILES_H
#define CDM_CLI_LIST_PROFILES_H

#include <stdio.h>

/*
 * cdm_list_profiles_print - print the built-in profiles to @out in
 * cdm_profile_builtin_names() order, one block per profile, blocks apart
 * by one empty line.  A block's first line is "NAME: WHAT IT IMITATES";
 * then, indented by two spaces, one "Key: value" line per setting, the
 * value starting in column 14: Profile (the report's Profile: line), Size,
 * Count, Time, Warm-up, Interval, Mix, Mode, and one Test line per test
 * with the phases it runs in ("read, write"; "mix R80/W20").  The values
 * are those a run with no option takes (docs/profile-format.md's
 * defaults where the profile sets none).  Returns the exit status
 * (exit.h): 0, or 1 when a built-in does not parse (a build error the
 * unit tests catch first) or @out cannot be written.
 */
int cdm_list_profiles_print(FILE *out);

/*
 * cdm_list_profiles_print_one - `cdm --list-profiles -p NAME|FILE`: the
 * block of the one profile a run with that -p takes (a built-in, or a
 * profile file, whose first line says "FILE: a profile file"), as
 * cdm_list_profiles_print() prints each.  Returns the exit status: 0; 2
 * (CDM_EXIT_USAGE) after "cdm: <why>" on stderr when the profile cannot
 * be loaded, as a run with it says it; 1 when @out cannot be written.
 */
int cdm_list_profiles_print_one(FILE *out, const char *name_or_path);

#endif /* CDM_CLI_LIST_PROFILES_H */
