/* output_path.c - where sgemu's output files may be replaced.
 *
 * Every output (trace, record, sweep table, --out file) is written to a
 * temporary beside its path and renamed over it, so that an interrupted
 * run never leaves half a file.  A path that already exists and is not a
 * regular file (a device such as /dev/null, a FIFO, a socket) must not be
 * replaced that way: the rename would put a regular file where the device
 * was (as root), or the temporary could not be made beside it at all (in
 * /dev, as anyone else).  Such a path is written in place. */
#include "sgemu.h"

#include <sys/stat.h>

bool sgemu_output_in_place(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}
