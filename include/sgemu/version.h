/*
 * version.h - the version of the sgemu headers; meson.build's project
 * version must match it (checked at setup).  docs/api.md says what a change
 * of each number promises.
 */
#ifndef SGEMU_VERSION_H
#define SGEMU_VERSION_H

#define SGEMU_VERSION_MAJOR 0
#define SGEMU_VERSION_MINOR 1
#define SGEMU_VERSION_PATCH 0
#define SGEMU_VERSION_STRING "0.1.0"
/* One number that grows with every release: 10000 x major + 100 x minor + patch. */
#define SGEMU_VERSION_NUMBER \
    (SGEMU_VERSION_MAJOR * 10000 + SGEMU_VERSION_MINOR * 100 + SGEMU_VERSION_PATCH)

#endif
