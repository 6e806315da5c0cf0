//! A fast path for numpy arrays through numpy's C API, without the buffer
//! protocol or a Python-level call.
//!
//! numpy publishes its C API as a table of pointers in the capsule
//! `numpy._core._multiarray_umath._ARRAY_API` (`numpy.core...` before 2.0).
//! The slots used here are fixed by numpy's ABI (slot 0: the ABI version,
//! 2: `PyArray_Type`, 80: `PyArray_Resize`, 93: `PyArray_New`), and so are
//! the leading fields of the array and dtype structs read here (`data`,
//! `nd`, `dimensions`, `descr`, `flags`; a dtype's `byteorder` and
//! `type_num`): numpy 1.x (ABI 0x01000009) and 2.x (ABI 0x02000000) share
//! them. Any other ABI version, or a numpy without the capsule, turns the
//! fast path off ([`api`] returns `None`) and the callers use the buffer
//! protocol and `numpy.empty` instead.
//!
//! A [`View`] reads an array's fields without an export: nothing stops the
//! array from being resized meanwhile except holding the GIL and running no
//! Python code. The callers only use unpinned views under those conditions
//! (see `Buffer` in `buffer.rs`).

use std::ffi::{c_int, c_long, c_void};

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::PyCapsule;

use crate::buffer::Elem;

/// numpy's `npy_intp`.
type NpyIntp = isize;

/// The leading fields of numpy's `PyArrayObject_fields` (same in 1.x, 2.x).
#[allow(dead_code)]
#[repr(C)]
struct ArrayFields {
    ob_base: ffi::PyObject,
    data: *mut u8,
    nd: c_int,
    dimensions: *mut NpyIntp,
    strides: *mut NpyIntp,
    base: *mut ffi::PyObject,
    descr: *mut DescrFields,
    flags: c_int,
}

/// The leading fields of numpy's `PyArray_Descr` (same in 1.x, 2.x).
#[allow(dead_code)]
#[repr(C)]
struct DescrFields {
    ob_base: ffi::PyObject,
    typeobj: *mut ffi::PyTypeObject,
    kind: u8,
    type_: u8,
    byteorder: u8,
    former_flags: u8,
    type_num: c_int,
}

/// `PyArray_Dims`.
#[repr(C)]
struct Dims {
    ptr: *mut NpyIntp,
    len: c_int,
}

const C_CONTIGUOUS: c_int = 0x0001;
const ALIGNED: c_int = 0x0100;
const WRITEABLE: c_int = 0x0400;

type NewFn = unsafe extern "C" fn(
    *mut ffi::PyTypeObject,
    c_int,
    *const NpyIntp,
    c_int,
    *const NpyIntp,
    *mut c_void,
    c_int,
    c_int,
    *mut ffi::PyObject,
) -> *mut ffi::PyObject;
type ResizeFn =
    unsafe extern "C" fn(*mut ffi::PyObject, *mut Dims, c_int, c_int) -> *mut ffi::PyObject;
type VersionFn = unsafe extern "C" fn() -> u32;

/// The parts of numpy's C API used here.
pub(crate) struct Api {
    array_type: *mut ffi::PyTypeObject,
    new: NewFn,
    resize: ResizeFn,
}

// SAFETY: the pointers are to numpy's static type object and functions,
// which live as long as the process (numpy is never unloaded) and are only
// used with the GIL held.
unsafe impl Send for Api {}
// SAFETY: as for `Send`: immutable after creation, used under the GIL.
unsafe impl Sync for Api {}

static API: GILOnceCell<Option<Api>> = GILOnceCell::new();

