/*
 * simdbloom._core: the CPython binding of libsimdbloom (linked statically).
 *
 * A Filter owns one sbf_filter. Keys are converted to bytes the way the C
 * library's own forms hash them:
 *   int     its 64-bit two's-complement value as 8 little-endian bytes (the
 *           library's u64 form: sbf_add_u64), so -2**63 .. 2**64-1 is
 *           accepted and -1 and 2**64-1 are one key;
 *   bytes   the bytes; str: its UTF-8; a buffer (bytearray, memoryview,
 *           ...): its bytes (C-contiguous).
 * Batches (add_many / contains_many) read NumPy arrays through the buffer
 * protocol and Arrow arrays through the Arrow C data interface, with no
 * copy, and release the GIL while the library works. A filter used by a
 * batch that runs without the GIL is guarded: other calls on it wait (a
 * modifying call waits for every batch, a query for a modifying batch).
 */
#include "view_isa.h" /* Python.h first */

#include <structmember.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>


/* ------------------------------------------------------------- Arrow C ABI */
/* The Arrow C data interface structs (arrow/c/abi.h), as the spec fixes them. */
struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};

struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};

struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};

/* ------------------------------------------------------------------ errors */

static PyObject *Error; /* simdbloom.Error, a ValueError with .code */
static PyObject *numpy_empty; /* numpy.empty, imported on first use */
static PyObject *numpy_bool;

/* Raises the exception for library code rc (with the errno saved right
 * after the failed call for SBF_E_IO); `where` (may be NULL) prefixes the
 * message (a path). Returns NULL. */
PyObject *raise_sbf(int rc, int saved_errno, PyObject *where)
{
    if (rc == SBF_E_NOMEM)
        return PyErr_NoMemory();
    if (rc == SBF_E_IO) {
        errno = saved_errno;
        if (where != NULL)
            return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, where);
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    const char *isa = getenv("SBF_ISA"), *probe = getenv("SBF_PROBE");
    PyObject *msg = where != NULL ? PyUnicode_FromFormat("%S: %s", where, sbf_strerror(rc))
                  : rc == SBF_E_ISA_UNKNOWN || rc == SBF_E_ISA_UNAVAILABLE
                  /* only the environment names an ISA here: say what it holds */
                  ? PyUnicode_FromFormat("%s (SBF_ISA='%s', SBF_PROBE='%s'; SBF_PROBE is "
                                         "narrow, wide or auto)", sbf_strerror(rc),
                                         isa ? isa : "", probe ? probe : "")
                  : PyUnicode_FromString(sbf_strerror(rc));
    if (msg == NULL)
        return NULL;
    PyObject *exc = PyObject_CallOneArg(Error, msg);
    Py_DECREF(msg);
    if (exc == NULL)
        return NULL;
    PyObject *code = PyLong_FromLong(rc);
    if (code == NULL || PyObject_SetAttrString(exc, "code", code) < 0) {
        Py_XDECREF(code);
        Py_DECREF(exc);
        return NULL;
    }
    Py_DECREF(code);
    PyErr_SetObject(Error, exc);
    Py_DECREF(exc);
    return NULL;
}

/* SBF_E_VERSION for a file or buffer whose first bytes `h` (n of them) are
 * ours: a growing filter (format 3/4), or version 1 asked to be mapped, is
 * named as such; any other version keeps the library's words. NULL. */
static PyObject *raise_version(const unsigned char *h, size_t n, int map, PyObject *where)
{
    const int v = n >= 8 && memcmp(h, "SBF1", 4) == 0 && h[5] == 0 && h[6] == 0 && h[7] == 0
                      ? h[4] : 0;
    char text[200];
    if (v == 3 || v == 4)
        snprintf(text, sizeof text, "a growing filter (format %d, sbf dedup's or "
                 "sbf_scalable_save's): simdbloom.Filter reads fixed filters (formats 1, 2) only",
                 v);
    else if (v == 1 && map)
        snprintf(text, sizeof text, "format version 1 cannot be mapped (its data is not page "
                 "aligned): Filter.load reads it, and a save writes it as version 2");
    else
        return raise_sbf(SBF_E_VERSION, 0, where);
    PyObject *msg = where != NULL ? PyUnicode_FromFormat("%S: %s", where, text)
                                  : PyUnicode_FromString(text);
    if (msg == NULL)
        return NULL;
    PyObject *exc = PyObject_CallOneArg(Error, msg);
    Py_DECREF(msg);
    PyObject *code = exc != NULL ? PyLong_FromLong(SBF_E_VERSION) : NULL;
    if (code != NULL && PyObject_SetAttrString(exc, "code", code) == 0)
        PyErr_SetObject(Error, exc);
    Py_XDECREF(code);
    Py_XDECREF(exc);
    return NULL;
}

/* The code inside a size_t return of the library (sbf_is_error). */
static int size_code(size_t r)
{
    return -(int)(SIZE_MAX - r) - 1;
}

/* ------------------------------------------------------------------ Filter */


static PyTypeObject FilterType;

/* The one-key calls: the view's inline code compiled for the ISA the
 * library runs (view_avx2.c, view_avx512.c: setup.py compiles them with
 * those flags), or this file's portable build (vops NULL). */
static const view_ops *vops;
static const char *vops_name = "portable";

static int vadd_u64(const sbf_view *v, uint64_t k)
{
    return vops ? vops->add_u64(v, k) : sbf_view_add_u64(v, k);
}
static int vhas_u64(const sbf_view *v, uint64_t k)
{
    return vops ? vops->has_u64(v, k) : sbf_view_contains_u64(v, k);
}
static int vadd(const sbf_view *v, const void *p, size_t n)
{
    return vops ? vops->add(v, p, n) : sbf_view_add(v, p, n);
}
static int vhas(const sbf_view *v, const void *p, size_t n)
{
    return vops ? vops->has(v, p, n) : sbf_view_contains(v, p, n);
}

/* Chooses the one-key code: "avx512", "avx2" (when compiled in and the
 * library says this CPU runs it) or "portable". 0, or -1 when refused. */
static int set_view_isa(const char *name)
{
#if defined(SBFPY_X86_VIEWS)
    if (strcmp(name, "avx512") == 0 && sbf_isa_available(SBF_ISA_AVX512)) {
        vops = &view_ops_avx512;
        vops_name = "avx512";
        return 0;
    }
    if (strcmp(name, "avx2") == 0 && sbf_isa_available(SBF_ISA_AVX2)) {
        vops = &view_ops_avx2;
        vops_name = "avx2";
        return 0;
    }
#endif
    if (strcmp(name, "portable") == 0) {
        vops = NULL;
        vops_name = "portable";
        return 0;
    }
    return -1;
}

#define Filter_Check(o) PyObject_TypeCheck(o, &FilterType)

/* Waits (GIL released while it yields) until no batch conflicts with a
 * call that queries (write 0) or modifies (write 1) the filter. */
void wait_slow(FilterObject *s, int write)
{
    while (s->writer || (write && s->readers)) {
        Py_BEGIN_ALLOW_THREADS
        sched_yield();
        Py_END_ALLOW_THREADS
    }
}

/* Enters / leaves a batch that drops the GIL. */
static void batch_enter(FilterObject *s, int write)
{
    guard(s, write);
    if (write)
        s->writer = 1;
    else
        s->readers++;
}

static void batch_leave(FilterObject *s, int write)
{
    if (write)
        s->writer = 0;
    else
        s->readers--;
}

static FilterObject *wrap(PyTypeObject *type, sbf_filter *f)
{
    FilterObject *o = (FilterObject *)type->tp_alloc(type, 0);
    if (o == NULL) {
        sbf_free(f);
        return NULL;
    }
    o->f = f;
    o->has_view = sbf_view_get_writable(f, &o->view) == SBF_OK ||
                  sbf_view_get(f, &o->view) == SBF_OK;
    return o;
}

static void Filter_dealloc(FilterObject *self)
{
    sbf_free(self->f);
    Py_XDECREF(self->map_path);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* A layout argument: a name through the library's lookup (so every layout
 * the library has works by name), or an int id. */
static int layout_arg(PyObject *o, int *layout)
{
    if (PyUnicode_Check(o)) {
        Py_ssize_t len;
        const char *name = PyUnicode_AsUTF8AndSize(o, &len);
        if (name == NULL)
            return -1;
        /* a NUL inside would cut the name short: "blocked\0x" is not "blocked" */
        const int id = strlen(name) == (size_t)len ? sbf_layout_from_name(name) : SBF_E_LAYOUT;
        if (id < 0) {
            PyObject *names = PyUnicode_FromString("");
            for (int i = 0; i < 256 && names != NULL; i++) {
                const char *n = sbf_layout_name(i);
                if (strcmp(n, "unknown") == 0)
                    continue;
                PyObject *next = PyUnicode_FromFormat("%U%s%s", names,
                                                      PyUnicode_GET_LENGTH(names) ? ", " : "", n);
                Py_SETREF(names, next);
            }
            if (names != NULL) {
                PyErr_Format(PyExc_ValueError, "unknown layout %R (layouts: %U)", o, names);
                Py_DECREF(names);
            }
            return -1;
        }
        *layout = id;
        return 0;
    }
    if (PyLong_Check(o)) {
        const long v = PyLong_AsLong(o);
        if (v == -1 && PyErr_Occurred())
            return -1;
        struct sbf_layout_info li;
        if (v < 0 || v > INT32_MAX || sbf_layout_info((int)v, 0, &li) != SBF_OK) {
            PyErr_Format(PyExc_ValueError, "unknown layout %ld", v);
            return -1;
        }
        *layout = (int)v;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "layout must be a name (str), not %.100s", Py_TYPE(o)->tp_name);
    return -1;
}

/* A non-negative int argument that fits in 64 bits. */
static int u64_arg(PyObject *o, const char *what, uint64_t *out)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    if (_PyLong_Sign(o) < 0) {
        PyErr_Format(PyExc_ValueError, "%s must be >= 0", what);
        return -1;
    }
    const unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *out = v;
    return 0;
}

