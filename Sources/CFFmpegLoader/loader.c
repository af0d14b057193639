/* Loads FFmpeg's libraries at run time and forwards to them (see CFFmpegLoader.h). The
   forwarders have the exact signatures of FFmpeg's headers, which the compiler checks; they are
   hidden, so the loaded libraries never bind to them. Before the libraries are loaded (or when
   they cannot be), a forwarder returns an error value (AVERROR(ENOSYS), NULL or nothing) instead
   of calling anything; MediaTracks calls `cff_load` first and reports a failure as a typed error. */

#include "CFFmpegLoader.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>

#define CFF_HIDDEN __attribute__((visibility("hidden")))
#define CFF_STRING_(x) #x
#define CFF_STRING(x) CFF_STRING_(x)

/* The libraries, in load order (each after the ones it depends on). */
enum { LIB_AVUTIL, LIB_SWRESAMPLE, LIB_AVCODEC, LIB_AVFORMAT, LIB_COUNT };

/* Every function this package calls: X(library, return type, fallback, name, (parameters),
   (arguments)) for functions that return a value, V(library, name, (parameters), (arguments))
   for those that do not. */
#define CFF_FUNCTIONS(X, V)                                                                       \
  X(LIB_AVUTIL, AVAudioFifo *, NULL, av_audio_fifo_alloc,                                          \
    (enum AVSampleFormat sample_fmt, int channels, int nb_samples),                               \
    (sample_fmt, channels, nb_samples))                                                           \
  V(LIB_AVUTIL, av_audio_fifo_free, (AVAudioFifo * af), (af))                                     \
  X(LIB_AVUTIL, int, AVERROR(ENOSYS), av_audio_fifo_read,                                         \
    (AVAudioFifo * af, void **data, int nb_samples), (af, data, nb_samples))                      \
  X(LIB_AVUTIL, int, AVERROR(ENOSYS), av_audio_fifo_size, (AVAudioFifo * af), (af))               \
  X(LIB_AVUTIL, int, AVERROR(ENOSYS), av_audio_fifo_write,                                        \
    (AVAudioFifo * af, void **data, int nb_samples), (af, data, nb_samples))                      \
  X(LIB_AVUTIL, int, AVERROR(ENOSYS), av_channel_layout_compare,                                  \
    (const AVChannelLayout *chl, const AVChannelLayout *chl1), (chl, chl1))                       \
  X(LIB_AVUTIL, int, AVERROR(ENOSYS), av_channel_layout_copy,                                     \
    (AVChannelLayout * dst, const AVChannelLayout *src), (dst, src))                              \
  X(LIB_AVUTIL, int, -1, av_channel_layout_index_from_channel,                                    \
    (const AVChannelLayout *channel_layout, enum AVChannel channel), (channel_layout, channel))    \
  V(LIB_AVUTIL, av_channel_layout_default, (AVChannelLayout * ch_layout, int nb_channels),       \
    (ch_layout, nb_channels))                                                                     \
  X(LIB_AVUTIL, int, AVERROR(ENOSYS), av_channel_layout_describe,                                 \
    (const AVChannelLayout *channel_layout, char *buf, size_t buf_size),                          \
    (channel_layout, buf, buf_size))                                                              \
  X(LIB_AVUTIL, int, AVERROR(ENOSYS), av_channel_layout_from_mask,                                \
    (AVChannelLayout * channel_layout, uint64_t mask), (channel_layout, mask))                    \
  V(LIB_AVUTIL, av_channel_layout_uninit, (AVChannelLayout * channel_layout), (channel_layout))  \
  X(LIB_AVUTIL, AVDictionaryEntry *, NULL, av_dict_get,                                           \
    (const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags),           \
    (m, key, prev, flags))                                                                        \
  V(LIB_AVUTIL, av_dict_free, (AVDictionary * *m), (m))                                          \
  X(LIB_AVUTIL, int, AVERROR(ENOSYS), av_dict_set,                                                \
    (AVDictionary * *pm, const char *key, const char *value, int flags), (pm, key, value, flags))   \
  X(LIB_AVUTIL, AVFrame *, NULL, av_frame_alloc, (void), ())                                      \
  V(LIB_AVUTIL, av_frame_free, (AVFrame * *frame), (frame))                                       \
  X(LIB_AVUTIL, int, AVERROR(ENOSYS), av_frame_get_buffer, (AVFrame * frame, int align),         \
    (frame, align))                                                                               \
  X(LIB_AVUTIL, int, AVERROR(ENOSYS), av_frame_make_writable, (AVFrame * frame), (frame))         \
  V(LIB_AVUTIL, av_frame_unref, (AVFrame * frame), (frame))                                       \
  V(LIB_AVUTIL, av_free, (void *ptr), (ptr))                                                      \
  V(LIB_AVUTIL, av_freep, (void *ptr), (ptr))                                                     \
  V(LIB_AVUTIL, av_log_set_level, (int level), (level))                                           \
  V(LIB_AVUTIL, av_max_alloc, (size_t max), (max))                                                \
  X(LIB_AVUTIL, void *, NULL, av_malloc, (size_t size), (size))                                   \
  X(LIB_AVUTIL, int, 0, av_sample_fmt_is_planar, (enum AVSampleFormat sample_fmt), (sample_fmt))  \
  X(LIB_AVUTIL, int, AVERROR(ENOSYS), av_samples_alloc,                                           \
    (uint8_t * *audio_data, int *linesize, int nb_channels, int nb_samples,                       \
     enum AVSampleFormat sample_fmt, int align),                                                  \
    (audio_data, linesize, nb_channels, nb_samples, sample_fmt, align))                           \
  X(LIB_AVUTIL, int, AVERROR(ENOSYS), av_samples_set_silence,                                     \
    (uint8_t * *audio_data, int offset, int nb_samples, int nb_channels,                          \
     enum AVSampleFormat sample_fmt),                                                             \
    (audio_data, offset, nb_samples, nb_channels, sample_fmt))                                    \
  X(LIB_AVUTIL, int, AVERROR(ENOSYS), av_strerror, (int errnum, char *errbuf, size_t errbuf_size), \
    (errnum, errbuf, errbuf_size))                                                                \
  X(LIB_SWRESAMPLE, int, AVERROR(ENOSYS), swr_alloc_set_opts2,                                    \
    (struct SwrContext * *ps, AVChannelLayout * out_ch_layout, enum AVSampleFormat out_sample_fmt, \
     int out_sample_rate, AVChannelLayout *in_ch_layout, enum AVSampleFormat in_sample_fmt,       \
     int in_sample_rate, int log_offset, void *log_ctx),                                          \
    (ps, out_ch_layout, out_sample_fmt, out_sample_rate, in_ch_layout, in_sample_fmt,             \
     in_sample_rate, log_offset, log_ctx))                                                        \
  X(LIB_SWRESAMPLE, int, AVERROR(ENOSYS), swr_convert,                                            \
    (struct SwrContext * s, uint8_t * *out, int out_count, const uint8_t **in, int in_count),     \
    (s, out, out_count, in, in_count))                                                            \
  V(LIB_SWRESAMPLE, swr_free, (struct SwrContext * *s), (s))                                      \
  X(LIB_SWRESAMPLE, int, AVERROR(ENOSYS), swr_get_out_samples,                                    \
    (struct SwrContext * s, int in_samples), (s, in_samples))                                     \
  X(LIB_SWRESAMPLE, int, AVERROR(ENOSYS), swr_init, (struct SwrContext * s), (s))                 \
  X(LIB_SWRESAMPLE, int, AVERROR(ENOSYS), swr_set_matrix,                                         \
    (struct SwrContext * s, const double *matrix, int stride), (s, matrix, stride))               \
  X(LIB_AVCODEC, AVPacket *, NULL, av_packet_alloc, (void), ())                                   \
  V(LIB_AVCODEC, av_packet_free, (AVPacket * *pkt), (pkt))                                        \
  X(LIB_AVCODEC, uint8_t *, NULL, av_packet_get_side_data,                                        \
    (const AVPacket *pkt, enum AVPacketSideDataType type, size_t *size), (pkt, type, size))       \
  X(LIB_AVCODEC, uint8_t *, NULL, av_packet_new_side_data,                                        \
    (AVPacket * pkt, enum AVPacketSideDataType type, size_t size), (pkt, type, size))             \
  V(LIB_AVCODEC, av_packet_rescale_ts, (AVPacket * pkt, AVRational tb_src, AVRational tb_dst),   \
    (pkt, tb_src, tb_dst))                                                                        \
  V(LIB_AVCODEC, av_packet_unref, (AVPacket * pkt), (pkt))                                        \
  X(LIB_AVCODEC, AVCodecContext *, NULL, avcodec_alloc_context3, (const AVCodec *codec), (codec)) \
  X(LIB_AVCODEC, const AVCodec *, NULL, avcodec_find_decoder, (enum AVCodecID id), (id))          \
  X(LIB_AVCODEC, const AVCodec *, NULL, avcodec_find_encoder, (enum AVCodecID id), (id))          \
  X(LIB_AVCODEC, const AVCodec *, NULL, avcodec_find_encoder_by_name, (const char *name), (name)) \
  V(LIB_AVCODEC, avcodec_free_context, (AVCodecContext * *avctx), (avctx))                        \
  X(LIB_AVCODEC, const char *, "unknown", avcodec_get_name, (enum AVCodecID id), (id))            \
  X(LIB_AVCODEC, int, AVERROR(ENOSYS), avcodec_open2,                                             \
    (AVCodecContext * avctx, const AVCodec *codec, AVDictionary **options),                       \
    (avctx, codec, options))                                                                      \
  X(LIB_AVCODEC, int, AVERROR(ENOSYS), avcodec_parameters_from_context,                           \
    (AVCodecParameters * par, const AVCodecContext *codec), (par, codec))                         \
  X(LIB_AVCODEC, int, AVERROR(ENOSYS), avcodec_parameters_to_context,                             \
    (AVCodecContext * codec, const AVCodecParameters *par), (codec, par))                         \
  X(LIB_AVCODEC, const char *, NULL, avcodec_profile_name,                                        \
    (enum AVCodecID codec_id, int profile), (codec_id, profile))                                  \
  X(LIB_AVCODEC, int, AVERROR(ENOSYS), avcodec_receive_frame,                                     \
    (AVCodecContext * avctx, AVFrame * frame), (avctx, frame))                                    \
  X(LIB_AVCODEC, int, AVERROR(ENOSYS), avcodec_receive_packet,                                    \
    (AVCodecContext * avctx, AVPacket * avpkt), (avctx, avpkt))                                   \
  X(LIB_AVCODEC, int, AVERROR(ENOSYS), avcodec_send_frame,                                        \
    (AVCodecContext * avctx, const AVFrame *frame), (avctx, frame))                               \
  X(LIB_AVCODEC, int, AVERROR(ENOSYS), avcodec_send_packet,                                       \
    (AVCodecContext * avctx, const AVPacket *avpkt), (avctx, avpkt))                              \
  X(LIB_AVFORMAT, const char *, NULL, av_disposition_to_string, (int disposition), (disposition)) \
  X(LIB_AVFORMAT, const AVInputFormat *, NULL, av_find_input_format, (const char *short_name),    \
    (short_name))                                                                                 \
  X(LIB_AVFORMAT, int, AVERROR(ENOSYS), av_interleaved_write_frame,                               \
    (AVFormatContext * s, AVPacket * pkt), (s, pkt))                                              \
  X(LIB_AVFORMAT, int, AVERROR(ENOSYS), av_read_frame, (AVFormatContext * s, AVPacket * pkt),    \
    (s, pkt))                                                                                     \
  X(LIB_AVFORMAT, int, AVERROR(ENOSYS), av_write_trailer, (AVFormatContext * s), (s))             \
  X(LIB_AVFORMAT, AVFormatContext *, NULL, avformat_alloc_context, (void), ())                    \
  X(LIB_AVFORMAT, int, AVERROR(ENOSYS), avformat_alloc_output_context2,                           \
    (AVFormatContext * *ctx, const AVOutputFormat *oformat, const char *format_name,              \
     const char *filename),                                                                       \
    (ctx, oformat, format_name, filename))                                                        \
  V(LIB_AVFORMAT, avformat_close_input, (AVFormatContext * *s), (s))                              \
  X(LIB_AVFORMAT, int, 0, avformat_index_get_entries_count, (const AVStream *st), (st))          \
  X(LIB_AVFORMAT, const AVIndexEntry *, NULL, avformat_index_get_entry, (AVStream * st, int idx),  \
    (st, idx))                                                                                    \
  X(LIB_AVFORMAT, int, AVERROR(ENOSYS), avformat_find_stream_info,                                \
    (AVFormatContext * ic, AVDictionary **options), (ic, options))                                \
  V(LIB_AVFORMAT, avformat_free_context, (AVFormatContext * s), (s))                              \
  X(LIB_AVFORMAT, AVStream *, NULL, avformat_new_stream, (AVFormatContext * s, const AVCodec *c), \
    (s, c))                                                                                       \
  X(LIB_AVFORMAT, int, AVERROR(ENOSYS), avformat_seek_file,                                       \
    (AVFormatContext * s, int stream_index, int64_t min_ts, int64_t ts, int64_t max_ts, int flags), \
    (s, stream_index, min_ts, ts, max_ts, flags))                                                 \
  X(LIB_AVFORMAT, int, AVERROR(ENOSYS), avformat_open_input,                                      \
    (AVFormatContext * *ps, const char *url, const AVInputFormat *fmt, AVDictionary **options),   \
    (ps, url, fmt, options))                                                                      \
  X(LIB_AVFORMAT, int, AVERROR(ENOSYS), avformat_write_header,                                    \
    (AVFormatContext * s, AVDictionary **options), (s, options))                                  \
  X(LIB_AVFORMAT, AVIOContext *, NULL, avio_alloc_context,                                        \
    (unsigned char *buffer, int buffer_size, int write_flag, void *opaque,                        \
     int (*read_packet)(void *opaque, uint8_t *buf, int buf_size),                                \
     int (*write_packet)(void *opaque, uint8_t *buf, int buf_size),                               \
     int64_t (*seek)(void *opaque, int64_t offset, int whence)),                                  \
    (buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek))                   \
  X(LIB_AVFORMAT, int, AVERROR(ENOSYS), avio_closep, (AVIOContext * *s), (s))                     \
  V(LIB_AVFORMAT, avio_context_free, (AVIOContext * *s), (s))                                     \
  V(LIB_AVFORMAT, avio_flush, (AVIOContext * s), (s))                                             \
  X(LIB_AVFORMAT, int, AVERROR(ENOSYS), avio_open, (AVIOContext * *s, const char *url, int flags), \
    (s, url, flags))                                                                              \
  X(LIB_AVFORMAT, int, AVERROR(ENOSYS), avio_open2,                                               \
    (AVIOContext * *s, const char *url, int flags, const AVIOInterruptCB *int_cb,                 \
     AVDictionary **options),                                                                     \
    (s, url, flags, int_cb, options))                                                             \
  X(LIB_AVFORMAT, int, AVERROR(ENOSYS), avio_read, (AVIOContext * s, unsigned char *buf, int size), \
    (s, buf, size))                                                                               \
  X(LIB_AVFORMAT, int64_t, AVERROR(ENOSYS), avio_size, (AVIOContext * s), (s))                    \
  X(LIB_AVFORMAT, int64_t, AVERROR(ENOSYS), avio_seek, (AVIOContext * s, int64_t offset, int whence), \
    (s, offset, whence))                                                                          \
  X(LIB_AVFORMAT, int, AVERROR(ENOSYS), avformat_network_init, (void), ())

