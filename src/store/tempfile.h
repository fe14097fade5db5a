/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tempfile.h — how perfab writes a file its user names: the safe writer
 * (a temp file renamed over the target), the writer's lock, and the
 * cleaner of the temp files a dead writer left. git's tempfile.h and
 * lockfile.h are the model.
 *
 * The calling sequence of a writer of an artifact (`perfab run` and
 * --resume, `perfab pool -o`, `perfab memgate record -o`):
 *
 *   1. fd = pab_artifact_lock(path, &why): PATH.lock, held for the
 *      writer's life. Fails at once when another process holds it.
 *   2. taking over a file a writer may have died writing (`run --resume`):
 *      pab_artifact_clean_temps(path), holding the lock, removes what it
 *      left (PATH.tmp.PID.RANDOM of a dead PID).
 *   3. pab_write_file_atomic(path, write_fn, arg, &why), as often as
 *      needed (each checkpoint); in there, in this order:
 *        a. the target checked: absent, or a regular file;
 *        b. a temp file created beside it, O_EXCL|O_NOFOLLOW, under an
 *           unpredictable name, with the mode of the file it replaces;
 *        c. write_fn writes it; fflush, fsync;
 *        d. the target checked again (what is there now);
 *        e. rename over path;
 *        f. fsync of the directory (pab_sync_dir_of), which makes the
 *           rename durable.
 *      A failure at a to e leaves path untouched and no temp file (the
 *      temp removed); f cannot fail (its error is ignored).
 *   4. pab_artifact_unlock(path, fd), or exit(): PATH.lock removed.
 *
 * Error handling: no function here prints or exits. A failure returns -1
 * with errno set and a reason (caller frees) in *why that names the file
 * and the step; the caller chooses the exit status. A writer that only
 * writes one file (calibrate -o, digest-checked copies, the reports a user
 * names: run --export-markdown/-csv/-json, export -o, history html -o)
 * calls pab_write_file_atomic() alone.
 */
#ifndef PAB_TEMPFILE_H
#define PAB_TEMPFILE_H

#include <stddef.h>
#include <stdio.h>

/* ------------------------------------------------------------------ */
/* The safe writer                                                    */

/* fsync the directory holding path, so a rename or create there is
 * durable; errors are ignored (nothing more can be done about them). */
void pab_sync_dir_of(const char *path);

/*
 * pab_write_file_atomic: replace the file at path with what write_fn
 * writes (called with a stream on a new temp file; returns 0, or -1 with
 * errno set). The one way perfab writes a file its user names:
 *
 *   - the temp file is created O_EXCL|O_NOFOLLOW|O_CLOEXEC in path's own
 *     directory under an unpredictable name (PATH.tmp.PID.RANDOM), so a
 *     planted file or symlink is never written through;
 *   - only a regular file is replaced: a symlink, directory, device node,
 *     FIFO or socket at path is refused (errno EEXIST, a reason in *why);
 *   - the replacement keeps the mode of the file it replaces (a new file
 *     gets 0666 less the umask);
 *   - fsync, rename over path, fsync of the directory: a crash at any
 *     instant leaves the previous file or the new one, never a torn one.
 *
 * Returns 0, or -1 with errno set and a reason (caller frees) in *why; path
 * is then untouched and the temp file removed. The crash-test hook
 * (pab_crash_point) has four points in here: before the temp file, temp
 * file half written (write_fn is then called a second time), synced but
 * not renamed, renamed but the directory not synced.
 */
int pab_write_file_atomic(const char *path, int (*write_fn)(FILE *f, void *arg),
			  void *arg, char **why);

/*
 * pab_is_own_temp: 1 when name (a directory entry) is a temp file
 * pab_write_file_atomic() made for the file called base in the same
 * directory: exactly "BASE.tmp.PID.XXXXXXXXXXXXXXXX" (16 hex digits).
 * *pid gets the PID in the name. Anything else, 0.
 */
int pab_is_own_temp(const char *base, const char *name, long *pid);

/* ------------------------------------------------------------------ */
/* The lock and the cleaner of stale temp files                       */

/*
 * pab_artifact_lock: take the artifact's lock, an exclusive flock on
 * PATH.lock (created beside it, a regular file, never followed through a
 * symlink), without waiting. The one lock of every writer: `perfab run`
 * (and --resume) for the run's life, `perfab pool -o`, `perfab memgate
 * record -o`, so two writers of one file never interleave. Returns the
 * lock's descriptor, or -1 with errno (EWOULDBLOCK: another process
 * holds it) and a reason (caller frees) in *why. A lock still held when
 * the process exits (die() included) is removed then, as by
 * pab_artifact_unlock(); only a killing signal leaves PATH.lock behind
 * (unlocked: the next writer takes it).
 */
int pab_artifact_lock(const char *path, char **why);

/* Remove PATH.lock and release the lock fd (a no-op for fd < 0). */
void pab_artifact_unlock(const char *path, int fd);

/*
 * pab_artifact_clean_temps: remove the temp files pab_write_file_atomic()
 * left beside path when a writer died mid-checkpoint — only names of its
 * exact pattern (pab_is_own_temp), only regular files owned by this user,
 * only when the PID in the name is no longer running. Call it holding the
 * artifact's lock. Returns how many were removed.
 */
size_t pab_artifact_clean_temps(const char *path);

#endif /* PAB_TEMPFILE_H */