static PyObject *Filter_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"expected_items", "fpp", "layout", "bits", "k", "seed", NULL};
    PyObject *n_o, *layout_o = NULL, *bits_o = NULL, *k_o = NULL, *seed_o = NULL;
    double fpp = 0.01;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|d$OOOO:Filter", kwlist, &n_o, &fpp,
                                     &layout_o, &bits_o, &k_o, &seed_o))
        return NULL;
    sbf_params p = {0};
    p.layout = SBF_BLOCKED;
    p.fpp = fpp;
    uint64_t k = 0, seed = 0;
    if (u64_arg(n_o, "expected_items", &p.expected_n) < 0)
        return NULL;
    if (layout_o != NULL && layout_arg(layout_o, &p.layout) < 0)
        return NULL;
    if (bits_o != NULL && u64_arg(bits_o, "bits", &p.bits) < 0)
        return NULL;
    if (k_o != NULL && u64_arg(k_o, "k", &k) < 0)
        return NULL;
    if (seed_o != NULL && u64_arg(seed_o, "seed", &seed) < 0)
        return NULL;
    if (k > UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "k out of range");
        return NULL;
    }
    if (seed > UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "seed must be < 2**32");
        return NULL;
    }
    p.k = (uint32_t)k;
    p.seed = (uint32_t)seed;
    sbf_filter *f;
    const int rc = sbf_create(&f, &p);
    if (rc != SBF_OK)
        return raise_sbf(rc, 0, NULL);
    return (PyObject *)wrap(type, f);
}

/* ------------------------------------------------------------- one key */

typedef struct {
    const void *p;
    size_t len;
    unsigned char le[8];
    int has_view;
    Py_buffer view;
} keyref;

int int_value_slow(PyObject *o, uint64_t *u)
{
    int overflow;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow == 0) {
        if (v == -1 && PyErr_Occurred())
            return -1;
        *u = (uint64_t)v;
        return 0;
    }
    if (overflow > 0) {
        const unsigned long long x = PyLong_AsUnsignedLongLong(o);
        if (!(x == (unsigned long long)-1 && PyErr_Occurred())) {
            *u = x;
            return 0;
        }
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return -1;
        PyErr_Clear();
    }
    PyErr_SetString(PyExc_OverflowError,
                    "int key out of range: keys are -2**63 .. 2**64-1 (64-bit two's complement)");
    return -1;
}

static inline void put_le(unsigned char *b, uint64_t u)
{
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(u >> (8 * i));
}

/* The bytes of a key; release with key_release. */
static int key_get(PyObject *o, keyref *k)
{
    k->has_view = 0;
    if (PyLong_Check(o)) {
        uint64_t u;
        if (int_value(o, &u) < 0)
            return -1;
        put_le(k->le, u);
        k->p = k->le;
        k->len = 8;
        return 0;
    }
    if (PyBytes_Check(o)) {
        k->p = PyBytes_AS_STRING(o);
        k->len = (size_t)PyBytes_GET_SIZE(o);
        return 0;
    }
    if (PyUnicode_Check(o)) {
        Py_ssize_t n;
        k->p = PyUnicode_AsUTF8AndSize(o, &n);
        if (k->p == NULL)
            return -1;
        k->len = (size_t)n;
        return 0;
    }
    if (PyIndex_Check(o) && !PyFloat_Check(o)) { /* numpy integer scalars */
        PyObject *i = PyNumber_Index(o);
        if (i != NULL) {
            uint64_t u;
            const int r = int_value(i, &u);
            Py_DECREF(i);
            if (r < 0)
                return -1;
            put_le(k->le, u);
            k->p = k->le;
            k->len = 8;
            return 0;
        }
        if (!PyObject_CheckBuffer(o) || !PyErr_ExceptionMatches(PyExc_TypeError))
            return -1;
        PyErr_Clear();
    }
    if (PyObject_CheckBuffer(o)) {
        if (PyObject_GetBuffer(o, &k->view, PyBUF_SIMPLE) < 0)
            return -1;
        k->has_view = 1;
        k->p = k->view.buf;
        k->len = (size_t)k->view.len;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "a key is an int, bytes, str or a bytes-like object, not %.100s",
                 Py_TYPE(o)->tp_name);
    return -1;
}

static inline void key_release(keyref *k)
{
    if (k->has_view) {
        PyBuffer_Release(&k->view);
        k->has_view = 0;
    }
}

PyObject *Filter_add(FilterObject *self, PyObject *key)
{
    int rc;
    if (PyLong_CheckExact(key) && self->has_view) {
        uint64_t u;
        if (int_value(key, &u) < 0)
            return NULL;
        guard(self, 1);
        rc = vadd_u64(&self->view, u);
        if (rc < 0)
            return raise_sbf(rc, 0, NULL);
        Py_RETURN_NONE;
    }
    keyref k;
    if (key_get(key, &k) < 0)
        return NULL;
    guard(self, 1);
    rc = self->has_view ? vadd(&self->view, k.p, k.len) : sbf_add(self->f, k.p, k.len);
    key_release(&k);
    if (rc < 0)
        return raise_sbf(rc, 0, NULL);
    Py_RETURN_NONE;
}

int Filter_contains(FilterObject *self, PyObject *key)
{
    int rc;
    if (PyLong_CheckExact(key) && self->has_view) {
        uint64_t u;
        if (int_value(key, &u) < 0)
            return -1;
        guard(self, 0);
        rc = vhas_u64(&self->view, u);
        if (rc < 0) {
            raise_sbf(rc, 0, NULL);
            return -1;
        }
        return rc;
    }
    keyref k;
    if (key_get(key, &k) < 0)
        return -1;
    guard(self, 0);
    rc = self->has_view ? vhas(&self->view, k.p, k.len)
                        : sbf_contains(self->f, k.p, k.len);
    key_release(&k);
    if (rc < 0) {
        raise_sbf(rc, 0, NULL);
        return -1;
    }
    return rc;
}

static PySequenceMethods Filter_as_sequence;

static PyObject *Filter_contains_meth(FilterObject *self, PyObject *key)
{
    const int r = Filter_as_sequence.sq_contains((PyObject *)self, key);
    if (r < 0)
        return NULL;
    return PyBool_FromLong(r);
}

static PyObject *Filter_remove(FilterObject *self, PyObject *key)
{
    keyref k;
    if (key_get(key, &k) < 0)
        return NULL;
    guard(self, 1);
    const int rc = sbf_remove(self->f, k.p, k.len);
    key_release(&k);
    if (rc == SBF_E_NOT_PRESENT) {
        PyErr_SetObject(PyExc_KeyError, key);
        return NULL;
    }
    if (rc < 0)
        return raise_sbf(rc, 0, NULL);
    Py_RETURN_NONE;
}

/* ------------------------------------------------------ keys from Python */

#define CHUNK 1024

/* A chunk of keys taken from Python objects (update, and add_many /
 * contains_many over sequences), run with the GIL held. */
typedef struct {
    size_t n, nu;
    uint64_t u[CHUNK];
    keyref k[CHUNK];
    const void *ptrs[CHUNK];
    size_t lens[CHUNK];
} pychunk;

static void chunk_release(pychunk *c)
{
    for (size_t i = 0; i < c->n; i++)
        key_release(&c->k[i]);
    c->n = 0;
    c->nu = 0;
}

/* Adds a chunk: ints in the u64 form, the rest as byte strings. */
static int chunk_add(FilterObject *self, pychunk *c, size_t *changed)
{
    size_t total = 0;
    guard(self, 1);
    if (c->nu) {
        const sbf_keys ks = {.n = c->nu, .u64 = c->u};
        const size_t r = sbf_add_keys(self->f, &ks, NULL);
        if (sbf_is_error(r)) {
            chunk_release(c);
            raise_sbf(size_code(r), 0, NULL);
            return -1;
        }
        total += r;
    }
    if (c->n) {
        const sbf_keys ks = {.n = c->n, .ptrs = c->ptrs, .lens = c->lens};
        const size_t r = sbf_add_keys(self->f, &ks, NULL);
        chunk_release(c);
        if (sbf_is_error(r)) {
            raise_sbf(size_code(r), 0, NULL);
            return -1;
        }
        total += r;
    }
    c->nu = 0;
    *changed += total;
    return 0;
}

/* Puts one object in the chunk. With split, the ints before the chunk's
 * first other key go to the u64 form, which chunk_add adds first: the keys
 * are still added in their order (keys_added counts as one add at a time). */
static int chunk_put(pychunk *c, PyObject *o, int split)
{
    if (split && c->n == 0 && PyLong_CheckExact(o)) {
        uint64_t u;
        if (int_value(o, &u) < 0)
            return -1;
        c->u[c->nu++] = u; /* a little-endian host is checked at import */
        return 0;
    }
    keyref *k = &c->k[c->n];
    if (key_get(o, k) < 0)
        return -1;
    c->ptrs[c->n] = k->p;
    c->lens[c->n] = k->len;
    c->n++;
    return 0;
}

static int batch_from_buffer_or_arrow(PyObject *o);
static int import_numpy(void);

static PyObject *Filter_add_many(FilterObject *self, PyObject *keys);

