/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * file_id.h — a file as the kernel names it (struct pab_file_id), the
 * identity the experiment keeps of each executable it digested. Taking
 * and comparing one is file I/O: store/digest.h.
 */
#ifndef PAB_FILE_ID_H
#define PAB_FILE_ID_H

#include <sys/types.h>
#include <time.h>

/*
 * A file as the kernel names it: what a check right before an exec
 * compares, so that the file run is the file digested (a file replaced,
 * rewritten or touched has another identity). Zeroed: none taken.
 */
struct pab_file_id {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

#endif /* PAB_FILE_ID_H */