/* The real functions, found by `load`. */
#define CFF_FIELD(lib, ret, fallback, name, params, args) __typeof__(name) *name;
#define CFF_VOID_FIELD(lib, name, params, args) __typeof__(name) *name;
static struct {
  CFF_FUNCTIONS(CFF_FIELD, CFF_VOID_FIELD)
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512];

/* The file name of each library, from the major versions of the headers this was built with. */
#if defined(__APPLE__)
#define CFF_SONAME(name, major) "lib" name "." CFF_STRING(major) ".dylib"
#else
#define CFF_SONAME(name, major) "lib" name ".so." CFF_STRING(major)
#endif
static const char *const library_names[LIB_COUNT] = {
    CFF_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR),
    CFF_SONAME("swresample", LIBSWRESAMPLE_VERSION_MAJOR),
    CFF_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR),
    CFF_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR),
};

/* Opens one library by file name: the loader's search path first, then, on Apple platforms, the
   usual package-manager prefixes (not searched by default there). */
static void *open_library(const char *name) {
  void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
#if defined(__APPLE__)
  static const char *const prefixes[] = {"/opt/homebrew/lib/", "/usr/local/lib/",
                                         "/opt/local/lib/"};
  for (size_t i = 0; handle == NULL && i < sizeof prefixes / sizeof prefixes[0]; i++) {
    char path[256];
    snprintf(path, sizeof path, "%s%s", prefixes[i], name);
    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  }
#endif
  return handle;
}