static PyObject *Filter_update(FilterObject *self, PyObject *args)
{
    for (Py_ssize_t a = 0; a < PyTuple_GET_SIZE(args); a++) {
        PyObject *it_src = PyTuple_GET_ITEM(args, a);
        const int b = batch_from_buffer_or_arrow(it_src);
        if (b < 0)
            return NULL;
        if (b) {
            PyObject *r = Filter_add_many(self, it_src);
            if (r == NULL)
                return NULL;
            Py_DECREF(r);
            continue;
        }
        PyObject *it = PyObject_GetIter(it_src);
        if (it == NULL)
            return NULL;
        pychunk *c = PyMem_Malloc(sizeof *c);
        if (c == NULL) {
            Py_DECREF(it);
            return PyErr_NoMemory();
        }
        c->n = c->nu = 0;
        size_t changed = 0;
        PyObject *item;
        int bad = 0;
        /* the chunk's str/bytes keys point into their objects: keep them */
        PyObject *held[CHUNK];
        size_t nheld = 0;
        while ((item = PyIter_Next(it)) != NULL) {
            const size_t before = c->n;
            if (chunk_put(c, item, 1) < 0) {
                Py_DECREF(item);
                bad = 1;
                break;
            }
            if (c->n != before)
                held[nheld++] = item;
            else
                Py_DECREF(item);
            if (c->n == CHUNK || c->nu == CHUNK) {
                const int r = chunk_add(self, c, &changed);
                for (size_t i = 0; i < nheld; i++)
                    Py_DECREF(held[i]);
                nheld = 0;
                if (r < 0) {
                    bad = 1;
                    break;
                }
            }
        }
        if (!bad && PyErr_Occurred())
            bad = 1;
        if (!bad && chunk_add(self, c, &changed) < 0)
            bad = 1;
        chunk_release(c);
        for (size_t i = 0; i < nheld; i++)
            Py_DECREF(held[i]);
        PyMem_Free(c);
        Py_DECREF(it);
        if (bad)
            return NULL;
    }
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------ batches */

enum { B_U64, B_FIXED, B_FIXED_STRIP, B_OFF32, B_OFF64, B_SEQ };

/* The keys of one add_many / contains_many call. */
typedef struct {
    int kind;
    size_t n;
    const unsigned char *data;  /* u64 keys, fixed-width rows, Arrow data */
    size_t width;               /* B_FIXED*: bytes per key */
    const void *offsets;        /* B_OFF*: n + 1 offsets (the array's offset applied) */
    const unsigned char *valid; /* Arrow validity bitmap, or NULL */
    int64_t voff;               /* bit offset into valid */
    Py_buffer view;
    int has_view;
    PyObject *caps[2];          /* Arrow schema and array capsules */
    PyObject *seq;              /* B_SEQ: PySequence_Fast */
} batch;

static void batch_release(batch *b)
{
    if (b->has_view)
        PyBuffer_Release(&b->view);
    b->has_view = 0;
    Py_CLEAR(b->caps[0]);
    Py_CLEAR(b->caps[1]);
    Py_CLEAR(b->seq);
}

/* Is the buffer format an 8-byte integer in native (= little) order? */
static int format_int64(const char *fmt)
{
    if (fmt == NULL)
        return 0;
    if (*fmt == '@' || *fmt == '=' || *fmt == '<')
        fmt++;
    return (fmt[0] == 'q' || fmt[0] == 'Q' || fmt[0] == 'l' || fmt[0] == 'L' || fmt[0] == 'n' ||
            fmt[0] == 'N') && fmt[1] == '\0';
}

/* 1 when o is something add_many takes without a Python loop: an Arrow
 * array, or a buffer of 8-byte integers (update sends those to add_many). */
static int batch_from_buffer_or_arrow(PyObject *o)
{
    if (PyBytes_Check(o) || PyByteArray_Check(o) || PyUnicode_Check(o))
        return 0;
    if (PyObject_HasAttrString(o, "__arrow_c_array__") ||
        PyObject_HasAttrString(o, "__arrow_c_stream__"))
        return 1;
    if (!PyObject_CheckBuffer(o))
        return 0;
    Py_buffer v;
    if (PyObject_GetBuffer(o, &v, PyBUF_RECORDS_RO) < 0) {
        PyErr_Clear();
        return 0;
    }
    const int r = v.ndim == 1 && v.itemsize == 8 && format_int64(v.format);
    PyBuffer_Release(&v);
    return r;
}

static int arrow_fill(const struct ArrowSchema *s, const struct ArrowArray *a, batch *b);

static int arrow_batch(PyObject *o, batch *b)
{
    PyObject *t = PyObject_CallMethod(o, "__arrow_c_array__", NULL);
    if (t == NULL)
        return -1;
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2) {
        Py_DECREF(t);
        PyErr_SetString(PyExc_TypeError, "__arrow_c_array__ must return (schema, array) capsules");
        return -1;
    }
    b->caps[0] = Py_NewRef(PyTuple_GET_ITEM(t, 0));
    b->caps[1] = Py_NewRef(PyTuple_GET_ITEM(t, 1));
    Py_DECREF(t);
    const struct ArrowSchema *s = PyCapsule_GetPointer(b->caps[0], "arrow_schema");
    if (s == NULL)
        return -1;
    const struct ArrowArray *a = PyCapsule_GetPointer(b->caps[1], "arrow_array");
    if (a == NULL)
        return -1;
    return arrow_fill(s, a, b);
}

/* The keys of one Arrow array (schema s) into b. */
static int arrow_fill(const struct ArrowSchema *s, const struct ArrowArray *a, batch *b)
{
    if (s->release == NULL || a->release == NULL) {
        PyErr_SetString(PyExc_ValueError, "the Arrow array was already released");
        return -1;
    }
    const char *fmt = s->format ? s->format : "";
    if (s->dictionary != NULL || a->dictionary != NULL || s->n_children != 0) {
        PyErr_Format(PyExc_TypeError,
                     "Arrow arrays of int64, uint64, utf8, binary (and large) are keys, not '%s'"
                     " (dictionary or nested)", fmt);
        return -1;
    }
    if (a->length < 0 || a->offset < 0 || a->n_buffers < 2 || a->buffers == NULL) {
        PyErr_SetString(PyExc_ValueError, "malformed Arrow array (length, offset or buffers)");
        return -1;
    }
    b->n = (size_t)a->length;
    b->valid = a->null_count != 0 ? a->buffers[0] : NULL;
    b->voff = a->offset;
    const size_t off = (size_t)a->offset;
    if ((fmt[0] == 'l' || fmt[0] == 'L') && fmt[1] == '\0') {
        b->kind = B_U64;
        b->data = a->buffers[1] ? (const unsigned char *)a->buffers[1] + off * 8 : NULL;
        if (b->data == NULL && b->n) {
            PyErr_SetString(PyExc_ValueError, "malformed Arrow array (no data buffer)");
            return -1;
        }
        return 0;
    }
    if ((fmt[0] == 'u' || fmt[0] == 'z' || fmt[0] == 'U' || fmt[0] == 'Z') && fmt[1] == '\0') {
        const int large = fmt[0] == 'U' || fmt[0] == 'Z';
        if (a->n_buffers != 3 || a->buffers[1] == NULL) {
            PyErr_SetString(PyExc_ValueError, "malformed Arrow array (binary needs 3 buffers)");
            return -1;
        }
        b->kind = large ? B_OFF64 : B_OFF32;
        b->offsets = (const unsigned char *)a->buffers[1] + off * (large ? 8 : 4);
        b->data = a->buffers[2];
        return 0;
    }
    PyErr_Format(PyExc_TypeError,
                 "Arrow arrays of int64 ('l'), uint64 ('L'), utf8, binary and their large forms"
                 " are keys, not format '%s'", fmt);
    return -1;
}

/* Reads the keys argument of add_many / contains_many. */
static int batch_get(PyObject *o, batch *b)
{
    memset(b, 0, sizeof *b);
    if (PyObject_HasAttrString(o, "__arrow_c_array__") && !PyObject_CheckBuffer(o))
        return arrow_batch(o, b);
    if (PyObject_CheckBuffer(o) && !PyBytes_Check(o) && !PyUnicode_Check(o)) {
        if (PyObject_GetBuffer(o, &b->view, PyBUF_RECORDS_RO) < 0)
            return -1;
        b->has_view = 1;
        Py_buffer *v = &b->view;
        if (!PyBuffer_IsContiguous(v, 'C')) {
            PyErr_SetString(PyExc_ValueError,
                            "keys must be C-contiguous (numpy.ascontiguousarray makes a copy that is)");
            return -1;
        }
        const char *fmt = v->format ? v->format : "B";
        if (v->ndim == 1 && v->itemsize == 8 && format_int64(fmt)) {
            b->kind = B_U64;
            b->n = (size_t)v->shape[0];
            b->data = v->buf;
            return 0;
        }
        const char *f = fmt;
        if (*f == '@' || *f == '=' || *f == '<' || *f == '>' || *f == '|')
            f++;
        if (v->ndim == 2 && v->itemsize == 1 && (strcmp(f, "B") == 0 || strcmp(f, "b") == 0 ||
                                                 strcmp(f, "c") == 0)) {
            b->kind = B_FIXED;
            b->n = (size_t)v->shape[0];
            b->width = (size_t)v->shape[1];
            b->data = v->buf;
            return 0;
        }
        /* numpy 'S<w>' arrays: format "<w>s" */
        char *end;
        const long w = strtol(f, &end, 10);
        if (v->ndim == 1 && end != f && strcmp(end, "s") == 0 && w == v->itemsize) {
            b->kind = B_FIXED_STRIP;
            b->n = (size_t)v->shape[0];
            b->width = (size_t)w;
            b->data = v->buf;
            return 0;
        }
        if (v->ndim == 1 && v->itemsize == 1 && (strcmp(f, "B") == 0 || strcmp(f, "b") == 0)) {
            PyErr_SetString(PyExc_TypeError,
                            "a 1-D array of bytes is one key: pass it to add(), or a 2-D uint8 "
                            "array (one row per key) to add_many");
            return -1;
        }
        PyErr_Format(PyExc_TypeError,
                     "add_many/contains_many take 1-D arrays of uint64 or int64, fixed-width "
                     "bytes ('S'), 2-D uint8 rows, Arrow arrays or sequences of keys; not an "
                     "array of format '%s' with %d dimension(s) (convert with .astype(...))",
                     fmt, v->ndim);
        return -1;
    }
    if (PyBytes_Check(o) || PyUnicode_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "add_many/contains_many take many keys; for one key use "
                                         "add() or 'in'");
        return -1;
    }
    b->seq = PySequence_Fast(o, "add_many/contains_many take an array, an Arrow array or a "
                                "sequence of keys");
    if (b->seq == NULL)
        return -1;
    b->kind = B_SEQ;
    b->n = (size_t)PySequence_Fast_GET_SIZE(b->seq);
    return 0;
}

static inline int bit_valid(const batch *b, size_t i)
{
    const uint64_t j = (uint64_t)b->voff + i;
    return (b->valid[j >> 3] >> (j & 7)) & 1;
}

#define PIECE 65536

/* The keys [i0, i0 + m) of a batch that is not B_SEQ, in the form the
 * library takes, into ks (using the scratch arrays for fixed-width keys
 * and for Arrow keys with nulls, skipped when skip_nulls). Returns how
 * many keys ks holds. Runs without the GIL. */
