/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * banned.h — functions perfab never calls (after git's banned.h): they
 * overflow buffers or parse numbers without telling failure apart from 0.
 * Included last by util.h so any use is a compile error.
 */
#ifndef PAB_BANNED_H
#define PAB_BANNED_H

#define BANNED(func) sorry_##func##_is_banned_in_perfab

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef atoi
#define atoi(x) BANNED(atoi)
#undef atol
#define atol(x) BANNED(atol)
#undef atof
#define atof(x) BANNED(atof)
#undef gets
#define gets(x) BANNED(gets)

#endif /* PAB_BANNED_H */
