//! Zero-copy access to Python objects through the buffer protocol.
//!
//! PyO3 exposes `Py_buffer` under the limited API (abi3) only from Python
//! 3.11, when CPython added it to the stable ABI; this package builds for 3.9
//! and 3.10 too (the stable ABI of the building interpreter, Cargo.toml).
//! The struct and the two functions are declared here instead. Their layout
//! and symbols have not changed since Python 3.3 (3.11 froze exactly this
//! layout into the stable ABI), and every CPython 3.x exports both symbols,
//! so an abi3 module loaded by 3.9 or 3.10 finds them.
//!
//! A [`Buffer`] holds one export (`PyObject_GetBuffer`) and releases it on
//! drop; its slices live no longer than it. Every request asks for a
//! C-contiguous buffer, so `buf .. buf + len` is the whole of the data.
//!
//! Small calls skip the export: an exact `numpy.ndarray` is read through
//! numpy's C API (`ndarray.rs`) and `bytes` directly, an *unpinned*
//! buffer. Nothing but the GIL keeps an unpinned array's memory in place
//! (an export makes numpy refuse to resize it), so a caller asks for one
//! ([`Pin::No`]) only when it keeps the GIL for the whole call and runs no
//! Python code between taking the buffer and its last use of the data.
//! The caller must not mutate an input, nor hand the same `out=` array to
//! two calls, from another thread while a call runs without the GIL (as
//! with any numpy extension that releases it): numpy does not lock buffers.

use std::ffi::{c_char, c_int, c_void, CStr};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;

use crate::ndarray;

/// CPython's `Py_buffer` (Include/pybuffer.h, unchanged since 3.3).
#[repr(C)]
struct RawBuffer {
    buf: *mut c_void,
    obj: *mut ffi::PyObject,
    len: ffi::Py_ssize_t,
    itemsize: ffi::Py_ssize_t,
    readonly: c_int,
    ndim: c_int,
    format: *mut c_char,
    shape: *mut ffi::Py_ssize_t,
    strides: *mut ffi::Py_ssize_t,
    suboffsets: *mut ffi::Py_ssize_t,
    internal: *mut c_void,
}

extern "C" {
    fn PyObject_GetBuffer(obj: *mut ffi::PyObject, view: *mut RawBuffer, flags: c_int) -> c_int;
    fn PyBuffer_Release(view: *mut RawBuffer);
}

const PYBUF_WRITABLE: c_int = 0x0001;
const PYBUF_FORMAT: c_int = 0x0004;
/// `PyBUF_C_CONTIGUOUS` = `PyBUF_STRIDES | 0x20`.
const PYBUF_C_CONTIGUOUS: c_int = 0x0038;

/// The element types the codecs read and write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Elem {
    U8,
    U32,
    I32,
    U64,
    I64,
}

impl Elem {
    /// The numpy name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Elem::U8 => "uint8",
            Elem::U32 => "uint32",
            Elem::I32 => "int32",
            Elem::U64 => "uint64",
            Elem::I64 => "int64",
        }
    }

    pub(crate) fn size(self) -> usize {
        match self {
            Elem::U8 => 1,
            Elem::U32 | Elem::I32 => 4,
            Elem::U64 | Elem::I64 => 8,
        }
    }

    /// From a numpy dtype name (`dtype.name`).
    pub(crate) fn from_name(name: &str) -> Option<Elem> {
        [Elem::U8, Elem::U32, Elem::I32, Elem::U64, Elem::I64]
            .into_iter()
            .find(|e| e.name() == name)
    }

    /// From a buffer's struct-module format and item size: native or
    /// little-endian integers only (this is a little-endian build).
    fn from_format(format: &[u8], itemsize: usize) -> Option<Elem> {
        let code = match format {
            [b'@' | b'=' | b'<', rest @ ..]
                if cfg!(target_endian = "little") || format[0] == b'@' =>
            {
                rest
            }
            [b'>' | b'!', ..] => return None,
            _ => format,
        };
        let signed = match code {
            b"B" | b"H" | b"I" | b"L" | b"Q" | b"N" => false,
            b"b" | b"h" | b"i" | b"l" | b"q" | b"n" => true,
            _ => return None,
        };
        match (signed, itemsize) {
            (false, 1) => Some(Elem::U8),
            (false, 4) => Some(Elem::U32),
            (true, 4) => Some(Elem::I32),
            (false, 8) => Some(Elem::U64),
            (true, 8) => Some(Elem::I64),
            _ => None,
        }
    }
}