static size_t piece(const batch *b, size_t i0, size_t m, int skip_nulls, sbf_keys *ks,
                    uint64_t *u, const void **ptrs, size_t *lens)
{
    memset(ks, 0, sizeof *ks);
    const int nulls = skip_nulls && b->valid != NULL;
    if (b->kind == B_U64) {
        if (!nulls) {
            ks->n = m;
            ks->u64 = (const uint64_t *)(const void *)(b->data + i0 * 8);
            return m;
        }
        size_t c = 0;
        for (size_t i = i0; i < i0 + m; i++)
            if (bit_valid(b, i))
                memcpy(&u[c++], b->data + i * 8, 8);
        ks->n = c;
        ks->u64 = u;
        return c;
    }
    size_t c = 0;
    for (size_t i = i0; i < i0 + m; i++) {
        const unsigned char *p;
        size_t len;
        if (b->kind == B_FIXED || b->kind == B_FIXED_STRIP) {
            p = b->data + i * b->width;
            len = b->width;
            if (b->kind == B_FIXED_STRIP)
                while (len > 0 && p[len - 1] == 0)
                    len--;
        } else {
            if (nulls && !bit_valid(b, i))
                continue;
            uint64_t s, e;
            if (b->kind == B_OFF32) {
                const int32_t *o = b->offsets;
                s = (uint64_t)(uint32_t)o[i];
                e = (uint64_t)(uint32_t)o[i + 1];
            } else {
                const int64_t *o = b->offsets;
                s = (uint64_t)o[i];
                e = (uint64_t)o[i + 1];
            }
            /* the library checks offsets; a decreasing pair would wrap here */
            if (e < s)
                e = s;
            p = b->data ? b->data + s : NULL;
            len = (size_t)(e - s);
            if (p == NULL)
                len = 0;
        }
        ptrs[c] = p;
        lens[c] = len;
        c++;
    }
    ks->n = c;
    ks->ptrs = ptrs;
    ks->lens = lens;
    return c;
}

/* Checks Arrow offsets once (non-decreasing, non-negative) with the GIL. */
static int offsets_ok(const batch *b)
{
    if (b->kind != B_OFF32 && b->kind != B_OFF64)
        return 0;
    int64_t prev = -1;
    for (size_t i = 0; i <= b->n; i++) {
        const int64_t v = b->kind == B_OFF32 ? ((const int32_t *)b->offsets)[i]
                                             : ((const int64_t *)b->offsets)[i];
        if (v < 0 || v < prev) {
            PyErr_SetString(PyExc_ValueError, "malformed Arrow array: offsets decrease");
            return -1;
        }
        prev = v;
    }
    if (prev > 0 && b->data == NULL) {
        PyErr_SetString(PyExc_ValueError, "malformed Arrow array: no data buffer");
        return -1;
    }
    return 0;
}

/* Runs a batch: add (out NULL) or contains (out gets n bytes). Returns the
 * count (keys changed / keys that may be present) or -1 with an error. */
static Py_ssize_t batch_run(FilterObject *self, batch *b, int add, uint8_t *out)
{
    if (b->kind == B_SEQ) {
        pychunk *c = PyMem_Malloc(sizeof *c);
        if (c == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        c->n = c->nu = 0;
        size_t total = 0;
        for (size_t i0 = 0; i0 < b->n; i0 += CHUNK) {
            const size_t m = b->n - i0 < CHUNK ? b->n - i0 : CHUNK;
            for (size_t i = 0; i < m; i++)
                if (chunk_put(c, PySequence_Fast_GET_ITEM(b->seq, (Py_ssize_t)(i0 + i)), 0) < 0) {
                    chunk_release(c);
                    PyMem_Free(c);
                    return -1;
                }
            guard(self, add);
            const sbf_keys ks = {.n = c->n, .ptrs = c->ptrs, .lens = c->lens};
            const size_t r = add ? sbf_add_keys(self->f, &ks, NULL)
                                 : sbf_contains_keys(self->f, &ks, out + i0);
            chunk_release(c);
            if (sbf_is_error(r)) {
                PyMem_Free(c);
                raise_sbf(size_code(r), 0, NULL);
                return -1;
            }
            total += r;
        }
        PyMem_Free(c);
        return (Py_ssize_t)total;
    }
    if (offsets_ok(b) < 0)
        return -1;
    const int scratch = b->kind != B_U64 || (add && b->valid != NULL);
    uint64_t *u = NULL;
    const void **ptrs = NULL;
    size_t *lens = NULL;
    if (scratch) {
        u = PyMem_Malloc(PIECE * sizeof *u);
        ptrs = PyMem_Malloc(PIECE * sizeof *ptrs);
        lens = PyMem_Malloc(PIECE * sizeof *lens);
        if (!u || !ptrs || !lens) {
            PyMem_Free(u);
            PyMem_Free((void *)ptrs);
            PyMem_Free(lens);
            PyErr_NoMemory();
            return -1;
        }
    }
    size_t total = 0;
    int rc = SBF_OK;
    batch_enter(self, add);
    Py_BEGIN_ALLOW_THREADS
    const size_t step = scratch ? PIECE : (b->n ? b->n : 1);
    for (size_t i0 = 0; i0 < b->n; i0 += step) {
        const size_t m = b->n - i0 < step ? b->n - i0 : step;
        sbf_keys ks;
        piece(b, i0, m, add, &ks, u, ptrs, lens);
        const size_t r = add ? sbf_add_keys(self->f, &ks, NULL)
                             : sbf_contains_keys(self->f, &ks, out + i0);
        if (sbf_is_error(r)) {
            rc = size_code(r);
            break;
        }
        total += r;
    }
    if (rc == SBF_OK && !add && b->valid != NULL) /* a null is no key: absent */
        for (size_t i = 0; i < b->n; i++)
            if (!bit_valid(b, i) && out[i]) {
                out[i] = 0;
                total--;
            }
    Py_END_ALLOW_THREADS
    batch_leave(self, add);
    PyMem_Free(u);
    PyMem_Free((void *)ptrs);
    PyMem_Free(lens);
    if (rc != SBF_OK) {
        raise_sbf(rc, 0, NULL);
        return -1;
    }
    return (Py_ssize_t)total;
}

/* Arrow release callbacks may run Python code (a producer written in
 * Python): call them with no exception pending, and keep ours. */
static void release_array(struct ArrowArray *a)
{
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    a->release(a);
    PyErr_Restore(t, v, tb);
}

static void release_schema(struct ArrowSchema *sc)
{
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    sc->release(sc);
    PyErr_Restore(t, v, tb);
}

/* An object that only streams Arrow arrays (__arrow_c_stream__: a chunked
 * array, a polars Series), not one array (__arrow_c_array__). */
static int is_stream(PyObject *o)
{
    return !PyObject_HasAttrString(o, "__arrow_c_array__") &&
           PyObject_HasAttrString(o, "__arrow_c_stream__");
}

static void stream_error(struct ArrowArrayStream *st, int e)
{
    const char *why = st->get_last_error ? st->get_last_error(st) : NULL;
    PyErr_Format(PyExc_ValueError, "Arrow stream: %s (errno %d)", why ? why : "get_next failed", e);
}

/* Runs every array of an Arrow stream: adds (out_obj NULL, *res the count)
 * or contains (answers into *out_obj's buffer when given, else into a new
 * numpy array returned in *out_obj; *res the count). */
static int stream_run(FilterObject *self, PyObject *o, int add, PyObject **out_obj, size_t *res)
{
    PyObject *cap = PyObject_CallMethod(o, "__arrow_c_stream__", NULL);
    if (cap == NULL)
        return -1;
    struct ArrowArrayStream *st = PyCapsule_GetPointer(cap, "arrow_array_stream");
    if (st == NULL || st->release == NULL || st->get_schema == NULL || st->get_next == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "the Arrow stream was already released");
        Py_DECREF(cap);
        return -1;
    }
    struct ArrowSchema sch;
    memset(&sch, 0, sizeof sch);
    int e = st->get_schema(st, &sch);
    if (e != 0) {
        stream_error(st, e);
        Py_DECREF(cap);
        return -1;
    }
    Py_buffer ov = {0};
    int has_ov = 0;
    if (!add && *out_obj != NULL) {
        if (PyObject_GetBuffer(*out_obj, &ov, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0 ||
            (has_ov = 1, ov.itemsize != 1)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError,
                            "out must be a writable contiguous bool or uint8 array");
            goto fail;
        }
    }
    uint8_t *acc = NULL;
    size_t pos = 0, cap_n = 0, total = 0;
    for (;;) {
        struct ArrowArray arr;
        memset(&arr, 0, sizeof arr);
        e = st->get_next(st, &arr);
        if (e != 0) {
            stream_error(st, e);
            goto fail;
        }
        if (arr.release == NULL) /* the end */
            break;
        batch b;
        memset(&b, 0, sizeof b);
        uint8_t *dst = NULL;
        int bad = arrow_fill(&sch, &arr, &b) < 0;
        if (!bad && !add) {
            if (has_ov) {
                if (pos + b.n > (size_t)ov.len) {
                    PyErr_SetString(PyExc_ValueError, "out is shorter than the Arrow stream");
                    bad = 1;
                }
                dst = (uint8_t *)ov.buf + pos;
            } else {
                if (pos + b.n > cap_n) {
                    const size_t want = (pos + b.n) * 2;
                    uint8_t *g = PyMem_Realloc(acc, want ? want : 1);
                    if (g == NULL) {
                        PyErr_NoMemory();
                        bad = 1;
                    } else {
                        acc = g;
                        cap_n = want;
                    }
                }
                dst = acc + pos;
            }
        }
        Py_ssize_t r = -1;
        if (!bad)
            r = batch_run(self, &b, add, dst);
        release_array(&arr);
        if (r < 0)
            goto fail_acc;
        pos += b.n;
        total += (size_t)r;
    }
    if (!add) {
        if (has_ov) {
            if (pos != (size_t)ov.len) {
                PyErr_Format(PyExc_ValueError, "out has %zd items, the Arrow stream %zu",
                             ov.len, pos);
                goto fail_acc;
            }
            Py_INCREF(*out_obj);
        } else {
            if (import_numpy() < 0)
                goto fail_acc;
            PyObject *shape = PyLong_FromSize_t(pos);
            PyObject *res_arr =
                shape ? PyObject_CallFunctionObjArgs(numpy_empty, shape, numpy_bool, NULL) : NULL;
            Py_XDECREF(shape);
            Py_buffer nv;
            if (res_arr == NULL || PyObject_GetBuffer(res_arr, &nv, PyBUF_WRITABLE) < 0) {
                Py_XDECREF(res_arr);
                goto fail_acc;
            }
            if (pos)
                memcpy(nv.buf, acc, pos);
            PyBuffer_Release(&nv);
            *out_obj = res_arr;
        }
    }
    PyMem_Free(acc);
    if (has_ov)
        PyBuffer_Release(&ov);
    release_schema(&sch);
    Py_DECREF(cap);
    *res = total;
    return 0;
fail_acc:
    PyMem_Free(acc);
fail:
    if (has_ov)
        PyBuffer_Release(&ov);
    if (sch.release)
        release_schema(&sch);
    Py_DECREF(cap);
    return -1;
}