static void load(void) {
  void *handles[LIB_COUNT];
  for (int i = 0; i < LIB_COUNT; i++) {
    handles[i] = open_library(library_names[i]);
    if (handles[i] == NULL) {
      const char *why = dlerror();
      snprintf(failure, sizeof failure, "cannot load FFmpeg's %s: %s", library_names[i],
               why != NULL ? why : "not found");
      return;
    }
  }
#define CFF_FIND(lib, name)                                                                       \
  api.name = (__typeof__(name) *)dlsym(handles[lib], #name);                                      \
  if (api.name == NULL) {                                                                         \
    snprintf(failure, sizeof failure, "FFmpeg's %s has no function %s", library_names[lib],      \
             #name);                                                                              \
    return;                                                                                       \
  }
#define CFF_FIND_VALUE(lib, ret, fallback, name, params, args) CFF_FIND(lib, name)
#define CFF_FIND_VOID(lib, name, params, args) CFF_FIND(lib, name)
  CFF_FUNCTIONS(CFF_FIND_VALUE, CFF_FIND_VOID)
  /* No single allocation of FFmpeg's may exceed 512 MiB (its default allows 2 GiB): a file of
     a few KB whose header states a table of hundreds of millions of entries (an MP4 sample
     table, a Matroska element's size) then fails to open with ENOMEM instead of reserving
     gigabytes. The largest legitimate block when reading audio, the index of a 48-hour
     60 frame/s video track, is about 240 MiB. */
  api.av_max_alloc((size_t)512 << 20);
  loaded = 1;
}

int cff_load(void) {
  pthread_once(&once, load);
  return loaded;
}

const char *cff_load_failure(void) { return failure[0] != 0 ? failure : "not loaded"; }

/* The forwarders. */
#define CFF_FORWARD(lib, ret, fallback, name, params, args)                                       \
  CFF_HIDDEN ret name params { return cff_load() ? api.name args : (fallback); }
#define CFF_FORWARD_VOID(lib, name, params, args)                                                 \
  CFF_HIDDEN void name params {                                                                   \
    if (cff_load()) api.name args;                                                                \
  }
CFF_FUNCTIONS(CFF_FORWARD, CFF_FORWARD_VOID)
