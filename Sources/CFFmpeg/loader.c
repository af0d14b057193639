/* Loads FFmpeg's shared libraries at first use and forwards to them every FFmpeg function the
   package calls (see cffmpeg.h). */

#include "cffmpeg.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The forwarding definitions stay inside the binary that links this target: FFmpeg's libraries
   must not bind their calls to each other (av_malloc, say) to them. (dlopen's RTLD_DEEPBIND
   would also keep those calls inside FFmpeg, but the address and thread sanitizer runtimes
   refuse to load a library with it.) */
#define CFF_FORWARD __attribute__((visibility("hidden")))

#define CFF_STRING_(x) #x
#define CFF_STRING(x) CFF_STRING_(x)
#if defined(__APPLE__)
#define CFF_SONAME(name, major) "lib" name "." CFF_STRING(major) ".dylib"
#else
#define CFF_SONAME(name, major) "lib" name ".so." CFF_STRING(major)
#endif

/* In load order: each library after the ones it depends on. */
enum { CFF_AVUTIL, CFF_SWRESAMPLE, CFF_AVCODEC, CFF_AVFORMAT, CFF_LIBRARY_COUNT };

/* The major versions of the headers this was compiled with, as the sonames carry them. */
static const char *const cff_sonames[CFF_LIBRARY_COUNT] = {
    [CFF_AVUTIL] = CFF_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR),
    [CFF_SWRESAMPLE] = CFF_SONAME("swresample", LIBSWRESAMPLE_VERSION_MAJOR),
    [CFF_AVCODEC] = CFF_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR),
    [CFF_AVFORMAT] = CFF_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR),
};

/* Every forwarded function, with the library that defines it. */
#define CFF_FUNCTIONS(X)                                    \
  X(CFF_AVUTIL, av_audio_fifo_alloc)                        \
  X(CFF_AVUTIL, av_audio_fifo_free)                         \
  X(CFF_AVUTIL, av_audio_fifo_read)                         \
  X(CFF_AVUTIL, av_audio_fifo_size)                         \
  X(CFF_AVUTIL, av_audio_fifo_write)                        \
  X(CFF_AVUTIL, av_channel_layout_copy)                     \
  X(CFF_AVUTIL, av_channel_layout_default)                  \
  X(CFF_AVUTIL, av_channel_layout_describe)                 \
  X(CFF_AVUTIL, av_channel_layout_uninit)                   \
  X(CFF_AVUTIL, av_dict_get)                                \
  X(CFF_AVUTIL, av_frame_alloc)                             \
  X(CFF_AVUTIL, av_frame_free)                              \
  X(CFF_AVUTIL, av_frame_get_buffer)                        \
  X(CFF_AVUTIL, av_frame_make_writable)                     \
  X(CFF_AVUTIL, av_frame_unref)                             \
  X(CFF_AVUTIL, av_free)                                    \
  X(CFF_AVUTIL, av_freep)                                   \
  X(CFF_AVUTIL, av_log_set_level)                           \
  X(CFF_AVUTIL, av_malloc)                                  \
  X(CFF_AVUTIL, av_sample_fmt_is_planar)                    \
  X(CFF_AVUTIL, av_samples_alloc)                           \
  X(CFF_AVUTIL, av_samples_set_silence)                     \
  X(CFF_AVUTIL, av_strerror)                                \
  X(CFF_SWRESAMPLE, swr_alloc_set_opts2)                    \
  X(CFF_SWRESAMPLE, swr_convert)                            \
  X(CFF_SWRESAMPLE, swr_free)                               \
  X(CFF_SWRESAMPLE, swr_get_out_samples)                    \
  X(CFF_SWRESAMPLE, swr_init)                               \
  X(CFF_AVCODEC, av_packet_alloc)                           \
  X(CFF_AVCODEC, av_packet_free)                            \
  X(CFF_AVCODEC, av_packet_rescale_ts)                      \
  X(CFF_AVCODEC, av_packet_unref)                           \
  X(CFF_AVCODEC, avcodec_alloc_context3)                    \
  X(CFF_AVCODEC, avcodec_find_decoder)                      \
  X(CFF_AVCODEC, avcodec_find_encoder)                      \
  X(CFF_AVCODEC, avcodec_find_encoder_by_name)              \
  X(CFF_AVCODEC, avcodec_free_context)                      \
  X(CFF_AVCODEC, avcodec_get_name)                          \
  X(CFF_AVCODEC, avcodec_open2)                             \
  X(CFF_AVCODEC, avcodec_parameters_from_context)           \
  X(CFF_AVCODEC, avcodec_parameters_to_context)             \
  X(CFF_AVCODEC, avcodec_profile_name)                      \
  X(CFF_AVCODEC, avcodec_receive_frame)                     \
  X(CFF_AVCODEC, avcodec_receive_packet)                    \
  X(CFF_AVCODEC, avcodec_send_frame)                        \
  X(CFF_AVCODEC, avcodec_send_packet)                       \
  X(CFF_AVFORMAT, av_disposition_to_string)                 \
  X(CFF_AVFORMAT, av_find_input_format)                     \
  X(CFF_AVFORMAT, av_interleaved_write_frame)               \
  X(CFF_AVFORMAT, av_read_frame)                            \
  X(CFF_AVFORMAT, av_write_trailer)                         \
  X(CFF_AVFORMAT, avformat_alloc_context)                   \
  X(CFF_AVFORMAT, avformat_alloc_output_context2)           \
  X(CFF_AVFORMAT, avformat_close_input)                     \
  X(CFF_AVFORMAT, avformat_find_stream_info)                \
  X(CFF_AVFORMAT, avformat_free_context)                    \
  X(CFF_AVFORMAT, avformat_new_stream)                      \
  X(CFF_AVFORMAT, avformat_open_input)                      \
  X(CFF_AVFORMAT, avformat_write_header)                    \
  X(CFF_AVFORMAT, avio_alloc_context)                       \
  X(CFF_AVFORMAT, avio_closep)                              \
  X(CFF_AVFORMAT, avio_context_free)                        \
  X(CFF_AVFORMAT, avio_flush)                               \
  X(CFF_AVFORMAT, avio_open)