static PyObject *Filter_add_many(FilterObject *self, PyObject *keys)
{
    if (is_stream(keys)) {
        size_t r;
        PyObject *none = NULL;
        if (stream_run(self, keys, 1, &none, &r) < 0)
            return NULL;
        return PyLong_FromSize_t(r);
    }
    batch b;
    if (batch_get(keys, &b) < 0) {
        batch_release(&b);
        return NULL;
    }
    const Py_ssize_t r = batch_run(self, &b, 1, NULL);
    batch_release(&b);
    return r < 0 ? NULL : PyLong_FromSsize_t(r);
}

static int import_numpy(void)
{
    if (numpy_empty != NULL)
        return 0;
    PyObject *np = PyImport_ImportModule("numpy");
    if (np == NULL) {
        PyErr_SetString(PyExc_ImportError,
                        "contains_many returns a numpy array: install numpy, or pass "
                        "out=bytearray(n)");
        return -1;
    }
    numpy_empty = PyObject_GetAttrString(np, "empty");
    numpy_bool = PyObject_GetAttrString(np, "bool_");
    Py_DECREF(np);
    if (numpy_empty == NULL || numpy_bool == NULL) {
        Py_CLEAR(numpy_empty);
        Py_CLEAR(numpy_bool);
        return -1;
    }
    return 0;
}

static PyObject *Filter_contains_many(FilterObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"keys", "out", NULL};
    PyObject *keys, *out = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$O:contains_many", kwlist, &keys, &out))
        return NULL;
    if (is_stream(keys)) {
        size_t r;
        PyObject *o = out == Py_None ? NULL : out;
        if (stream_run(self, keys, 0, &o, &r) < 0)
            return NULL;
        return o;
    }
    batch b;
    if (batch_get(keys, &b) < 0) {
        batch_release(&b);
        return NULL;
    }
    PyObject *res;
    if (out == Py_None) {
        if (import_numpy() < 0) {
            batch_release(&b);
            return NULL;
        }
        PyObject *shape = PyLong_FromSize_t(b.n);
        res = shape ? PyObject_CallFunctionObjArgs(numpy_empty, shape, numpy_bool, NULL) : NULL;
        Py_XDECREF(shape);
    } else {
        res = Py_NewRef(out);
    }
    if (res == NULL) {
        batch_release(&b);
        return NULL;
    }
    Py_buffer ov;
    if (PyObject_GetBuffer(res, &ov, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        if (PyErr_ExceptionMatches(PyExc_BufferError) || PyErr_ExceptionMatches(PyExc_TypeError) ||
            PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError,
                         "out must be a writable contiguous bool or uint8 array of %zu items, "
                         "not %.100s", b.n, Py_TYPE(res)->tp_name);
        }
        batch_release(&b);
        Py_DECREF(res);
        return NULL;
    }
    const char *f = ov.format ? ov.format : "B";
    if (*f == '@' || *f == '=' || *f == '<' || *f == '|')
        f++;
    if (ov.itemsize != 1 || (strcmp(f, "?") && strcmp(f, "B") && strcmp(f, "b")) ||
        (size_t)ov.len != b.n) {
        PyErr_Format(PyExc_ValueError,
                     "out must be a writable contiguous bool or uint8 array of %zu items", b.n);
        PyBuffer_Release(&ov);
        batch_release(&b);
        Py_DECREF(res);
        return NULL;
    }
    const Py_ssize_t r = batch_run(self, &b, 0, ov.buf);
    PyBuffer_Release(&ov);
    batch_release(&b);
    if (r < 0) {
        Py_DECREF(res);
        return NULL;
    }
    return res;
}

static PyObject *Filter_count_many(FilterObject *self, PyObject *keys)
{
    if (is_stream(keys)) {
        size_t r;
        PyObject *o = NULL;
        if (stream_run(self, keys, 0, &o, &r) < 0)
            return NULL;
        Py_DECREF(o);
        return PyLong_FromSize_t(r);
    }
    batch b;
    if (batch_get(keys, &b) < 0) {
        batch_release(&b);
        return NULL;
    }
    uint8_t *out = PyMem_Malloc(b.n ? b.n : 1);
    if (out == NULL) {
        batch_release(&b);
        return PyErr_NoMemory();
    }
    const Py_ssize_t r = batch_run(self, &b, 0, out);
    PyMem_Free(out);
    batch_release(&b);
    return r < 0 ? NULL : PyLong_FromSsize_t(r);
}

/* ---------------------------------------------------------- whole filters */

static PyObject *Filter_copy(FilterObject *self, PyObject *Py_UNUSED(ignored))
{
    sbf_filter *c;
    guard(self, 0);
    const int rc = sbf_copy(&c, self->f);
    if (rc != SBF_OK)
        return raise_sbf(rc, 0, NULL);
    return (PyObject *)wrap(&FilterType, c);
}

static PyObject *Filter_deepcopy(FilterObject *self, PyObject *Py_UNUSED(memo))
{
    return Filter_copy(self, NULL);
}

static PyObject *Filter_clear(FilterObject *self, PyObject *Py_UNUSED(ignored))
{
    guard(self, 1);
    const int rc = sbf_clear(self->f);
    if (rc != SBF_OK)
        return raise_sbf(rc, 0, NULL);
    Py_RETURN_NONE;
}

static int setop(FilterObject *dst, FilterObject *src, int inter)
{
    guard(dst, 1);
    guard(src, 0);
    const int rc = inter ? sbf_intersect(dst->f, src->f) : sbf_union(dst->f, src->f);
    if (rc != SBF_OK) {
        raise_sbf(rc, 0, NULL);
        return -1;
    }
    return 0;
}

static PyObject *binop(PyObject *a, PyObject *b, int inter)
{
    if (!Filter_Check(a) || !Filter_Check(b))
        Py_RETURN_NOTIMPLEMENTED;
    FilterObject *c = (FilterObject *)Filter_copy((FilterObject *)a, NULL);
    if (c == NULL)
        return NULL;
    if (setop(c, (FilterObject *)b, inter) < 0) {
        Py_DECREF(c);
        return NULL;
    }
    return (PyObject *)c;
}

static PyObject *Filter_or(PyObject *a, PyObject *b) { return binop(a, b, 0); }
static PyObject *Filter_and(PyObject *a, PyObject *b) { return binop(a, b, 1); }

static PyObject *ibinop(PyObject *a, PyObject *b, int inter)
{
    if (!Filter_Check(a) || !Filter_Check(b))
        Py_RETURN_NOTIMPLEMENTED;
    if (setop((FilterObject *)a, (FilterObject *)b, inter) < 0)
        return NULL;
    return Py_NewRef(a);
}

static PyObject *Filter_ior(PyObject *a, PyObject *b) { return ibinop(a, b, 0); }
static PyObject *Filter_iand(PyObject *a, PyObject *b) { return ibinop(a, b, 1); }

static PyObject *Filter_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!Filter_Check(a) || !Filter_Check(b) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    FilterObject *x = (FilterObject *)a, *y = (FilterObject *)b;
    guard(x, 0);
    guard(y, 0);
    struct sbf_info ix, iy;
    (void)sbf_info_ex(x->f, &ix, SBF_INFO_SAMPLE);
    (void)sbf_info_ex(y->f, &iy, SBF_INFO_SAMPLE);
    int eq = ix.layout == iy.layout && ix.bits == iy.bits && ix.k == iy.k && ix.seed == iy.seed;
    if (eq) {
        size_t lx, ly;
        const void *dx = sbf_data(x->f, &lx), *dy = sbf_data(y->f, &ly);
        eq = lx == ly && memcmp(dx, dy, lx) == 0;
    }
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

/* ------------------------------------------------------ bytes and files */

static PyObject *Filter_to_bytes(FilterObject *self, PyObject *Py_UNUSED(ignored))
{
    void *buf;
    size_t len;
    guard(self, 0);
    const int rc = sbf_serialize(self->f, &buf, &len);
    if (rc != SBF_OK)
        return raise_sbf(rc, 0, NULL);
    PyObject *r = PyBytes_FromStringAndSize(buf, (Py_ssize_t)len);
    sbf_buffer_free(buf);
    return r;
}

static PyObject *Filter_to_guava(FilterObject *self, PyObject *Py_UNUSED(ignored))
{
    void *buf;
    size_t len;
    guard(self, 0);
    const int rc = sbf_export_guava(self->f, &buf, &len);
    if (rc != SBF_OK)
        return raise_sbf(rc, 0, NULL);
    PyObject *r = PyBytes_FromStringAndSize(buf, (Py_ssize_t)len);
    sbf_buffer_free(buf);
    return r;
}

static PyObject *Filter_to_parquet(FilterObject *self, PyObject *Py_UNUSED(ignored))
{
    void *buf;
    size_t len;
    guard(self, 0);
    const int rc = sbf_export_parquet(self->f, &buf, &len);
    if (rc != SBF_OK)
        return raise_sbf(rc, 0, NULL);
    PyObject *r = PyBytes_FromStringAndSize(buf, (Py_ssize_t)len);
    sbf_buffer_free(buf);
    return r;
}

/* from_bytes / from_guava / from_parquet: which decoder. */
static PyObject *decode(PyTypeObject *type, PyObject *data, int form)
{
    Py_buffer v;
    if (PyObject_GetBuffer(data, &v, PyBUF_SIMPLE) < 0)
        return NULL;
    sbf_filter *f;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = form == SBF_FORMAT_SBF     ? sbf_deserialize(&f, v.buf, (size_t)v.len)
         : form == SBF_FORMAT_GUAVA ? sbf_import_guava(&f, v.buf, (size_t)v.len)
                                    : sbf_import_parquet(&f, v.buf, (size_t)v.len);
    Py_END_ALLOW_THREADS
    if (rc == SBF_E_VERSION && form == SBF_FORMAT_SBF) {
        raise_version(v.buf, (size_t)v.len, 0, NULL);
        PyBuffer_Release(&v);
        return NULL;
    }
    PyBuffer_Release(&v);
    if (rc != SBF_OK)
        return raise_sbf(rc, 0, NULL);
    return (PyObject *)wrap(type, f);
}

