/*
 * simdbloom_files.h: the persistence and files sections of simdbloom.h:
 * the serialized forms (ours, Guava's), detection, encode/decode by
 * number, save, load, verify, map and the read-modify-write file lock.
 *
 * Part of the one public header, not a header of its own: users write
 * #include <simdbloom.h>, which includes this file at its end. Included
 * alone it stops with #error: it needs SBF_API, sbf_filter and sbf_allocator
 * from simdbloom.h, and one way in lets the parts be re-cut freely.
 */
#ifndef SIMDBLOOM_FILES_H_A473E516
#define SIMDBLOOM_FILES_H_A473E516

#if !defined(SIMDBLOOM_H_8A31F0C2)
#  error "simdbloom_files.h is part of simdbloom.h: #include <simdbloom.h> instead"
#endif

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* ------------------------------------------------------------- persistence
 * A filter's serialized forms. Ours is described, normatively and field by
 * field, in doc/format.md; Guava's below. Loaders check every byte from
 * outside before they allocate: a refused buffer changes nothing and leaves
 * *out NULL (when out is not NULL). Writers only read f and are thread
 * safe, but not while another thread adds to an SBF_CONCURRENT f (the bytes
 * and their checksum must be one snapshot). Loaders make plain filters
 * (flags 0) on the current ISA's kernels.
 */

/* The forms, numbered once (0 means "detect" where a function says so). */
#define SBF_FORMAT_SBF      1  /* simdbloom's own, doc/format.md */
#define SBF_FORMAT_GUAVA    2  /* Guava's BloomFilter.writeTo */
#define SBF_FORMAT_PARQUET  3  /* Parquet's BloomFilterHeader + bitset */

/*
 * Guava's BloomFilter.writeTo form (classic layout with seed 0 only): one
 * byte strategy (1 = MURMUR128_MITZ_64), one byte k, big-endian int32 word
 * count, big-endian int64 words. It carries no key count: an imported
 * filter's keys_added is SBF_KEYS_UNKNOWN.
 * sbf_export_guava returns SBF_OK, SBF_E_NULL, SBF_E_UNSUPPORTED (not a
 * seed-0 classic filter), SBF_E_NOMEM.
 * sbf_import_guava returns SBF_OK, SBF_E_NULL, SBF_E_TRUNCATED (shorter than
 * the header, or than the words it announces), SBF_E_TRAILING (bytes after
 * the last word), SBF_E_STRATEGY, SBF_E_K (k = 0), SBF_E_WORDCOUNT (count
 * <= 0), SBF_E_NOMEM, SBF_E_ISA_UNKNOWN, SBF_E_ISA_UNAVAILABLE (the forced
 * ISA, as sbf_create). sbf_import_guava_ex takes an allocator for the new
 * filter (NULL: the library's; see sbf_allocator) and returns the same
 * codes, and SBF_E_PARAM for an allocator without alloc or free.
 */
SBF_API int sbf_export_guava(const sbf_filter *f, void **buf, size_t *len);
SBF_API int sbf_import_guava(sbf_filter **out, const void *buf, size_t len);
SBF_API int sbf_import_guava_ex(sbf_filter **out, const void *buf, size_t len,
                                const sbf_allocator *allocator);

/*
 * simdbloom's own portable form, for every layout (doc/format.md): format
 * version 2, a 4096-byte little-endian header, then the filter bytes,
 * sbf_data's, at offset 4096. sbf_serialize's buffer is byte for byte what
 * sbf_save writes to a file; it is page aligned (free() or sbf_buffer_free
 * releases it). sbf_deserialize reads versions 1 and 2 at any alignment,
 * checking everything (header, geometry against the data length, both
 * checksums, zero padding) before it allocates.
 * sbf_serialize returns SBF_OK, SBF_E_NULL, SBF_E_NOMEM, SBF_E_ENDIAN.
 * sbf_deserialize returns SBF_OK, SBF_E_NULL, SBF_E_TRUNCATED,
 * SBF_E_TRAILING, SBF_E_FORMAT (bad magic or checksum, inconsistent
 * parameters, non-zero padding or reserved bytes), SBF_E_VERSION,
 * SBF_E_LAYOUT, SBF_E_K, SBF_E_TOO_LARGE, SBF_E_ENDIAN, SBF_E_NOMEM,
 * SBF_E_ISA_UNKNOWN, SBF_E_ISA_UNAVAILABLE. sbf_deserialize_ex takes an
 * allocator (as sbf_import_guava_ex) and returns the same codes, and
 * SBF_E_PARAM for an allocator without alloc or free.
 */
SBF_API int sbf_serialize(const sbf_filter *f, void **buf, size_t *len);
SBF_API int sbf_deserialize(sbf_filter **out, const void *buf, size_t len);
SBF_API int sbf_deserialize_ex(sbf_filter **out, const void *buf, size_t len,
                               const sbf_allocator *allocator);

/* "sbf", "guava", "parquet" for a form built into this library, "unknown"
 * otherwise; sbf_format_from_name is the reverse, or SBF_E_PARAM (NULL or
 * unknown name). */