/* The real functions, filled in by cff_load_once. */
static struct {
#define CFF_POINTER(library, name) __typeof__(&name) name;
  CFF_FUNCTIONS(CFF_POINTER)
#undef CFF_POINTER
} cff_table;

static pthread_once_t cff_once = PTHREAD_ONCE_INIT;
static atomic_int cff_loaded;
static int cff_status = -1;
static char cff_error[512];

static void cff_fail(const char *why) {
  snprintf(cff_error, sizeof cff_error, "cannot load FFmpeg: %s",
           why != NULL ? why : "unknown error");
}

static void cff_load_once(void) {
  void *handles[CFF_LIBRARY_COUNT];
  for (int i = 0; i < CFF_LIBRARY_COUNT; i++) {
    /* Never closed: FFmpeg stays loaded for the rest of the process. */
    handles[i] = dlopen(cff_sonames[i], RTLD_NOW | RTLD_LOCAL);
    if (handles[i] == NULL) {
      cff_fail(dlerror()); /* names the library and the reason */
      return;
    }
  }
#define CFF_LOOKUP(library, name)                                   \
  *(void **)&cff_table.name = dlsym(handles[library], #name);       \
  if (cff_table.name == NULL) {                                     \
    snprintf(cff_error, sizeof cff_error,                           \
             "cannot load FFmpeg: %s has no function " #name,       \
             cff_sonames[library]);                                 \
    return;                                                         \
  }
  CFF_FUNCTIONS(CFF_LOOKUP)
#undef CFF_LOOKUP
  cff_status = 0;
  atomic_store_explicit(&cff_loaded, 1, memory_order_release);
}

int cff_load(void) {
  if (atomic_load_explicit(&cff_loaded, memory_order_acquire)) return 0;
  pthread_once(&cff_once, cff_load_once);
  return cff_status;
}

const char *cff_load_error(void) {
  pthread_once(&cff_once, cff_load_once);
  return cff_error;
}

/* Loads FFmpeg before a forwarded call, or ends the process with the reason: a forwarded
   function cannot report an error of its own. */
static void cff_require(void) {
  if (cff_load() != 0) {
    fprintf(stderr, "%s\n", cff_error);
    abort();
  }
}

#define CFF_FN(name)                                                             \
  (__builtin_expect(!atomic_load_explicit(&cff_loaded, memory_order_acquire), 0) \
       ? (cff_require(), cff_table.name)                                         \
       : cff_table.name)

/* The forwarding definitions, in the order of CFF_FUNCTIONS. */

CFF_FORWARD AVAudioFifo *av_audio_fifo_alloc(enum AVSampleFormat sample_fmt, int channels,
                                             int nb_samples) {
  return CFF_FN(av_audio_fifo_alloc)(sample_fmt, channels, nb_samples);
}

CFF_FORWARD void av_audio_fifo_free(AVAudioFifo *af) {
  CFF_FN(av_audio_fifo_free)(af);
}

CFF_FORWARD int av_audio_fifo_read(AVAudioFifo *af, void **data, int nb_samples) {
  return CFF_FN(av_audio_fifo_read)(af, data, nb_samples);
}

CFF_FORWARD int av_audio_fifo_size(AVAudioFifo *af) {
  return CFF_FN(av_audio_fifo_size)(af);
}

CFF_FORWARD int av_audio_fifo_write(AVAudioFifo *af, void **data, int nb_samples) {
  return CFF_FN(av_audio_fifo_write)(af, data, nb_samples);
}

CFF_FORWARD int av_channel_layout_copy(AVChannelLayout *dst, const AVChannelLayout *src) {
  return CFF_FN(av_channel_layout_copy)(dst, src);
}

CFF_FORWARD void av_channel_layout_default(AVChannelLayout *ch_layout, int nb_channels) {
  CFF_FN(av_channel_layout_default)(ch_layout, nb_channels);
}

CFF_FORWARD int av_channel_layout_describe(const AVChannelLayout *channel_layout, char *buf,
                                           size_t buf_size) {
  return CFF_FN(av_channel_layout_describe)(channel_layout, buf, buf_size);
}

CFF_FORWARD void av_channel_layout_uninit(AVChannelLayout *channel_layout) {
  CFF_FN(av_channel_layout_uninit)(channel_layout);
}

CFF_FORWARD AVDictionaryEntry *av_dict_get(const AVDictionary *m, const char *key,
                                           const AVDictionaryEntry *prev, int flags) {
  return CFF_FN(av_dict_get)(m, key, prev, flags);
}

CFF_FORWARD AVFrame *av_frame_alloc(void) {
  return CFF_FN(av_frame_alloc)();
}

CFF_FORWARD void av_frame_free(AVFrame **frame) {
  CFF_FN(av_frame_free)(frame);
}

CFF_FORWARD int av_frame_get_buffer(AVFrame *frame, int align) {
  return CFF_FN(av_frame_get_buffer)(frame, align);
}

CFF_FORWARD int av_frame_make_writable(AVFrame *frame) {
  return CFF_FN(av_frame_make_writable)(frame);
}

CFF_FORWARD void av_frame_unref(AVFrame *frame) {
  CFF_FN(av_frame_unref)(frame);
}

CFF_FORWARD void av_free(void *ptr) {
  CFF_FN(av_free)(ptr);
}

CFF_FORWARD void av_freep(void *ptr) {
  CFF_FN(av_freep)(ptr);
}

CFF_FORWARD void av_log_set_level(int level) {
  CFF_FN(av_log_set_level)(level);
}

CFF_FORWARD void *av_malloc(size_t size) {
  return CFF_FN(av_malloc)(size);
}

CFF_FORWARD int av_sample_fmt_is_planar(enum AVSampleFormat sample_fmt) {
  return CFF_FN(av_sample_fmt_is_planar)(sample_fmt);
}

CFF_FORWARD int av_samples_alloc(uint8_t **audio_data, int *linesize, int nb_channels,
                                 int nb_samples, enum AVSampleFormat sample_fmt, int align) {
  return CFF_FN(av_samples_alloc)(audio_data, linesize, nb_channels, nb_samples, sample_fmt, align);
}

CFF_FORWARD int av_samples_set_silence(uint8_t **audio_data, int offset, int nb_samples,
                                       int nb_channels, enum AVSampleFormat sample_fmt) {
  return CFF_FN(av_samples_set_silence)(audio_data, offset, nb_samples, nb_channels, sample_fmt);
}

CFF_FORWARD int av_strerror(int errnum, char *errbuf, size_t errbuf_size) {
  return CFF_FN(av_strerror)(errnum, errbuf, errbuf_size);
}

CFF_FORWARD int swr_alloc_set_opts2(struct SwrContext **ps, AVChannelLayout *out_ch_layout,
                                    enum AVSampleFormat out_sample_fmt, int out_sample_rate,
                                    AVChannelLayout *in_ch_layout,
                                    enum AVSampleFormat in_sample_fmt, int in_sample_rate,
                                    int log_offset, void *log_ctx) {
  return CFF_FN(swr_alloc_set_opts2)(ps, out_ch_layout, out_sample_fmt, out_sample_rate,
      in_ch_layout, in_sample_fmt, in_sample_rate, log_offset, log_ctx);
}

CFF_FORWARD int swr_convert(struct SwrContext *s, uint8_t **out, int out_count, const uint8_t **in,
                            int in_count) {
  return CFF_FN(swr_convert)(s, out, out_count, in, in_count);
}

CFF_FORWARD void swr_free(struct SwrContext **s) {
  CFF_FN(swr_free)(s);
}

CFF_FORWARD int swr_get_out_samples(struct SwrContext *s, int in_samples) {
  return CFF_FN(swr_get_out_samples)(s, in_samples);
}

CFF_FORWARD int swr_init(struct SwrContext *s) {
  return CFF_FN(swr_init)(s);
}

CFF_FORWARD AVPacket *av_packet_alloc(void) {
  return CFF_FN(av_packet_alloc)();
}

CFF_FORWARD void av_packet_free(AVPacket **pkt) {
  CFF_FN(av_packet_free)(pkt);
}

CFF_FORWARD void av_packet_rescale_ts(AVPacket *pkt, AVRational tb_src, AVRational tb_dst) {
  CFF_FN(av_packet_rescale_ts)(pkt, tb_src, tb_dst);
}

CFF_FORWARD void av_packet_unref(AVPacket *pkt) {
  CFF_FN(av_packet_unref)(pkt);
}

CFF_FORWARD AVCodecContext *avcodec_alloc_context3(const AVCodec *codec) {
  return CFF_FN(avcodec_alloc_context3)(codec);
}

CFF_FORWARD const AVCodec *avcodec_find_decoder(enum AVCodecID id) {
  return CFF_FN(avcodec_find_decoder)(id);
}

CFF_FORWARD const AVCodec *avcodec_find_encoder(enum AVCodecID id) {
  return CFF_FN(avcodec_find_encoder)(id);
}

CFF_FORWARD const AVCodec *avcodec_find_encoder_by_name(const char *name) {
  return CFF_FN(avcodec_find_encoder_by_name)(name);
}

CFF_FORWARD void avcodec_free_context(AVCodecContext **avctx) {
  CFF_FN(avcodec_free_context)(avctx);
}

CFF_FORWARD const char *avcodec_get_name(enum AVCodecID id) {
  return CFF_FN(avcodec_get_name)(id);
}

CFF_FORWARD int avcodec_open2(AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options) {
  return CFF_FN(avcodec_open2)(avctx, codec, options);
}

CFF_FORWARD int avcodec_parameters_from_context(AVCodecParameters *par,
                                                const AVCodecContext *codec) {
  return CFF_FN(avcodec_parameters_from_context)(par, codec);
}

CFF_FORWARD int avcodec_parameters_to_context(AVCodecContext *codec, const AVCodecParameters *par) {
  return CFF_FN(avcodec_parameters_to_context)(codec, par);
}

CFF_FORWARD const char *avcodec_profile_name(enum AVCodecID codec_id, int profile) {
  return CFF_FN(avcodec_profile_name)(codec_id, profile);
}

CFF_FORWARD int avcodec_receive_frame(AVCodecContext *avctx, AVFrame *frame) {
  return CFF_FN(avcodec_receive_frame)(avctx, frame);
}

CFF_FORWARD int avcodec_receive_packet(AVCodecContext *avctx, AVPacket *avpkt) {
  return CFF_FN(avcodec_receive_packet)(avctx, avpkt);
}

CFF_FORWARD int avcodec_send_frame(AVCodecContext *avctx, const AVFrame *frame) {
  return CFF_FN(avcodec_send_frame)(avctx, frame);
}

CFF_FORWARD int avcodec_send_packet(AVCodecContext *avctx, const AVPacket *avpkt) {
  return CFF_FN(avcodec_send_packet)(avctx, avpkt);
}

CFF_FORWARD const char *av_disposition_to_string(int disposition) {
  return CFF_FN(av_disposition_to_string)(disposition);
}

CFF_FORWARD const AVInputFormat *av_find_input_format(const char *short_name) {
  return CFF_FN(av_find_input_format)(short_name);
}

CFF_FORWARD int av_interleaved_write_frame(AVFormatContext *s, AVPacket *pkt) {
  return CFF_FN(av_interleaved_write_frame)(s, pkt);
}

CFF_FORWARD int av_read_frame(AVFormatContext *s, AVPacket *pkt) {
  return CFF_FN(av_read_frame)(s, pkt);
}

CFF_FORWARD int av_write_trailer(AVFormatContext *s) {
  return CFF_FN(av_write_trailer)(s);
}

CFF_FORWARD AVFormatContext *avformat_alloc_context(void) {
  return CFF_FN(avformat_alloc_context)();
}

CFF_FORWARD int avformat_alloc_output_context2(AVFormatContext **ctx, const AVOutputFormat *oformat,
                                               const char *format_name, const char *filename) {
  return CFF_FN(avformat_alloc_output_context2)(ctx, oformat, format_name, filename);
}

CFF_FORWARD void avformat_close_input(AVFormatContext **s) {
  CFF_FN(avformat_close_input)(s);
}

CFF_FORWARD int avformat_find_stream_info(AVFormatContext *ic, AVDictionary **options) {
  return CFF_FN(avformat_find_stream_info)(ic, options);
}

CFF_FORWARD void avformat_free_context(AVFormatContext *s) {
  CFF_FN(avformat_free_context)(s);
}

CFF_FORWARD AVStream *avformat_new_stream(AVFormatContext *s, const AVCodec *c) {
  return CFF_FN(avformat_new_stream)(s, c);
}

CFF_FORWARD int avformat_open_input(AVFormatContext **ps, const char *url, const AVInputFormat *fmt,
                                    AVDictionary **options) {
  return CFF_FN(avformat_open_input)(ps, url, fmt, options);
}

CFF_FORWARD int avformat_write_header(AVFormatContext *s, AVDictionary **options) {
  return CFF_FN(avformat_write_header)(s, options);
}

CFF_FORWARD AVIOContext *avio_alloc_context(unsigned char *buffer, int buffer_size, int write_flag,
                                            void *opaque,
                                            int (*read_packet)(void *, uint8_t *, int),
                                            int (*write_packet)(void *, uint8_t *, int),
                                            int64_t (*seek)(void *, int64_t, int)) {
  return CFF_FN(avio_alloc_context)(buffer, buffer_size, write_flag, opaque, read_packet,
      write_packet, seek);
}

CFF_FORWARD int avio_closep(AVIOContext **s) {
  return CFF_FN(avio_closep)(s);
}

CFF_FORWARD void avio_context_free(AVIOContext **s) {
  CFF_FN(avio_context_free)(s);
}

CFF_FORWARD void avio_flush(AVIOContext *s) {
  CFF_FN(avio_flush)(s);
}

CFF_FORWARD int avio_open(AVIOContext **s, const char *url, int flags) {
  return CFF_FN(avio_open)(s, url, flags);
}
