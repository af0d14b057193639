#ifndef CFFMPEG_SHIM_H
#define CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/audio_fifo.h>
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
static inline int cff_averror_patchwelcome(void) { return AVERROR_PATCHWELCOME; }
static inline int cff_averror_http_bad_request(void) { return AVERROR_HTTP_BAD_REQUEST; }
static inline int cff_averror_http_unauthorized(void) { return AVERROR_HTTP_UNAUTHORIZED; }
static inline int cff_averror_http_forbidden(void) { return AVERROR_HTTP_FORBIDDEN; }
static inline int cff_averror_http_not_found(void) { return AVERROR_HTTP_NOT_FOUND; }
static inline int cff_averror_http_other_4xx(void) { return AVERROR_HTTP_OTHER_4XX; }
static inline int cff_averror_http_server_error(void) { return AVERROR_HTTP_SERVER_ERROR; }
static inline int cff_averror_exit(void) { return AVERROR_EXIT; }
static inline int cff_avio_flag_read(void) { return AVIO_FLAG_READ; }
static inline int64_t cff_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int cff_time_base(void) { return AV_TIME_BASE; }

/* Fills `buf` with FFmpeg's description of error `e`. */
static inline void cff_strerror(int e, char *buf, size_t size) {
  av_strerror(e, buf, size);
}

/* Silences FFmpeg's own logging to stderr: errors are reported through our typed errors. */
static inline void cff_quiet_logging(void) { av_log_set_level(AV_LOG_QUIET); }

/* Codec and format flags (shift macros). */
static inline int cff_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
static inline int cff_format_flag_global_header(void) { return AVFMT_GLOBALHEADER; }
static inline int cff_format_flag_nofile(void) { return AVFMT_NOFILE; }
static inline int cff_codec_cap_variable_frame_size(void) { return AV_CODEC_CAP_VARIABLE_FRAME_SIZE; }
static inline int cff_codec_cap_small_last_frame(void) { return AV_CODEC_CAP_SMALL_LAST_FRAME; }

/* Converts a decoded frame (or, with `frame == NULL`, the resampler's buffered tail) into
   interleaved 32-bit floats at `out`, at most `out_count` frames. Returns frames written or a
   negative AVERROR. */
static inline int cff_swr_convert_to_interleaved(SwrContext *swr, float *out, int out_count,
                                                 const AVFrame *frame) {
  uint8_t *planes[1] = {(uint8_t *)out};
  if (frame == NULL) return swr_convert(swr, planes, out_count, NULL, 0);
  return swr_convert(swr, planes, out_count, (const uint8_t **)frame->extended_data,
                     frame->nb_samples);
}

/* Converts `in_count` frames of interleaved floats (or, with `in == NULL`, the resampler's
   buffered tail) into the planes of `planes` (allocated by av_samples_alloc). */
static inline int cff_swr_convert_from_interleaved(SwrContext *swr, uint8_t **planes,
                                                   int out_count, const float *in, int in_count) {
  if (in == NULL) return swr_convert(swr, planes, out_count, NULL, 0);
  const uint8_t *inputs[1] = {(const uint8_t *)in};
  return swr_convert(swr, planes, out_count, inputs, in_count);
}

/* Writes `count` frames from `planes` into the FIFO. */
static inline int cff_fifo_write(AVAudioFifo *fifo, uint8_t **planes, int count) {
  return av_audio_fifo_write(fifo, (void **)planes, count);
}

/* Reads `count` frames from the FIFO into a frame's data planes. */
static inline int cff_fifo_read_into_frame(AVAudioFifo *fifo, AVFrame *frame, int count) {
  return av_audio_fifo_read(fifo, (void **)frame->extended_data, count);
}

#endif