/// Plain integer types a buffer can be viewed as (any bit pattern valid).
pub(crate) trait Pod: Copy {}
impl Pod for u8 {}
impl Pod for u32 {}
impl Pod for i32 {}
impl Pod for u64 {}
impl Pod for i64 {}

/// Whether a buffer must hold an export (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pin {
    /// Always export: the call releases the GIL (or may run Python code).
    Yes,
    /// A view without an export is enough: the GIL stays held.
    No,
    /// Export if the buffer holds at least this many items (the call
    /// releases the GIL from that size on).
    FromItems(usize),
}

/// A view of a Python object's data: one buffer export, released on drop,
/// or an unpinned view (no export; see the module doc).
pub(crate) struct Buffer {
    // Boxed: the exporter may keep pointers into the struct until release.
    raw: Option<Box<RawBuffer>>,
    ptr: *mut u8,
    len: usize,
    readonly: bool,
    /// The element type, when the format was asked for.
    elem: Option<Elem>,
}

impl Buffer {
    /// Any C-contiguous buffer, as bytes (`what` names the argument in errors).
    pub(crate) fn bytes(obj: &Bound<'_, PyAny>, what: &str, pin: Pin) -> PyResult<Buffer> {
        if let Some(b) = ndarray::bytes_data(obj) {
            // `bytes` are immutable and `obj` outlives the buffer: no export
            // is needed even without the GIL.
            return Ok(Buffer {
                raw: None,
                ptr: b.as_ptr() as *mut u8,
                len: b.len(),
                readonly: true,
                elem: None,
            });
        }
        if pin == Pin::No {
            if let Some(v) = ndarray::api(obj.py()).and_then(|a| a.view(obj)) {
                return Ok(Buffer {
                    raw: None,
                    ptr: v.data,
                    len: v.items * v.elem.size(),
                    readonly: true,
                    elem: None,
                });
            }
        }
        Buffer::get(obj, PYBUF_C_CONTIGUOUS, what)
    }

    /// A C-contiguous buffer of integers, typed; `writable` for outputs.
    pub(crate) fn typed(
        obj: &Bound<'_, PyAny>,
        writable: bool,
        what: &str,
        pin: Pin,
    ) -> PyResult<Buffer> {
        if pin != Pin::Yes {
            if let Some(v) = ndarray::api(obj.py()).and_then(|a| a.view(obj)) {
                let small = match pin {
                    Pin::FromItems(n) => v.items < n,
                    _ => true,
                };
                if small && (v.writable || !writable) {
                    return Ok(Buffer {
                        raw: None,
                        ptr: v.data,
                        len: v.items * v.elem.size(),
                        readonly: !v.writable,
                        elem: Some(v.elem),
                    });
                }
            }
        }
        let flags = PYBUF_C_CONTIGUOUS | PYBUF_FORMAT | if writable { PYBUF_WRITABLE } else { 0 };
        let mut b = Buffer::get(obj, flags, what)?;
        let format: &[u8] = if b.raw().format.is_null() {
            b"B"
        } else {
            // SAFETY: a non-null `format` of a live export is a NUL-terminated
            // string that lives as long as the export (`b`).
            unsafe { CStr::from_ptr(b.raw().format) }.to_bytes()
        };
        let itemsize = usize::try_from(b.raw().itemsize).unwrap_or(0);
        match Elem::from_format(format, itemsize) {
            Some(e) => b.elem = Some(e),
            None => {
                return Err(PyTypeError::new_err(format!(
                    "{what} must hold uint32 (or int32, or uint64/int64 for vbyte) integers, \
                     got buffer format '{}' of {itemsize}-byte items",
                    String::from_utf8_lossy(format)
                )))
            }
        }
        let align = b.elem.map_or(1, Elem::size);
        if !(b.ptr as usize).is_multiple_of(align) {
            return Err(PyValueError::new_err(format!(
                "{what} is not aligned to its {align}-byte items (copy it, e.g. numpy.ascontiguousarray)"
            )));
        }
        Ok(b)
    }