SBF_API const char *sbf_format_name(int format);
SBF_API int sbf_format_from_name(const char *name);

/*
 * The form of len bytes at buf, from their first bytes (ours and Parquet's
 * by their magic; Guava's, which has none, by a first byte that is one of
 * its strategy ordinals, 0 or 1: its loader then says what else is wrong).
 * Returns SBF_FORMAT_*, SBF_E_NULL (buf NULL, len > 0), SBF_E_TRUNCATED
 * (len 0, or the start of our magic), SBF_E_FORMAT (no form it knows).
 * It recognises a form; only the form's loader checks the bytes.
 */
SBF_API int sbf_format_detect(const void *buf, size_t len);

/*
 * Any form by number: sbf_encode writes f in `format` (a buffer that
 * sbf_buffer_free releases), sbf_decode reads one (format 0: detect it as
 * sbf_format_detect) with an allocator for the new filter (NULL: the
 * library's). Both return SBF_E_PARAM for a format this library does not
 * have, and otherwise the codes of the form's functions: sbf_serialize /
 * sbf_export_guava, sbf_deserialize_ex / sbf_import_guava_ex; sbf_decode
 * also SBF_E_NULL and, when detecting, sbf_format_detect's codes.
 */
SBF_API int sbf_encode(const sbf_filter *f, int format, void **buf, size_t *len);
SBF_API int sbf_decode(sbf_filter **out, const void *buf, size_t len, int format,
                       const sbf_allocator *allocator);

/* ------------------------------------------------------------------- files
 * Files hold the forms above; sbf_save, sbf_load and sbf_map use ours
 * (byte for byte what sbf_serialize returns), sbf_save_as and sbf_load_as
 * any. On SBF_E_IO, errno is the failed call's. Loaders read regular files
 * only, and never block on opening one: a directory is SBF_E_IO with errno
 * EISDIR, a FIFO, device or socket SBF_E_IO with EINVAL. A refused file
 * changes nothing and leaves *out NULL. All are thread safe (savers only
 * read f; see "persistence" for SBF_CONCURRENT filters).
 */

/*
 * Writes f to path in our form, crash-safe: a temporary file beside the
 * target (same directory) is written, fsync'd and renamed over it, then the
 * directory is fsync'd. A save killed at any moment leaves at path either
 * the old file or the new one. The file stays the user's:
 *  - through a symbolic link (a chain of them), the file the link points to
 *    is written and the link stays a link;
 *  - over an existing file, its mode (permission bits) is kept, and its
 *    owner and group as far as the caller's rights allow (another user's
 *    file saved by a non-root caller becomes the caller's, with the group
 *    kept if the caller is in it); ACLs, extended attributes and other
 *    hard links to the old file are not carried over. A new file gets mode
 *    0666 minus the umask, as open() gives;
 *  - the temporary name is "." + the target's name (cut to fit NAME_MAX,
 *    so any legal name saves) + ".sbf-tmp-" + a digit. A save holds a lock
 *    on it until the rename, so the temporary file of a save that died
 *    (SIGKILL, power loss) is recognised and removed by the next save of
 *    that file (when the same user owns it). Eight saves of one file may
 *    run at once; a failed save removes its temporary file.
 * Readers that mapped the old file keep it.
 * Returns SBF_OK, SBF_E_NULL, SBF_E_PARAM (empty path), SBF_E_NOMEM,
 * SBF_E_ENDIAN, SBF_E_IO: the old file is untouched when open, write,
 * fsync or rename failed, when the target is not a regular file (EISDIR,
 * EINVAL), or when every temporary name is taken by live saves or other
 * users' files (EEXIST); when only the directory fsync (or the close) failed
 * after the rename, the new file is in place but may not survive a power
 * loss.
 */
SBF_API int sbf_save(const sbf_filter *f, const char *path);

/*
 * sbf_save in any form (format SBF_FORMAT_*, never 0), with the same
 * promises: the bytes are sbf_encode's. Returns sbf_save's codes and
 * sbf_encode's (SBF_E_PARAM for an unknown form, SBF_E_UNSUPPORTED for a
 * filter the form cannot hold).
 */
SBF_API int sbf_save_as(const sbf_filter *f, const char *path, int format);

/*
 * Reads a file of our format (version 1 or 2) into the library's own memory
 * (2 MiB aligned, huge-page advised from 2 MiB, as sbf_create). Header,
 * geometry and lengths are checked before allocating; both checksums and
 * the padding before returning. Returns SBF_OK, SBF_E_NULL, SBF_E_IO (open,
 * fstat, read; not a regular file), SBF_E_NOMEM, and every code of
 * sbf_deserialize.
 */
SBF_API int sbf_load(sbf_filter **out, const char *path);