static PyObject *Filter_from_bytes(PyObject *type, PyObject *data)
{
    return decode((PyTypeObject *)type, data, SBF_FORMAT_SBF);
}

static PyObject *Filter_from_guava(PyObject *type, PyObject *data)
{
    return decode((PyTypeObject *)type, data, SBF_FORMAT_GUAVA);
}

static PyObject *Filter_from_parquet(PyObject *type, PyObject *data)
{
    return decode((PyTypeObject *)type, data, SBF_FORMAT_PARQUET);
}

static PyObject *Filter_save(FilterObject *self, PyObject *arg)
{
    PyObject *path;
    if (!PyUnicode_FSConverter(arg, &path))
        return NULL;
    int rc, err;
    guard(self, 0);
    batch_enter(self, 0);
    Py_BEGIN_ALLOW_THREADS
    rc = sbf_save(self->f, PyBytes_AS_STRING(path));
    err = errno;
    Py_END_ALLOW_THREADS
    batch_leave(self, 0);
    PyObject *r = rc == SBF_OK ? Py_NewRef(Py_None) : raise_sbf(rc, err, arg);
    Py_DECREF(path);
    return r;
}

static PyObject *open_file(PyTypeObject *type, PyObject *arg, int map, int verify)
{
    PyObject *path;
    if (!PyUnicode_FSConverter(arg, &path))
        return NULL;
    sbf_filter *f;
    int rc, err;
    const unsigned flags = verify ? 0 : SBF_MAP_NO_VERIFY;
    Py_BEGIN_ALLOW_THREADS
    rc = map ? sbf_map(&f, PyBytes_AS_STRING(path), flags) : sbf_load(&f, PyBytes_AS_STRING(path));
    err = errno;
    Py_END_ALLOW_THREADS
    if (rc == SBF_E_VERSION) { /* what the file is, from its first bytes */
        unsigned char h[8];
        const int fd = open(PyBytes_AS_STRING(path), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        const ssize_t got = fd >= 0 ? read(fd, h, sizeof h) : -1;
        if (fd >= 0)
            close(fd);
        Py_DECREF(path);
        return raise_version(h, got > 0 ? (size_t)got : 0, map, arg);
    }
    if (rc != SBF_OK) {
        Py_DECREF(path);
        return raise_sbf(rc, err, arg);
    }
    FilterObject *o = wrap(type, f);
    if (o == NULL) {
        Py_DECREF(path);
        return NULL;
    }
    if (map) {
        /* pickled as its path: absolute, for workers with another cwd */
        const char *ps = PyBytes_AS_STRING(path);
        if (ps[0] != '/') {
            char cwd[4096];
            PyObject *abs = getcwd(cwd, sizeof cwd) != NULL
                                ? PyBytes_FromFormat("%s/%s", cwd, ps)
                                : Py_NewRef(path);
            Py_DECREF(path);
            if (abs == NULL) {
                Py_DECREF(o);
                return NULL;
            }
            path = abs;
        }
        o->map_path = path;
        o->map_flags = verify;
    } else {
        Py_DECREF(path);
    }
    return (PyObject *)o;
}

static PyObject *Filter_load(PyObject *type, PyObject *arg)
{
    return open_file((PyTypeObject *)type, arg, 0, 0);
}

static PyObject *Filter_map(PyObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"path", "verify", NULL};
    PyObject *path;
    int verify = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$p:map", kwlist, &path, &verify))
        return NULL;
    return open_file((PyTypeObject *)type, path, 1, verify);
}

static PyObject *module_restore;
static PyObject *module_remap;

static PyObject *Filter_reduce(FilterObject *self, PyObject *Py_UNUSED(ignored))
{
    if (self->map_path != NULL) /* a mapping travels as its path: workers map the file */
        return Py_BuildValue("O(Oi)", module_remap, self->map_path, self->map_flags);
    PyObject *b = Filter_to_bytes(self, NULL);
    if (b == NULL)
        return NULL;
    return Py_BuildValue("O(N)", module_restore, b);
}

static PyObject *Filter_sizeof(FilterObject *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSize_t(sizeof *self + sbf_memory_usage(self->f));
}

static PyObject *Filter_fpp_at(FilterObject *self, PyObject *arg)
{
    uint64_t n;
    if (u64_arg(arg, "n", &n) < 0)
        return NULL;
    return PyFloat_FromDouble(sbf_fpp_theory(self->f, n));
}

static PyObject *Filter_fpp_estimate(FilterObject *self, PyObject *Py_UNUSED(ignored))
{
    guard(self, 0);
    return PyFloat_FromDouble(sbf_fpp_estimate(self->f));
}

/* --------------------------------------------------------------- getters */

static int info_of(FilterObject *self, struct sbf_info *in)
{
    guard(self, 0);
    return sbf_info(self->f, in);
}

static PyObject *get_layout(FilterObject *self, void *c)
{
    (void)c;
    struct sbf_info in;
    guard(self, 0);
    (void)sbf_info_ex(self->f, &in, SBF_INFO_SAMPLE); /* the layout is exact either way */
    return PyUnicode_FromString(sbf_layout_name(in.layout));
}

#define INFO_GETTER(name, expr)                                   \
    static PyObject *get_##name(FilterObject *self, void *c)      \
    {                                                             \
        (void)c;                                                  \
        struct sbf_info in;                                       \
        guard(self, 0);                                           \
        (void)sbf_info_ex(self->f, &in, SBF_INFO_SAMPLE);         \
        return expr;                                              \
    }

INFO_GETTER(bits, PyLong_FromUnsignedLongLong(in.bits))
INFO_GETTER(nbytes, PyLong_FromSize_t(in.bytes))
INFO_GETTER(k, PyLong_FromUnsignedLong(in.k))
INFO_GETTER(seed, PyLong_FromUnsignedLong(in.seed))
INFO_GETTER(block_bits, PyLong_FromUnsignedLong(in.block_bits))
INFO_GETTER(keys_added, in.keys_added == SBF_KEYS_UNKNOWN ? Py_NewRef(Py_None)
                                                         : PyLong_FromUnsignedLongLong(in.keys_added))

static PyObject *get_estimated_count(FilterObject *self, void *c)
{
    (void)c;
    struct sbf_info in;
    (void)info_of(self, &in);
    return PyFloat_FromDouble(in.est_cardinality);
}

static PyObject *get_fpp(FilterObject *self, void *c)
{
    (void)c;
    struct sbf_info in;
    (void)info_of(self, &in);
    return PyFloat_FromDouble(in.fpp_now);
}

static PyObject *get_fill_ratio(FilterObject *self, void *c)
{
    (void)c;
    struct sbf_info in;
    (void)info_of(self, &in);
    return PyFloat_FromDouble(in.fill_ratio);
}

static PyObject *get_readonly(FilterObject *self, void *c)
{
    (void)c;
    return PyBool_FromLong(self->map_path != NULL);
}

static PyObject *get_isa(FilterObject *self, void *c)
{
    (void)c;
    struct sbf_info in;
    guard(self, 0);
    (void)sbf_info_ex(self->f, &in, SBF_INFO_SAMPLE);
    return PyUnicode_FromString(sbf_isa_name(in.isa));
}

static PyObject *Filter_repr(FilterObject *self)
{
    struct sbf_info in;
    guard(self, 0);
    (void)sbf_info_ex(self->f, &in, SBF_INFO_SAMPLE);
    char added[32];
    if (in.keys_added == SBF_KEYS_UNKNOWN)
        snprintf(added, sizeof added, "unknown");
    else
        snprintf(added, sizeof added, "%llu", (unsigned long long)in.keys_added);
    return PyUnicode_FromFormat("<simdbloom.Filter layout=%s bits=%llu k=%u keys_added=%s%s>",
                                sbf_layout_name(in.layout), (unsigned long long)in.bits,
                                (unsigned)in.k, added, self->map_path ? " mapped" : "");
}

/* ------------------------------------------------------------ the type */

PyDoc_STRVAR(Filter_doc,
"Filter(expected_items, fpp=0.01, *, layout='blocked', bits=0, k=0, seed=0)\n\n"
"A Bloom filter: a set that may answer 'maybe' for a key never added (at the\n"
"false-positive rate fpp) and never answers 'no' for a key that was.\n\n"
"Keys: int (-2**63 .. 2**64-1, hashed as its 64-bit two's complement in 8\n"
"little-endian bytes, the C library's u64 form: -1 and 2**64-1 are one key),\n"
"bytes, str (its UTF-8) and bytes-like objects (buffer protocol). An int key\n"
"and the bytes of its 8-byte little-endian form are the same key.\n\n"
"layout: a name from simdbloom.layouts() ('classic' is Guava's, 'blocked'\n"
"and 'split-block' are fast, 'counting' supports remove, 'parquet' is\n"
"Parquet's). bits and k override the sizing; seed is MurmurHash3's seed.\n\n"
"There is no len(): a Bloom filter does not know its count. keys_added is\n"
"the count of adds that changed it; estimated_count is judged from its bits.");