    fn get(obj: &Bound<'_, PyAny>, flags: c_int, what: &str) -> PyResult<Buffer> {
        let py = obj.py();
        let mut raw = Box::new(RawBuffer {
            buf: std::ptr::null_mut(),
            obj: std::ptr::null_mut(),
            len: 0,
            itemsize: 0,
            readonly: 0,
            ndim: 0,
            format: std::ptr::null_mut(),
            shape: std::ptr::null_mut(),
            strides: std::ptr::null_mut(),
            suboffsets: std::ptr::null_mut(),
            internal: std::ptr::null_mut(),
        });
        // SAFETY: `obj` is a live object (we hold the GIL), `raw` a writable
        // Py_buffer; on success the export is released in `Drop`.
        let rc = unsafe { PyObject_GetBuffer(obj.as_ptr(), &mut *raw, flags) };
        if rc == 0 {
            return Ok(Buffer {
                ptr: raw.buf as *mut u8,
                len: usize::try_from(raw.len).unwrap_or(0),
                readonly: raw.readonly != 0,
                raw: Some(raw),
                elem: None,
            });
        }
        let err = PyErr::fetch(py);
        let type_name = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "?".into());
        if err.is_instance_of::<PyTypeError>(py) {
            return Err(PyTypeError::new_err(format!(
                "{what} must be a numpy array or another object with the buffer protocol, not {type_name}"
            )));
        }
        // BufferError: not contiguous, or read-only when writable was asked.
        let need = if flags & PYBUF_WRITABLE != 0 {
            "a writable, C-contiguous array"
        } else {
            "a C-contiguous array or buffer"
        };
        Err(PyValueError::new_err(format!(
            "{what} must be {need}: {err}"
        )))
    }

    /// The export (only `get` reads it, on a buffer it just made).
    fn raw(&self) -> &RawBuffer {
        self.raw.as_deref().expect("an exported buffer")
    }

    pub(crate) fn elem(&self) -> Elem {
        self.elem.unwrap_or(Elem::U8)
    }

    pub(crate) fn len_bytes(&self) -> usize {
        self.len
    }

    /// Items of the buffer's element type.
    pub(crate) fn len_items(&self) -> usize {
        self.len_bytes() / self.elem().size()
    }

    /// The address range, for overlap checks.
    pub(crate) fn range(&self) -> std::ops::Range<usize> {
        let start = self.ptr as usize;
        start..start + self.len_bytes()
    }

    /// How many `T`s the data holds; panics unless `T` has the buffer's
    /// item size or is a byte.
    fn count<T: Pod>(&self) -> usize {
        let size = std::mem::size_of::<T>();
        assert!(
            size == 1 || size == self.elem().size(),
            "buffer viewed as the wrong type"
        );
        self.len_bytes() / size
    }

    /// The data as `T`s. `T` must have the buffer's item size (the callers
    /// match on `elem()` first); bytes are always allowed.
    pub(crate) fn slice<T: Pod>(&self) -> &[T] {
        let n = self.count::<T>();
        if n == 0 {
            return &[];
        }
        // SAFETY: the export (or, unpinned, the array under the GIL: see the
        // module doc) is live while `self` is; it is `len` readable,
        // contiguous bytes at `ptr`, aligned for `T` (checked in `typed`, or
        // numpy's ALIGNED flag; size-1 types need none), and any bit
        // pattern is a valid `T`.
        unsafe { std::slice::from_raw_parts(self.ptr as *const T, n) }
    }

    /// The data as mutable `T`s; the export must have been asked writable.
    pub(crate) fn slice_mut<T: Pod>(&mut self) -> &mut [T] {
        assert!(!self.readonly, "buffer is read-only");
        let n = self.count::<T>();
        if n == 0 {
            return &mut [];
        }
        // SAFETY: as in `slice`, and the exporter granted a writable view;
        // `&mut self` makes this the only slice of this export, and callers
        // check that other buffers they hold do not overlap it.
        unsafe { std::slice::from_raw_parts_mut(self.ptr as *mut T, n) }
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        // Dropped with the GIL held: every Buffer lives in a function that
        // holds it, and only its slices cross `allow_threads`.
        if let Some(raw) = self.raw.as_deref_mut() {
            // SAFETY: `raw` holds a successful export not yet released.
            unsafe { PyBuffer_Release(raw) }
        }
    }
}
