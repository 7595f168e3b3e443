/*
 * tflite_offline.h — a plan written into a copy of a .tflite model as TFLite
 * Micro's offline memory plan, the metadata entry "OfflineMemoryAllocation"
 * (tflite.h documents its int32 words; TFLite Micro's micro_allocator.cc
 * reads them and gives each tensor with an offset >= 0 that offset in the
 * arena, planning the -1 tensors online around them).
 *
 * How the copy is made. Flatbuffer references only point forward, so the new
 * parts go IN FRONT of the old bytes, never after them:
 *
 *   [root offset]["TFL3"][new Model table][new buffers vector][new metadata
 *   vector][Metadata table]["OfflineMemoryAllocation"][Buffer table]
 *   [its int32 words, 16-aligned][padding to 16] | the old file, unchanged
 *
 * The new Model table copies every field of the old one (schema fields 0-7:
 * version, operator_codes, subgraphs, description, buffers, metadata_buffer,
 * metadata, signature_defs), its references re-pointed at the old objects,
 * which all moved by the same multiple of 16 (so every alignment holds). The
 * buffers vector is the old one plus the new buffer (indices do not move);
 * the metadata vector is the old one without any earlier
 * "OfflineMemoryAllocation" entry, plus the new one. The old Model table and
 * vectors stay in the file, unreferenced. Refused: a Model field the schema
 * does not have (its type is unknown, so it could not be re-pointed) and a
 * buffer stored outside the flatbuffer (Buffer.offset, models over 2 GB: an
 * absolute position that moving the bytes would break).
 */
#ifndef AB_TFLITE_OFFLINE_H
#define AB_TFLITE_OFFLINE_H

#include "core/buf.h"
#include "core/problem.h"
#include "harness/formats/tflite.h"

/* The offline plan of model m (parsed by abf_tflite_parse) for a plan of
 * view (a suite of m's tensors, by name: the .tflite itself or a suite
 * imported from it): *out (owned, m->ntensors entries) holds offsets[i] at the
 * subgraph index of view tensor i and -1 everywhere else. AB_EINPUT naming
 * the tensor when a view tensor is not in the model, or an offset does not
 * fit an int32. */
ab_status abf_tflite_offline_offsets(const abf_tflite_model *m, const ab_problem *view,
                                     const int64_t *offsets, int32_t **out, ab_error *err);

/* Appends to out a copy of the model in the len bytes at buf (file names it
 * in messages) carrying the offline plan offsets[0..n) for subgraph 0, in
 * format version 1 (see above). buf is not changed. AB_EINPUT naming the
 * byte for what cannot be rewritten or is malformed; AB_ENOMEM. */
ab_status abf_tflite_offline_write(const char *file, const unsigned char *buf, size_t len,
                                   const int32_t *offsets, size_t n, ab_buf *out, ab_error *err);

#endif