static PyMethodDef Filter_methods[] = { /* "add" first: apply_view_isa sets it */
    {"add", (PyCFunction)Filter_add, METH_O,
     "add($self, key, /)\n--\n\nAdds one key (int, bytes, str or bytes-like)."},
    {"contains", (PyCFunction)Filter_contains_meth, METH_O,
     "contains($self, key, /)\n--\n\n`key in filter`: False means surely absent."},
    {"remove", (PyCFunction)Filter_remove, METH_O,
     "remove($self, key, /)\n--\n\nCounting layout only: removes one add of key. Raises KeyError\n"
     "when the filter says the key is absent. Remove only keys that were added."},
    {"update", (PyCFunction)Filter_update, METH_VARARGS,
     "update($self, /, *iterables)\n--\n\nAdds every key of every iterable (int keys in batches;\n"
     "NumPy int64/uint64 arrays and Arrow arrays go to add_many)."},
    {"add_many", (PyCFunction)Filter_add_many, METH_O,
     "add_many($self, keys, /)\n--\n\nAdds many keys without a Python loop; returns how many changed\n"
     "the filter. keys: a 1-D NumPy (or any buffer) array of uint64/int64, a NumPy\n"
     "'S<w>' array (trailing NUL bytes are not part of a key, as NumPy reads them), a\n"
     "2-D uint8 array (each row one key of exactly that width), an Arrow array\n"
     "(__arrow_c_array__: int64, uint64, utf8, binary, large_utf8, large_binary; nulls\n"
     "skipped) or stream of them (__arrow_c_stream__: chunked arrays, polars Series),\n"
     "or a sequence of keys. Zero copy; the GIL is released."},
    {"contains_many", (PyCFunction)(void (*)(void))Filter_contains_many,
     METH_VARARGS | METH_KEYWORDS,
     "contains_many($self, /, keys, *, out=None)\n--\n\nAnswers for many keys (the kinds of "
     "add_many): a NumPy bool array, or out\n(a writable contiguous bool/uint8 array of len(keys)) "
     "filled and returned.\nArrow nulls answer False. The GIL is released."},
    {"count_many", (PyCFunction)Filter_count_many, METH_O,
     "count_many($self, keys, /)\n--\n\nHow many of the keys (as add_many takes them) may be present."},
    {"copy", (PyCFunction)Filter_copy, METH_NOARGS,
     "copy($self, /)\n--\n\nAn independent writable copy (of a mapped filter too)."},
    {"__copy__", (PyCFunction)Filter_copy, METH_NOARGS, NULL},
    {"__deepcopy__", (PyCFunction)Filter_deepcopy, METH_O, NULL},
    {"clear", (PyCFunction)Filter_clear, METH_NOARGS,
     "clear($self, /)\n--\n\nRemoves every key (keys_added becomes 0)."},
    {"to_bytes", (PyCFunction)Filter_to_bytes, METH_NOARGS,
     "to_bytes($self, /)\n--\n\nThe filter in simdbloom's file format (what save() writes)."},
    {"to_guava", (PyCFunction)Filter_to_guava, METH_NOARGS,
     "to_guava($self, /)\n--\n\nGuava's BloomFilter.writeTo form (classic layout, seed 0 only)."},
    {"to_parquet", (PyCFunction)Filter_to_parquet, METH_NOARGS,
     "to_parquet($self, /)\n--\n\nParquet's BloomFilterHeader + bitset (parquet layout only)."},
    {"from_bytes", (PyCFunction)Filter_from_bytes, METH_O | METH_CLASS,
     "from_bytes($type, data, /)\n--\n\nReads simdbloom's format (checked completely)."},
    {"from_guava", (PyCFunction)Filter_from_guava, METH_O | METH_CLASS,
     "from_guava($type, data, /)\n--\n\nReads Guava's BloomFilter.writeTo form."},
    {"from_parquet", (PyCFunction)Filter_from_parquet, METH_O | METH_CLASS,
     "from_parquet($type, data, /)\n--\n\nReads Parquet's BloomFilterHeader + bitset."},
    {"save", (PyCFunction)Filter_save, METH_O,
     "save($self, path, /)\n--\n\nWrites the filter to path, crash-safe (temporary file + rename)."},
    {"load", (PyCFunction)Filter_load, METH_O | METH_CLASS,
     "load($type, path, /)\n--\n\nReads a file written by save() (every byte checked)."},
    {"map", (PyCFunction)(void (*)(void))Filter_map, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "map($type, /, path, *, verify=False)\n--\n\nMaps a file written by save() read-only and "
     "shared: no copy, pages\nread as probes touch them, one copy in the page cache for every "
     "process.\nverify=True checks the data checksum first (reads the whole file).\nModifying "
     "calls raise simdbloom.Error. Pickled, a mapped filter travels\nas its path (workers map "
     "the same file)."},
    {"fpp_at", (PyCFunction)Filter_fpp_at, METH_O,
     "fpp_at($self, n, /)\n--\n\nThe layout's exact false-positive rate after n distinct keys."},
    {"fpp_estimate", (PyCFunction)Filter_fpp_estimate, METH_NOARGS,
     "fpp_estimate($self, /)\n--\n\nThe false-positive rate judged from the filter's own bits "
     "(needs no\nkey count: for filters read from elsewhere, Parquet's included)."},
    {"__reduce__", (PyCFunction)Filter_reduce, METH_NOARGS, NULL},
    {"__sizeof__", (PyCFunction)Filter_sizeof, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Filter_getset[] = {
    {"layout", (getter)get_layout, NULL, "The layout's name.", NULL},
    {"bits", (getter)get_bits, NULL, "Size in bits (counting: 4 per counter).", NULL},
    {"nbytes", (getter)get_nbytes, NULL, "Bytes of filter data.", NULL},
    {"k", (getter)get_k, NULL, "Bits (counters) per key.", NULL},
    {"seed", (getter)get_seed, NULL, "The MurmurHash3 seed.", NULL},
    {"block_bits", (getter)get_block_bits, NULL, "Bits of the block a key lives in (0: classic).",
     NULL},
    {"keys_added", (getter)get_keys_added, NULL,
     "Adds that changed the filter (distinct keys less those that were false positives\n"
     "when added), or None when unknown (after |, &, or a Guava import).", NULL},
    {"estimated_count", (getter)get_estimated_count, NULL,
     "Distinct keys estimated from the bits (Swamidass-Baldi); inf when full.\nReads the whole filter.", NULL},
    {"fpp", (getter)get_fpp, NULL,
     "The current false-positive rate: the layout's formula at keys_added (from the\n"
     "bits when the count is unknown).", NULL},
    {"fill_ratio", (getter)get_fill_ratio, NULL, "Set bits / bits (reads the whole filter).", NULL},
    {"readonly", (getter)get_readonly, NULL, "True for a mapped filter (Filter.map).", NULL},
    {"isa", (getter)get_isa, NULL, "The instruction set of this filter's kernels.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PySequenceMethods Filter_as_sequence = {
    .sq_contains = (objobjproc)Filter_contains,
};

/* Points Filter.add and `in` at the chosen one-key code (vops): that ISA's
 * whole call, or the portable one. Read at each call (the method
 * descriptor calls through its PyMethodDef, `in` through the slot). */
static void apply_view_isa(void)
{
    Filter_methods[0].ml_meth = vops ? vops->py_add : (PyCFunction)Filter_add;
    Filter_as_sequence.sq_contains = vops ? vops->py_contains : (objobjproc)Filter_contains;
}

static PyNumberMethods Filter_as_number = {
    .nb_or = Filter_or,
    .nb_and = Filter_and,
    .nb_inplace_or = Filter_ior,
    .nb_inplace_and = Filter_iand,
};

static PyTypeObject FilterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "simdbloom.Filter",
    .tp_basicsize = sizeof(FilterObject),
    .tp_dealloc = (destructor)Filter_dealloc,
    .tp_repr = (reprfunc)Filter_repr,
    .tp_as_number = &Filter_as_number,
    .tp_as_sequence = &Filter_as_sequence,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = Filter_doc,
    .tp_richcompare = Filter_richcompare,
    .tp_methods = Filter_methods,
    .tp_getset = Filter_getset,
    .tp_new = Filter_new,
};

/* ---------------------------------------------------------- ParquetFile */

typedef struct {
    PyObject_HEAD
    sbf_parquet *pq;
    PyObject *path;
    int busy; /* calls reading the file without the GIL: close waits for none */
} ParquetObject;

static PyObject *raise_pq(int rc, int err, const char *why, PyObject *path)
{
    if (rc == SBF_E_IO || rc == SBF_E_NOMEM || why == NULL)
        return raise_sbf(rc, err, path);
    PyObject *w = path ? PyUnicode_FromFormat("%S: %s", path, why) : PyUnicode_FromString(why);
    if (w == NULL)
        return NULL;
    raise_sbf(rc, 0, w);
    Py_DECREF(w);
    return NULL;
}

static PyObject *Parquet_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"path", NULL};
    PyObject *arg, *path;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O:ParquetFile", kwlist, &arg))
        return NULL;
    if (!PyUnicode_FSConverter(arg, &path))
        return NULL;
    sbf_parquet *pq;
    const char *why = NULL;
    int rc, err;
    Py_BEGIN_ALLOW_THREADS
    rc = sbf_parquet_open(&pq, PyBytes_AS_STRING(path), &why);
    err = errno;
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (rc != SBF_OK)
        return raise_pq(rc, err, why, arg);
    ParquetObject *o = (ParquetObject *)type->tp_alloc(type, 0);
    if (o == NULL) {
        sbf_parquet_close(pq);
        return NULL;
    }
    o->pq = pq;
    o->path = Py_NewRef(arg);
    return (PyObject *)o;
}

static void Parquet_dealloc(ParquetObject *self)
{
    sbf_parquet_close(self->pq);
    Py_XDECREF(self->path);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int pq_open(ParquetObject *self)
{
    if (self->pq == NULL) {
        PyErr_SetString(PyExc_ValueError, "I/O operation on a closed ParquetFile");
        return -1;
    }
    return 0;
}

static PyObject *Parquet_close(ParquetObject *self, PyObject *Py_UNUSED(ignored))
{
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "ParquetFile.close: another thread is reading it");
        return NULL;
    }
    sbf_parquet_close(self->pq);
    self->pq = NULL;
    Py_RETURN_NONE;
}

static PyObject *Parquet_enter(ParquetObject *self, PyObject *Py_UNUSED(ignored))
{
    if (pq_open(self) < 0)
        return NULL;
    return Py_NewRef(self);
}

static PyObject *Parquet_exit(ParquetObject *self, PyObject *Py_UNUSED(args))
{
    return Parquet_close(self, NULL);
}

static PyObject *Parquet_chunks(ParquetObject *self, PyObject *Py_UNUSED(ignored))
{
    if (pq_open(self) < 0)
        return NULL;
    const sbf_parquet_column *c;
    const size_t n = sbf_parquet_columns(self->pq, &c);
    PyObject *l = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; l != NULL && i < n; i++) {
        PyObject *t = Py_BuildValue("(IIiO&LLiO&)", c[i].row_group, c[i].column, c[i].type,
                                    PyUnicode_DecodeFSDefault, c[i].path,
                                    (long long)c[i].num_values, (long long)c[i].bloom_offset,
                                    (int)c[i].bloom_length, PyUnicode_DecodeFSDefault,
                                    sbf_parquet_column_name(self->pq, i));
        if (t == NULL) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, t);
    }
    return l;
}