/*
 * Reads a file of any form: format SBF_FORMAT_*, or 0 to detect it from the
 * file's first bytes and size (as sbf_format_detect; the file is opened
 * once, so detection and reading see one file). *found (when not NULL)
 * receives the form read, 0 on failure before it was known. Our form is
 * read as sbf_load does; another form is read whole into a buffer, then
 * decoded (so it needs twice its size for a moment). Returns sbf_load's
 * codes, sbf_decode's, and SBF_E_PARAM for an unknown format number.
 */
SBF_API int sbf_load_as(sbf_filter **out, const char *path, int format, int *found);

/* The form of a file from its first bytes and size: sbf_format_detect's
 * returns, SBF_E_NULL, SBF_E_IO (open, fstat, read; not a regular file). */
SBF_API int sbf_file_format(const char *path);

/*
 * Checks a file of our format completely without keeping it: everything
 * sbf_load checks (header, geometry, lengths, both checksums, the padding),
 * reading the data in 16 MiB pieces (no filter made, nothing mapped), and
 * calls progress(opaque, data bytes checked, data bytes) after each piece
 * (progress may be NULL). A version-1 file is loaded whole, then dropped.
 * Returns SBF_OK, or the code sbf_load would return for the file (SBF_E_NOMEM
 * for the 16 MiB buffer). Thread safe.
 */
typedef void (*sbf_progress_fn)(void *opaque, uint64_t done, uint64_t total);
SBF_API int sbf_verify_file(const char *path, sbf_progress_fn progress, void *opaque);

/* sbf_map flags */
#define SBF_MAP_NO_VERIFY 1u  /* check the header only; touch no data page */

/*
 * Maps a format-2 file's data read-only and shared (MAP_SHARED, PROT_READ):
 * zero copy, and every process mapping one file shares one copy in the page
 * cache. flags 0 verifies the data checksum and the padding (one pass over
 * the data); SBF_MAP_NO_VERIFY checks the header only (its checksum, the
 * geometry against the file size), so mapping costs a few system calls and
 * no data is read until queried: use it for files this program or sbf_save
 * wrote. A verified mapping has read every page into the page cache (and
 * mapped it) on the way; an unverified one faults pages in as probes touch
 * them, with the kernel's usual read-around. Every query works on the
 * mapping (single, batched, sbf_info, sbf_data, sbf_copy: the copy is
 * writable); every modifying call (sbf_add*, sbf_remove, sbf_clear,
 * sbf_union / sbf_intersect into it) returns SBF_E_READONLY and changes
 * nothing. sbf_free unmaps. sbf_save replaces files by rename, which is
 * safe: the mapping keeps the old file.
 * A file truncated in place while mapped is not safe: a query (or sbf_info,
 * sbf_copy, a save) that touches a page past the new end gets SIGBUS from
 * the kernel, which the library does not catch (it never installs signal
 * handlers). A caller that must survive that either loads the file
 * (sbf_load: a truncation then is SBF_E_TRUNCATED), or handles SIGBUS itself
 * (a handler that siglongjmp's out of the query, then sbf_free and re-map).
 * Returns SBF_OK, SBF_E_NULL, SBF_E_PARAM (unknown flags), SBF_E_VERSION
 * (also for a version-1 file, whose data is not page aligned: sbf_load it),
 * SBF_E_IO (open, fstat, read, mmap; not a regular file), SBF_E_NOMEM,
 * SBF_E_UNSUPPORTED (a Guava or Parquet file, which only sbf_load_as reads),
 * every code of sbf_deserialize, and the forced-ISA errors of sbf_create.
 */
SBF_API int sbf_map(sbf_filter **out, const char *path, unsigned flags);

/*
 * An exclusive lock on a file for a read-modify-write (load, change, save)
 * among processes (and threads) that all take it: two `sbf add` runs on one
 * file keep both key sets. flock(2) on the file, re-checked after it is
 * granted: a save replaces the file by rename, so a lock granted on the file
 * a finished save just replaced is dropped and taken again on the file path
 * names now (the file written last). Hold it from before the load until
 * after the save: another process then takes it on the new file. flags 0
 * waits for the lock; SBF_LOCK_NOWAIT returns SBF_E_LOCKED at once when
 * another holds it. The lock is advisory (plain loads and saves ignore it),
 * per open file (released by sbf_unlock_file, by exit and by a crash), and
 * for local file systems (over NFS, flock is emulated by byte-range locks).
 * Returns SBF_OK, SBF_E_NULL, SBF_E_PARAM (unknown flags), SBF_E_LOCKED,
 * SBF_E_NOMEM, SBF_E_IO (open, fstat, flock; not a regular file, ENOENT for a
 * missing one; EAGAIN when the file was replaced 1000 times while we waited).
 * sbf_unlock_file releases it (NULL is ignored). Thread safe.
 */
#define SBF_LOCK_NOWAIT 1u
typedef struct sbf_file_lock sbf_file_lock;
SBF_API int sbf_lock_file(sbf_file_lock **out, const char *path, unsigned flags);
SBF_API void sbf_unlock_file(sbf_file_lock *lock);

#if defined(__cplusplus)
}
#endif

#endif /* SIMDBLOOM_FILES_H_A473E516 */
