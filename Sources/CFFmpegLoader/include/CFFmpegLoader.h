#ifndef CFFMPEG_LOADER_H
#define CFFMPEG_LOADER_H

/* FFmpeg's libraries are opened when first needed, not when the program starts: a program
   that links this module but only parses subtitles or stretches WAVE files never maps them
   (with their dependencies, well over a hundred shared objects, which took most of a command's
   start-up time). Every FFmpeg function this package calls is defined in loader.c as a small
   forwarder that loads the libraries once and calls the real function. */

/* Opens FFmpeg's libraries (once, thread-safe) and returns 1 when every function this package
   uses was found, 0 otherwise. */
int cff_load(void);

/* After `cff_load` returned 0: what failed, as one line (a static string). */
const char *cff_load_failure(void);

#endif