static PyObject *Parquet_row_groups(ParquetObject *self, void *c)
{
    (void)c;
    if (pq_open(self) < 0)
        return NULL;
    return PyLong_FromUnsignedLong(sbf_parquet_row_groups(self->pq));
}

static int chunk_index(ParquetObject *self, PyObject *arg, size_t *i)
{
    if (pq_open(self) < 0)
        return -1;
    const Py_ssize_t v = PyLong_AsSsize_t(arg);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < 0 || (size_t)v >= sbf_parquet_columns(self->pq, NULL)) {
        PyErr_Format(PyExc_IndexError, "no column chunk %zd", v);
        return -1;
    }
    *i = (size_t)v;
    return 0;
}

static PyObject *Parquet_read_bloom(ParquetObject *self, PyObject *arg)
{
    size_t i;
    if (chunk_index(self, arg, &i) < 0)
        return NULL;
    void *buf;
    size_t len;
    const char *why = NULL;
    int rc, err;
    self->busy++;
    Py_BEGIN_ALLOW_THREADS
    rc = sbf_parquet_read_bloom(self->pq, i, &buf, &len, &why);
    err = errno;
    Py_END_ALLOW_THREADS
    self->busy--;
    if (rc != SBF_OK)
        return raise_pq(rc, err, why, self->path);
    PyObject *r = PyBytes_FromStringAndSize(buf, (Py_ssize_t)len);
    free(buf);
    return r;
}

static PyObject *Parquet_bloom_extent(ParquetObject *self, PyObject *arg)
{
    size_t i;
    if (chunk_index(self, arg, &i) < 0)
        return NULL;
    uint64_t off, bytes;
    const char *why = NULL;
    int rc, err;
    self->busy++;
    Py_BEGIN_ALLOW_THREADS
    rc = sbf_parquet_bloom_extent(self->pq, i, &off, &bytes, &why);
    err = errno;
    Py_END_ALLOW_THREADS
    self->busy--;
    if (rc != SBF_OK)
        return raise_pq(rc, err, why, self->path);
    return Py_BuildValue("(KK)", (unsigned long long)off, (unsigned long long)bytes);
}

static PyObject *Parquet_filter(ParquetObject *self, PyObject *arg)
{
    size_t i;
    if (chunk_index(self, arg, &i) < 0)
        return NULL;
    sbf_filter *f;
    const char *why = NULL;
    int rc, err;
    self->busy++;
    Py_BEGIN_ALLOW_THREADS
    rc = sbf_parquet_filter(&f, self->pq, i, &why);
    err = errno;
    Py_END_ALLOW_THREADS
    self->busy--;
    if (rc != SBF_OK)
        return raise_pq(rc, err, why, self->path);
    return (PyObject *)wrap(&FilterType, f);
}

static PyMethodDef Parquet_methods[] = {
    {"chunks", (PyCFunction)Parquet_chunks, METH_NOARGS,
     "chunks($self, /)\n--\n\nEvery column chunk: (row_group, column, type, path, "
     "num_values,\nbloom_offset, bloom_length, name); offsets and lengths -1 when absent; name\n"
     "the escaped one that names one column alone (sbf_parquet_column_name)."},
    {"read_bloom", (PyCFunction)Parquet_read_bloom, METH_O,
     "read_bloom($self, i, /)\n--\n\nChunk i's Bloom filter as stored (header + bitset)."},
    {"bloom_extent", (PyCFunction)Parquet_bloom_extent, METH_O,
     "bloom_extent($self, i, /)\n--\n\nChunk i's Bloom filter: (offset, bytes) from its header "
     "alone (nothing allocated)."},
    {"filter", (PyCFunction)Parquet_filter, METH_O,
     "filter($self, i, /)\n--\n\nChunk i's Bloom filter as a parquet-layout Filter."},
    {"close", (PyCFunction)Parquet_close, METH_NOARGS, "close($self, /)\n--\n\nCloses the file (filters read from it stay valid)."},
    {"__enter__", (PyCFunction)Parquet_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)Parquet_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Parquet_getset[] = {
    {"row_groups", (getter)Parquet_row_groups, NULL, "Row groups in the file.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject ParquetType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "simdbloom._core.ParquetFile",
    .tp_basicsize = sizeof(ParquetObject),
    .tp_dealloc = (destructor)Parquet_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "ParquetFile(path): the footer of a .parquet file and its Bloom filters (C level;\n"
              "simdbloom.parquet.ParquetFile is the friendly form).",
    .tp_methods = Parquet_methods,
    .tp_getset = Parquet_getset,
    .tp_new = Parquet_new,
};

/* ------------------------------------------------------------ module */

static PyObject *mod_restore(PyObject *m, PyObject *data)
{
    (void)m;
    return decode(&FilterType, data, SBF_FORMAT_SBF);
}

static PyObject *mod_remap(PyObject *m, PyObject *args)
{
    (void)m;
    PyObject *path;
    int verify;
    if (!PyArg_ParseTuple(args, "Oi:_remap", &path, &verify))
        return NULL;
    return open_file(&FilterType, path, 1, verify);
}

static PyObject *mod_layouts(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    (void)m;
    PyObject *l = PyList_New(0);
    for (int i = 0; l != NULL && i < 256; i++) {
        struct sbf_layout_info li;
        if (sbf_layout_info(i, 0, &li) != SBF_OK)
            continue;
        PyObject *s = PyUnicode_FromString(li.name);
        if (s == NULL || PyList_Append(l, s) < 0)
            Py_CLEAR(l);
        Py_XDECREF(s);
    }
    if (l == NULL)
        return NULL;
    PyObject *t = PyList_AsTuple(l);
    Py_DECREF(l);
    return t;
}

static PyObject *mod_isa(PyObject *m, PyObject *Py_UNUSED(ignored))
{
    (void)m;
    const int isa = sbf_isa_active();
    if (isa < 0)
        return raise_sbf(isa, 0, NULL);
    return PyUnicode_FromString(sbf_isa_name(isa));
}

static PyObject *mod_c_batch(PyObject *m, PyObject *args)
{
    /* _c_batch(filter, uint64 buffer, add): the bare library call, timed
     * by the benchmark to show the binding's overhead; returns seconds. */
    (void)m;
    PyObject *fo, *keys;
    int add;
    if (!PyArg_ParseTuple(args, "O!Op:_c_batch", &FilterType, &fo, &keys, &add))
        return NULL;
    Py_buffer v;
    if (PyObject_GetBuffer(keys, &v, PyBUF_SIMPLE) < 0)
        return NULL;
    FilterObject *self = (FilterObject *)fo;
    const size_t n = (size_t)v.len / 8;
    uint8_t *out = add ? NULL : PyMem_Malloc(n ? n : 1);
    if (!add && out == NULL) {
        PyBuffer_Release(&v);
        return PyErr_NoMemory();
    }
    struct timespec t0, t1;
    int rc = 0;
    batch_enter(self, add);
    Py_BEGIN_ALLOW_THREADS
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (add)
        rc = sbf_add_u64(self->f, v.buf, n);
    else
        (void)sbf_contains_u64(self->f, v.buf, n, out);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    Py_END_ALLOW_THREADS
    batch_leave(self, add);
    PyMem_Free(out);
    PyBuffer_Release(&v);
    if (rc < 0)
        return raise_sbf(rc, 0, NULL);
    return PyFloat_FromDouble((double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
}

static PyObject *mod_view_isa(PyObject *m, PyObject *args)
{
    (void)m;
    const char *name = NULL;
    if (!PyArg_ParseTuple(args, "|s:_view_isa", &name))
        return NULL;
    if (name != NULL && set_view_isa(name) == 0)
        apply_view_isa();
    else if (name != NULL) {
        PyErr_Format(PyExc_ValueError, "one-key code '%s' is not available here", name);
        return NULL;
    }
    return PyUnicode_FromString(vops_name);
}

static PyMethodDef module_methods[] = {
    {"_view_isa", (PyCFunction)mod_view_isa, METH_VARARGS,
     "_view_isa([name]) -> str: the one-key code in use (avx512, avx2, portable); sets it"},
    {"_restore", (PyCFunction)mod_restore, METH_O, "unpickle a Filter"},
    {"_remap", (PyCFunction)mod_remap, METH_VARARGS, "unpickle a mapped Filter"},
    {"_c_batch", (PyCFunction)mod_c_batch, METH_VARARGS, "benchmark helper"},
    {"layouts", (PyCFunction)mod_layouts, METH_NOARGS,
     "layouts($module, /)\n--\n\nThe names of the library's layouts (Filter(layout=...))."},
    {"isa", (PyCFunction)mod_isa, METH_NOARGS,
     "isa($module, /)\n--\n\nThe instruction set new filters use (SBF_ISA overrides detection)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "simdbloom._core",
    "The C core of simdbloom (see the simdbloom package).", -1, module_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void);
PyMODINIT_FUNC PyInit__core(void)
{
    const uint16_t one = 1;
    if (*(const unsigned char *)&one != 1) {
        PyErr_SetString(PyExc_ImportError, "simdbloom needs a little-endian host");
        return NULL;
    }
    {
        const int isa = sbf_isa_active(); /* SBF_ISA=scalar etc. is followed */
        (void)set_view_isa(isa == SBF_ISA_AVX512 ? "avx512" : isa == SBF_ISA_AVX2 ? "avx2"
                                                                                : "portable");
        apply_view_isa();
    }
    if (PyType_Ready(&FilterType) < 0 || PyType_Ready(&ParquetType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL)
        return NULL;
    Error = PyErr_NewExceptionWithDoc(
        "simdbloom.Error",
        "A call the library refused; .code is the library's SBF_E_* code (negative).",
        PyExc_ValueError, NULL);
    if (Error == NULL || PyModule_AddObjectRef(m, "Error", Error) < 0 ||
        PyModule_AddObjectRef(m, "Filter", (PyObject *)&FilterType) < 0 ||
        PyModule_AddObjectRef(m, "ParquetFile", (PyObject *)&ParquetType) < 0 ||
        PyModule_AddStringConstant(m, "library_version", sbf_version_string()) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    module_restore = PyObject_GetAttrString(m, "_restore");
    module_remap = PyObject_GetAttrString(m, "_remap");
    if (module_restore == NULL || module_remap == NULL) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