/// numpy's C API, or `None` when it is not one this module knows.
pub(crate) fn api(py: Python<'_>) -> Option<&'static Api> {
    API.get_or_init(py, || load(py).ok().flatten()).as_ref()
}

fn load(py: Python<'_>) -> PyResult<Option<Api>> {
    let module = py
        .import("numpy._core._multiarray_umath")
        .or_else(|_| py.import("numpy.core._multiarray_umath"))?;
    let capsule = module.getattr("_ARRAY_API")?;
    let capsule = capsule.downcast::<PyCapsule>()?;
    let table = capsule.pointer() as *const *const c_void;
    if table.is_null() {
        return Ok(None);
    }
    // SAFETY: numpy's API table has more than 94 slots in every numpy
    // version (slot 0, the ABI version, is checked before the others are
    // used); the capsule keeps it alive as long as numpy is loaded.
    let slots = unsafe { std::slice::from_raw_parts(table, 94) };
    let slot = |i: usize| slots[i];
    if slot(0).is_null() {
        return Ok(None);
    }
    // SAFETY: slot 0 is `PyArray_GetNDArrayCVersion` in every numpy ABI.
    let version_fn = unsafe { std::mem::transmute::<*const c_void, VersionFn>(slot(0)) };
    // SAFETY: it takes no arguments and only returns a constant.
    let version = unsafe { version_fn() };
    if version != 0x0100_0009 && version != 0x0200_0000 {
        return Ok(None);
    }
    let (array_type, new, resize) = (slot(2), slot(93), slot(80));
    if array_type.is_null() || new.is_null() || resize.is_null() {
        return Ok(None);
    }
    Ok(Some(Api {
        array_type: array_type as *mut ffi::PyTypeObject,
        // SAFETY: slot 93 is `PyArray_New` with this signature in ABIs 1 and 2.
        new: unsafe { std::mem::transmute::<*const c_void, NewFn>(new) },
        // SAFETY: slot 80 is `PyArray_Resize` with this signature in ABIs 1 and 2.
        resize: unsafe { std::mem::transmute::<*const c_void, ResizeFn>(resize) },
    }))
}

/// numpy's type number for an element type (`np.int64` is C `long` where
/// that has 64 bits, else `long long`).
fn type_num(elem: Elem) -> c_int {
    let long64 = std::mem::size_of::<c_long>() == 8;
    match elem {
        Elem::U8 => 2,
        Elem::I32 => 5,
        Elem::U32 => 6,
        Elem::I64 if long64 => 7,
        Elem::U64 if long64 => 8,
        Elem::I64 => 9,
        Elem::U64 => 10,
    }
}

/// The element type of a numpy type number, if it is one the codecs use.
fn elem_of(type_num: c_int) -> Option<Elem> {
    let long = if std::mem::size_of::<c_long>() == 8 {
        [Elem::I64, Elem::U64]
    } else {
        [Elem::I32, Elem::U32]
    };
    match type_num {
        2 => Some(Elem::U8),
        5 => Some(Elem::I32),
        6 => Some(Elem::U32),
        7 => Some(long[0]),
        8 => Some(long[1]),
        9 => Some(Elem::I64),
        10 => Some(Elem::U64),
        _ => None,
    }
}

/// An exact `numpy.ndarray` (not a subclass) of an element type the codecs
/// use, C-contiguous, aligned, in native byte order: its data pointer,
/// element type, item count and writability.
pub(crate) struct View {
    pub(crate) data: *mut u8,
    pub(crate) elem: Elem,
    pub(crate) items: usize,
    pub(crate) writable: bool,
}

impl Api {
    /// The view of `obj` if it is an array the fast path takes, else `None`
    /// (the caller then uses the buffer protocol, which gives the errors).
    pub(crate) fn view(&self, obj: &Bound<'_, PyAny>) -> Option<View> {
        let p = obj.as_ptr();
        // SAFETY: `p` is a live object (borrowed for the call, GIL held).
        let ty = unsafe { ffi::Py_TYPE(p) };
        if ty != self.array_type {
            return None;
        }
        // SAFETY: an exact ndarray has numpy's array struct layout.
        let a = unsafe { &*(p as *const ArrayFields) };
        if a.flags & (C_CONTIGUOUS | ALIGNED) != (C_CONTIGUOUS | ALIGNED) || a.descr.is_null() {
            return None;
        }
        // SAFETY: a live array's `descr` is a live dtype object.
        let d = unsafe { &*a.descr };
        // '=' and '|' are native; '<' only on little-endian builds.
        let foreign = if cfg!(target_endian = "little") {
            b'>'
        } else {
            b'<'
        };
        if d.byteorder == foreign {
            return None;
        }
        let elem = elem_of(d.type_num)?;
        let nd = usize::try_from(a.nd).ok()?;
        let mut items: usize = 1;
        if nd > 0 {
            // SAFETY: an array of `nd > 0` dimensions has `nd` sizes at
            // `dimensions`, alive as long as the array.
            let dims = unsafe { std::slice::from_raw_parts(a.dimensions, nd) };
            for &dim in dims {
                items = items.checked_mul(usize::try_from(dim).ok()?)?;
            }
        }
        Some(View {
            data: a.data,
            elem,
            items,
            writable: a.flags & WRITEABLE != 0,
        })
    }

    /// A new 1-d array of `n` items of `elem` (uninitialised).
    pub(crate) fn empty<'py>(
        &self,
        py: Python<'py>,
        n: usize,
        elem: Elem,
    ) -> PyResult<Bound<'py, PyAny>> {
        let dims = [NpyIntp::try_from(n)
            .map_err(|_| pyo3::exceptions::PyMemoryError::new_err("array too large"))?];
        // SAFETY: `PyArray_New(&PyArray_Type, 1, dims, type_num, NULL, NULL,
        // 0, 0, NULL)` (numpy's `PyArray_SimpleNew`) with the GIL held; it
        // returns a new reference or NULL with an exception set.
        let p = unsafe {
            (self.new)(
                self.array_type,
                1,
                dims.as_ptr(),
                type_num(elem),
                std::ptr::null(),
                std::ptr::null_mut(),
                0,
                0,
                std::ptr::null_mut(),
            )
        };
        // SAFETY: `p` is a new reference or NULL with an exception set.
        unsafe { Bound::from_owned_ptr_or_err(py, p) }
    }

    /// Shrinks a 1-d array this module just made (no other reference, view
    /// or export of it exists) to `n` items, in place.
    pub(crate) fn shrink(&self, arr: &Bound<'_, PyAny>, n: usize) -> PyResult<()> {
        let mut len = NpyIntp::try_from(n)
            .map_err(|_| pyo3::exceptions::PyMemoryError::new_err("array too large"))?;
        let mut dims = Dims {
            ptr: &mut len,
            len: 1,
        };
        // SAFETY: `PyArray_Resize(arr, &dims, refcheck=0, NPY_ANYORDER)` on
        // an exact ndarray with the GIL held; refcheck off is sound because
        // the caller owns the only reference. Returns a new reference to
        // None or NULL with an exception set.
        let r = unsafe { (self.resize)(arr.as_ptr(), &mut dims, 0, -1) };
        // SAFETY: as above: a new reference or NULL with an exception set.
        unsafe { Bound::from_owned_ptr_or_err(arr.py(), r) }.map(drop)
    }
}

/// Whether `obj` is exactly `bytes` (immutable: its data cannot change or
/// move while the caller holds it).
pub(crate) fn bytes_data<'a>(obj: &'a Bound<'_, PyAny>) -> Option<&'a [u8]> {
    let b = obj.downcast_exact::<pyo3::types::PyBytes>().ok()?;
    Some(pyo3::types::PyBytesMethods::as_bytes(b))
}
