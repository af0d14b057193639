#ifndef CFFMPEG_SHIM_H
#define CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>

/* Macros and inline values Swift cannot import, as small functions. */

static inline int cff_averror(int e) { return AVERROR(e); }
static inline int cff_averror_eof(void) { return AVERROR_EOF; }
static inline int cff_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int cff_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int64_t cff_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int cff_time_base(void) { return AV_TIME_BASE; }

/* Fills `buf` with FFmpeg's description of error `e`. */
static inline void cff_strerror(int e, char *buf, size_t size) {
  av_strerror(e, buf, size);
}

/* Silences FFmpeg's own logging to stderr: errors are reported through our typed errors. */
static inline void cff_quiet_logging(void) { av_log_set_level(AV_LOG_QUIET); }

#endif
