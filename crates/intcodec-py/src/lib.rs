//! `intcodec._intcodec`: the extension module of the Python package.
//!
//! One generic adapter, [`Codec`], over `Box<dyn IntCodec>` from
//! `intcodec::registry` (and `Box<dyn SortedCodec>` from
//! `registry::sorted_by_name` for select / lower_bound): no code per codec.
//! Arrays come in through the buffer protocol without a copy (`buffer.rs`);
//! outputs are numpy arrays allocated with `numpy.empty` and written in
//! place. Signed arrays are zigzag-mapped here (any codec for int32; VByte
//! for int64), u64 arrays go to VByte's u64 methods. The GIL is released
//! while a kernel runs on inputs of [`GIL_RELEASE_VALUES`] values or more
//! (below that, releasing it costs more than the work). The pure-Python
//! part (`python/intcodec`) adds `codec(name, **options)`, the exception
//! class, the numcodecs codec and the benchmark.

mod buffer;
mod ndarray;

use std::time::Instant;

use buffer::{Buffer, Elem, Pin};
use intcodec::vbyte::VByte;
use intcodec::{registry, zigzag, DecodeError, IntCodec, Isa, KernelChoice, SortedCodec};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyType};

/// Calls on at least this many values release the GIL (and pin their
/// buffers with exports). Below it, releasing and exporting cost more than
/// they give back: a 4096-value decode takes about a microsecond.
const GIL_RELEASE_VALUES: usize = 1 << 14;
/// Encoded outputs up to this size are written to the stack first and
/// copied into an exact-size array (no resize call).
const SMALL_OUTPUT: usize = 512;

/// `numpy.empty`, the numpy dtypes by [`Elem`], `intcodec._errors.DecodeError`.
struct PyRefs {
    empty: Py<PyAny>,
    dtype: Py<PyAny>,
    dtypes: [Py<PyAny>; 5],
    decode_error: Py<PyType>,
}

static REFS: GILOnceCell<PyRefs> = GILOnceCell::new();

fn refs(py: Python<'_>) -> PyResult<&PyRefs> {
    REFS.get_or_try_init(py, || {
        let np = py.import("numpy")?;
        let dtype = np.getattr("dtype")?;
        let d = |name: &str| -> PyResult<Py<PyAny>> { Ok(dtype.call1((name,))?.unbind()) };
        let errors = py.import("intcodec._errors")?;
        Ok(PyRefs {
            empty: np.getattr("empty")?.unbind(),
            dtype: dtype.clone().unbind(),
            dtypes: [
                d("uint8")?,
                d("uint32")?,
                d("int32")?,
                d("uint64")?,
                d("int64")?,
            ],
            decode_error: errors
                .getattr("DecodeError")?
                .downcast_into::<PyType>()?
                .unbind(),
        })
    })
}

/// A new numpy array of `n` items of `elem`, and its writable buffer.
///
/// Through numpy's C API when it is there (`PyArray_New`, which runs no
/// Python code), with an unpinned buffer: nothing else holds the new array,
/// so nothing can resize it, with or without the GIL.
fn new_array<'py>(py: Python<'py>, n: usize, elem: Elem) -> PyResult<(Bound<'py, PyAny>, Buffer)> {
    if let Some(api) = ndarray::api(py) {
        let arr = api.empty(py, n, elem)?;
        let buf = Buffer::typed(&arr, true, "the new array", Pin::No)?;
        return Ok((arr, buf));
    }
    let r = refs(py)?;
    let i = match elem {
        Elem::U8 => 0,
        Elem::U32 => 1,
        Elem::I32 => 2,
        Elem::U64 => 3,
        Elem::I64 => 4,
    };
    let arr = r.empty.bind(py).call1((n, r.dtypes[i].bind(py)))?;
    let buf = Buffer::typed(&arr, true, "numpy.empty's array", Pin::Yes)?;
    Ok((arr, buf))
}

/// `intcodec.DecodeError(message, offset, index, kind)`.
fn decode_error(py: Python<'_>, e: DecodeError) -> PyErr {
    let kind = format!("{:?}", e.kind());
    let msg = e.to_string();
    match refs(py) {
        Ok(r) => PyErr::from_type(
            r.decode_error.bind(py).clone(),
            (msg, e.offset(), e.index(), kind),
        ),
        Err(err) => err,
    }
}

/// Whether a call on `values` values releases the GIL (and so pins its
/// buffers with exports: [`Pin`]).
fn releases(values: usize) -> bool {
    values >= GIL_RELEASE_VALUES
}

/// The [`Pin`] for buffers of a call on `values` values.
fn pin_for(values: usize) -> Pin {
    if releases(values) {
        Pin::Yes
    } else {
        Pin::No
    }
}

/// Runs `f` without the GIL when the call is large enough to be worth it.
fn run<T: Send>(py: Python<'_>, values: usize, f: impl FnOnce() -> T + Send) -> T {
    if releases(values) {
        py.allow_threads(f)
    } else {
        f()
    }
}

/// An ISA by name, as the CLI and `INTCODEC_ISA` spell it.
fn parse_isa(name: &str) -> PyResult<Isa> {
    Isa::from_name(name).ok_or_else(|| {
        let known: Vec<_> = Isa::ALL.iter().map(|i| i.name()).collect();
        PyValueError::new_err(format!("unknown isa '{name}'; known: {}", known.join(", ")))
    })
}

/// `prev=`, read before any buffer is taken (reading an object's
/// `__index__` may run Python code); fitted to the dtype later.
struct Prev<'a, 'py> {
    obj: Option<&'a Bound<'py, PyAny>>,
    value: Option<i128>,
}

impl<'a, 'py> Prev<'a, 'py> {
    fn read(obj: Option<&'a Bound<'py, PyAny>>) -> Self {
        let value = match obj {
            None => Some(0),
            Some(p) => p
                .extract::<u64>()
                .map(i128::from)
                .or_else(|_| p.extract::<i64>().map(i128::from))
                .ok(),
        };
        Prev { obj, value }
    }

    /// The value for arrays of `elem`.
    fn get<T: TryFrom<i128>>(&self, elem: Elem) -> PyResult<T> {
        self.value.and_then(|v| T::try_from(v).ok()).ok_or_else(|| {
            PyValueError::new_err(format!(
                "prev must be an integer that fits the array's dtype ({}), got {}",
                elem.name(),
                self.obj
                    .and_then(|p| p.repr().ok())
                    .map(|r| r.to_string())
                    .unwrap_or_default()
            ))
        })
    }
}

/// A codec of the registry on one kernel: the Python class `intcodec.Codec`
/// (made by `intcodec.codec(name, **options)`).
#[pyclass(frozen, name = "Codec", module = "intcodec")]
struct Codec {
    inner: Box<dyn IntCodec>,
    sorted: Option<Box<dyn SortedCodec>>,
    /// The same kernel's u64 methods, when the codec is VByte.
    vbyte: Option<VByte>,
}

impl Codec {
    fn vbyte_for(&self, elem: Elem) -> PyResult<VByte> {
        self.vbyte.ok_or_else(|| {
            PyTypeError::new_err(format!(
                "codec '{}' codes 32-bit integers: {} arrays need codec 'vbyte' \
                 (use uint32 or int32 here)",
                self.inner.name(),
                elem.name()
            ))
        })
    }

    fn check_delta(&self, delta: bool) -> PyResult<()> {
        if delta && !self.inner.supports_delta() {
            return Err(PyValueError::new_err(format!(
                "codec '{}' has no delta mode (it stores a frame of reference): use delta=False",
                self.inner.name()
            )));
        }
        Ok(())
    }

    /// Encodes the array in `src` into `out`; returns the bytes written.
    fn encode_into(
        &self,
        py: Python<'_>,
        src: &Buffer,
        delta: bool,
        prev: &Prev<'_, '_>,
        out: &mut [u8],
    ) -> PyResult<usize> {
        let elem = src.elem();
        let codec = &*self.inner;
        let n = src.len_items();
        let r = match elem {
            Elem::U32 => {
                let p: u32 = prev.get(elem)?;
                let v = src.slice::<u32>();
                run(py, n, || {
                    if delta {
                        codec.encode_delta(v, p, out)
                    } else {
                        codec.encode(v, out)
                    }
                })
            }
            Elem::I32 => {
                let p: i32 = prev.get(elem)?;
                let v = src.slice::<i32>();
                run(py, n, || {
                    let mut z = vec![0u32; v.len()];
                    if delta {
                        zigzag::delta_encode_slice_i32(v, &mut z, p);
                    } else {
                        zigzag::encode_slice_i32(v, &mut z);
                    }
                    codec.encode(&z, out)
                })
            }
            Elem::U64 => {
                let vb = self.vbyte_for(elem)?;
                let p: u64 = prev.get(elem)?;
                let v = src.slice::<u64>();
                run(py, n, || {
                    if delta {
                        vb.encode_delta_u64(v, p, out)
                    } else {
                        vb.encode_u64(v, out)
                    }
                })
            }
            Elem::I64 => {
                let vb = self.vbyte_for(elem)?;
                let mut p: i64 = prev.get(elem)?;
                let v = src.slice::<i64>();
                run(py, n, || {
                    let z: Vec<u64> = v
                        .iter()
                        .map(|&x| {
                            let d = if delta { x.wrapping_sub(p) } else { x };
                            p = x;
                            zigzag::encode_i64(d)
                        })
                        .collect();
                    vb.encode_u64(&z, out)
                })
            }
            Elem::U8 => return Err(PyTypeError::new_err(
                "arr must hold uint32 (or int32, or uint64/int64 for vbyte) integers, got uint8",
            )),
        };
        r.map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The most bytes `n` values of `elem` can take.
    fn max_len(&self, n: usize, elem: Elem) -> PyResult<usize> {
        let m = match elem {
            Elem::U64 | Elem::I64 => n.checked_mul(10),
            _ => self.inner.max_compressed_len(n),
        };
        m.ok_or_else(|| PyValueError::new_err(format!("{n} values: encoded size overflows")))
    }

    /// The sorted operations, or the reason there are none.
    fn sorted(&self, delta: Option<bool>) -> PyResult<&dyn SortedCodec> {
        let s = self.sorted.as_deref().ok_or_else(|| {
            PyValueError::new_err(format!(
                "codec '{}' has no select / lower_bound / insert",
                self.inner.name()
            ))
        })?;
        let native = self.inner.supports_delta();
        if let Some(d) = delta {
            if d != native {
                return Err(PyValueError::new_err(if native {
                    format!(
                        "codec '{}': select / lower_bound / insert read delta-coded streams (delta=True)",
                        self.inner.name()
                    )
                } else {
                    format!(
                        "codec '{}' has no delta mode: select / lower_bound / insert read its plain stream (delta=False)",
                        self.inner.name()
                    )
                }));
            }
        }
        Ok(s)
    }
}

#[pymethods]
impl Codec {
    /// Codec(name, isa=None): the registry codec `name` (see `intcodec.codecs()`)
    /// on the best kernel, or on the kernel for `isa` ("scalar", "sse41", "avx2", ...).
    #[new]
    #[pyo3(signature = (name, isa=None))]
    fn new(name: &str, isa: Option<&str>) -> PyResult<Self> {
        intcodec::isa::check_override().map_err(PyValueError::new_err)?;
        let best = registry::by_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown codec '{name}'; known: {}",
                registry::names().join(", ")
            ))
        })?;
        let inner = match isa {
            None => best,
            Some(isa_name) => {
                let isa = parse_isa(isa_name)?;
                best.with_isa_dyn(isa).ok_or_else(|| {
                    let usable: Vec<_> = best.kernel_isas().iter().map(|i| i.name()).collect();
                    PyValueError::new_err(format!(
                        "codec '{name}' has no {isa} kernel usable here; usable: {}",
                        usable.join(", ")
                    ))
                })?
            }
        };
        let sorted = registry::sorted_by_name(name, Some(inner.isa()));
        let vbyte = (name == "vbyte")
            .then(|| VByte::new().with_isa(inner.isa()))
            .flatten();
        Ok(Codec {
            inner,
            sorted,
            vbyte,
        })
    }

    /// The registry name.
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    /// The ISA of the kernel this codec runs.
    #[getter]
    fn isa(&self) -> &'static str {
        self.inner.isa().name()
    }

    /// Every ISA this codec has a kernel for here, scalar first.
    #[getter]
    fn kernel_isas(&self) -> Vec<&'static str> {
        self.inner.kernel_isas().iter().map(|i| i.name()).collect()
    }

    /// Whether encode/decode take delta=True.
    #[getter]
    fn supports_delta(&self) -> bool {
        self.inner.supports_delta()
    }

    /// Whether select / lower_bound exist for this codec.
    #[getter]
    fn sorted_ops(&self) -> bool {
        self.sorted.is_some()
    }

    /// Whether uint64 / int64 arrays are accepted (VByte).
    #[getter]
    fn wide(&self) -> bool {
        self.vbyte.is_some()
    }

    fn __repr__(&self) -> String {
        format!(
            "intcodec.codec('{}', isa='{}')",
            self.inner.name(),
            self.inner.isa().name()
        )
    }

    /// The largest encoded size of `n` 32-bit values.
    fn max_compressed_len(&self, n: usize) -> PyResult<usize> {
        self.max_len(n, Elem::U32)
    }

    /// The most values an input of `nbytes` bytes can hold.
    fn max_values(&self, nbytes: usize) -> usize {
        self.inner.max_values(nbytes)
    }

    /// encode(arr, delta=False, prev=0) -> numpy.ndarray[uint8]
    #[pyo3(signature = (arr, delta=false, prev=None))]
    fn encode<'py>(
        &self,
        arr: &Bound<'py, PyAny>,
        delta: bool,
        prev: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = arr.py();
        self.check_delta(delta)?;
        let prev = Prev::read(prev);
        let src = Buffer::typed(arr, false, "arr", Pin::FromItems(GIL_RELEASE_VALUES))?;
        let max = self.max_len(src.len_items(), src.elem())?;
        if max <= SMALL_OUTPUT {
            let mut stack = [0u8; SMALL_OUTPUT];
            let used = self.encode_into(py, &src, delta, &prev, &mut stack[..max])?;
            drop(src);
            let (out, mut ob) = new_array(py, used, Elem::U8)?;
            ob.slice_mut::<u8>().copy_from_slice(&stack[..used]);
            return Ok(out);
        }
        // `src` unpinned: `new_array` runs no Python code when it makes an
        // unpinned buffer possible (numpy's C API).
        let (out, mut ob) = new_array(py, max, Elem::U8)?;
        let used = self.encode_into(py, &src, delta, &prev, ob.slice_mut())?;
        drop(ob);
        drop(src);
        if used < max {
            // Shrinks in place (realloc). refcheck off is sound: the array
            // is new, no view or buffer export of it exists.
            match ndarray::api(py) {
                Some(api) => api.shrink(&out, used)?,
                None => {
                    let kw = PyDict::new(py);
                    kw.set_item("refcheck", false)?;
                    out.call_method("resize", (used,), Some(&kw))?;
                }
            }
        }
        Ok(out)
    }

    /// decode(buf, n, delta=False, prev=0, out=None, dtype=None) -> numpy.ndarray
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (buf, n, delta=false, prev=None, out=None, dtype=None, *, exact=false))]
    fn decode<'py>(
        &self,
        buf: &Bound<'py, PyAny>,
        n: usize,
        delta: bool,
        prev: Option<&Bound<'py, PyAny>>,
        out: Option<&Bound<'py, PyAny>>,
        dtype: Option<&Bound<'py, PyAny>>,
        exact: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = buf.py();
        self.check_delta(delta)?;
        // Everything that may run Python code comes before the buffers.
        let prev = Prev::read(prev);
        let want = match dtype {
            None => None,
            Some(d) => {
                let name: String = refs(py)?
                    .dtype
                    .bind(py)
                    .call1((d,))
                    .and_then(|d| d.getattr("name")?.extract())
                    .map_err(|_| PyTypeError::new_err("dtype must be a numpy dtype"))?;
                match Elem::from_name(&name) {
                    Some(e) if e != Elem::U8 => Some(e),
                    _ => {
                        return Err(PyTypeError::new_err(format!(
                            "dtype must be uint32 or int32 (uint64/int64 for vbyte), got {name}"
                        )))
                    }
                }
            }
        };
        let pin = pin_for(n);
        let src = Buffer::bytes(buf, "buf", pin)?;
        let input = src.slice::<u8>();
        // The decompression-bomb guard, before any allocation.
        let max = self.inner.max_values(input.len());
        if n > max {
            return Err(decode_error(
                py,
                DecodeError::new(intcodec::DecodeErrorKind::Truncated, input.len(), Some(max)),
            ));
        }
        let (array, mut ob) = match out {
            Some(o) => {
                let ob = Buffer::typed(o, true, "out", pin)?;
                if let Some(w) = want {
                    if w != ob.elem() {
                        return Err(PyTypeError::new_err(format!(
                            "dtype={} but out holds {}",
                            w.name(),
                            ob.elem().name()
                        )));
                    }
                }
                if ob.len_items() < n {
                    return Err(PyValueError::new_err(format!(
                        "out holds {} values, fewer than n = {n}",
                        ob.len_items()
                    )));
                }
                let (a, b) = (ob.range(), src.range());
                if a.start < b.end && b.start < a.end {
                    return Err(PyValueError::new_err("out overlaps buf"));
                }
                (o.clone(), ob)
            }
            None => new_array(py, n, want.unwrap_or(Elem::U32))?,
        };
        let elem = ob.elem();
        let codec = &*self.inner;
        let r: Result<usize, DecodeError> =
            match elem {
                Elem::U32 => {
                    let p: u32 = prev.get(elem)?;
                    let o = &mut ob.slice_mut::<u32>()[..n];
                    run(py, n, || {
                        if delta {
                            codec.decode_delta(input, n, p, o)
                        } else {
                            codec.decode(input, n, o)
                        }
                    })
                }
                Elem::I32 => {
                    let mut p: i32 = prev.get(elem)?;
                    let o = &mut ob.slice_mut::<u32>()[..n];
                    run(py, n, || {
                        let r = codec.decode(input, n, o)?;
                        for x in o.iter_mut() {
                            let v = zigzag::decode_i32(*x);
                            if delta {
                                p = p.wrapping_add(v);
                                *x = p as u32;
                            } else {
                                *x = v as u32;
                            }
                        }
                        Ok(r)
                    })
                }
                Elem::U64 => {
                    let vb = self.vbyte_for(elem)?;
                    let p: u64 = prev.get(elem)?;
                    let o = &mut ob.slice_mut::<u64>()[..n];
                    run(py, n, || {
                        if delta {
                            vb.decode_delta_u64(input, n, p, o)
                        } else {
                            vb.decode_u64(input, n, o)
                        }
                    })
                }
                Elem::I64 => {
                    let vb = self.vbyte_for(elem)?;
                    let mut p: i64 = prev.get(elem)?;
                    let o = &mut ob.slice_mut::<u64>()[..n];
                    run(py, n, || {
                        let r = vb.decode_u64(input, n, o)?;
                        for x in o.iter_mut() {
                            let v = zigzag::decode_i64(*x);
                            if delta {
                                p = p.wrapping_add(v);
                                *x = p as u64;
                            } else {
                                *x = v as u64;
                            }
                        }
                        Ok(r)
                    })
                }
                Elem::U8 => return Err(PyTypeError::new_err(
                    "out must hold uint32 or int32 (uint64/int64 for vbyte) integers, got uint8",
                )),
            };
        let input_len = input.len();
        drop(ob);
        drop(src);
        let used = r.map_err(|e| decode_error(py, e))?;
        if exact && used != input_len {
            let r = refs(py)?;
            return Err(PyErr::from_type(
                r.decode_error.bind(py).clone(),
                (
                    format!(
                        "{} bytes after the stream of {n} values, which ends at byte offset {used}",
                        input_len - used
                    ),
                    used,
                    None::<usize>,
                    "TrailingBytes",
                ),
            ));
        }
        Ok(array)
    }

    /// select(buf, n, i, delta=None, prev=0) -> int | None
    #[pyo3(signature = (buf, n, i, delta=None, prev=0))]
    fn select(
        &self,
        py: Python<'_>,
        buf: &Bound<'_, PyAny>,
        n: usize,
        i: usize,
        delta: Option<bool>,
        prev: u32,
    ) -> PyResult<Option<u32>> {
        let s = self.sorted(delta)?;
        let src = Buffer::bytes(buf, "buf", pin_for(n))?;
        let input = src.slice::<u8>();
        let r = run(py, n, || s.select(input, n, prev, i));
        drop(src);
        r.map_err(|e| decode_error(py, e))
    }

    /// lower_bound(buf, n, key, delta=None, prev=0) -> (index, value) | None
    #[pyo3(signature = (buf, n, key, delta=None, prev=0))]
    fn lower_bound(
        &self,
        py: Python<'_>,
        buf: &Bound<'_, PyAny>,
        n: usize,
        key: u32,
        delta: Option<bool>,
        prev: u32,
    ) -> PyResult<Option<(usize, u32)>> {
        let s = self.sorted(delta)?;
        let src = Buffer::bytes(buf, "buf", pin_for(n))?;
        let input = src.slice::<u8>();
        let r = run(py, n, || s.lower_bound(input, n, prev, key));
        drop(src);
        r.map_err(|e| decode_error(py, e))
    }

    /// insert(buf, n, value, delta=None, prev=0) -> (numpy.ndarray[uint8], int)
    ///
    /// Inserts `value` into the sorted stream of `n` values at the start of
    /// `buf` (the streams `select` reads). Returns a new array holding the
    /// stream of `n + 1` values (bytes after the old stream follow it) and
    /// the index `value` went to, after any equal values (numpy's
    /// `searchsorted(side="right")`). `buf` is not modified; the bytes are
    /// those `encode` gives for the new array. There is no `out=`: one value
    /// can grow a stream by more than its own bytes (a BP128 block's or a
    /// FOR array's bit width). Raises DecodeError on a malformed stream.
    #[pyo3(signature = (buf, n, value, delta=None, prev=0))]
    fn insert<'py>(
        &self,
        buf: &Bound<'py, PyAny>,
        n: usize,
        value: u32,
        delta: Option<bool>,
        prev: u32,
    ) -> PyResult<(Bound<'py, PyAny>, usize)> {
        let py = buf.py();
        let s = self.sorted(delta)?;
        let src = Buffer::bytes(buf, "buf", pin_for(n))?;
        let input = src.slice::<u8>();
        // The stream is copied: `buf` is left as it was, and the stream can
        // grow by more than the new value's own bytes (a BP128 block's bit
        // width, a FOR array's width, the tail's shifted blocks).
        let r = run(py, n, || {
            let mut bytes = input.to_vec();
            s.insert(&mut bytes, n, prev, value).map(|i| (bytes, i))
        });
        drop(src);
        let (bytes, index) = r.map_err(|e| decode_error(py, e))?;
        let (out, mut ob) = new_array(py, bytes.len(), Elem::U8)?;
        ob.slice_mut::<u8>().copy_from_slice(&bytes);
        drop(ob);
        Ok((out, index))
    }

    /// The Rust call alone, for the benchmark: seconds per `decode` (or
    /// `decode_delta`) of `n` values from `buf` into a reused buffer,
    /// best of `rounds` rounds of `reps` calls.
    #[pyo3(signature = (buf, n, delta, reps, rounds=5))]
    fn _time_decode(
        &self,
        py: Python<'_>,
        buf: &Bound<'_, PyAny>,
        n: usize,
        delta: bool,
        reps: usize,
        rounds: usize,
    ) -> PyResult<f64> {
        self.check_delta(delta)?;
        let src = Buffer::bytes(buf, "buf", Pin::Yes)?;
        let input = src.slice::<u8>();
        let codec = &*self.inner;
        codec
            .decode_to_vec(input, n)
            .map_err(|e| decode_error(py, e))?;
        let mut out = vec![0u32; n];
        let best = py.allow_threads(|| {
            let mut best = f64::INFINITY;
            for _ in 0..rounds.max(1) {
                let t = Instant::now();
                for _ in 0..reps.max(1) {
                    let input = std::hint::black_box(input);
                    let _ = if delta {
                        codec.decode_delta(input, n, 0, &mut out)
                    } else {
                        codec.decode(input, n, &mut out)
                    };
                    std::hint::black_box(&mut out);
                }
                best = best.min(t.elapsed().as_secs_f64() / reps.max(1) as f64);
            }
            best
        });
        Ok(best)
    }

    /// The Rust calls alone on the benchmark's own chunks, in its order:
    /// seconds for one pass that decodes each buffer of `bufs` (`n` values
    /// each; `decode_delta` from 0 with `delta`), best of `rounds` passes.
    /// `alloc`: each call decodes into a new vector (as `decode` without
    /// `out=` makes a new array), else all into one reused buffer (as with
    /// `out=`).
    #[pyo3(signature = (bufs, n, delta, alloc, rounds=5))]
    fn _time_decode_chunks(
        &self,
        py: Python<'_>,
        bufs: Vec<Bound<'_, PyAny>>,
        n: usize,
        delta: bool,
        alloc: bool,
        rounds: usize,
    ) -> PyResult<f64> {
        self.check_delta(delta)?;
        let srcs = bufs
            .iter()
            .map(|b| Buffer::bytes(b, "buf", Pin::Yes))
            .collect::<PyResult<Vec<_>>>()?;
        let inputs: Vec<&[u8]> = srcs.iter().map(|s| s.slice::<u8>()).collect();
        let codec = &*self.inner;
        for input in &inputs {
            codec
                .decode_to_vec(input, n)
                .map_err(|e| decode_error(py, e))?;
        }
        let mut out = vec![0u32; n];
        let best = py.allow_threads(|| {
            let mut best = f64::INFINITY;
            for _ in 0..rounds.max(1) {
                let t = Instant::now();
                for input in &inputs {
                    let input = std::hint::black_box(*input);
                    if alloc {
                        let v = if delta {
                            codec.decode_delta_to_vec(input, n, 0)
                        } else {
                            codec.decode_to_vec(input, n)
                        };
                        std::hint::black_box(v).ok();
                    } else {
                        let _ = if delta {
                            codec.decode_delta(input, n, 0, &mut out)
                        } else {
                            codec.decode(input, n, &mut out)
                        };
                        std::hint::black_box(&mut out);
                    }
                }
                best = best.min(t.elapsed().as_secs_f64());
            }
            best
        });
        drop(inputs);
        drop(srcs);
        Ok(best)
    }
}

/// The names of every codec of this build (`intcodec.codecs()`).
#[pyfunction]
fn codecs() -> Vec<&'static str> {
    registry::names()
}

/// The best instruction set codecs may use here (CPU and `INTCODEC_ISA` cap).
#[pyfunction]
fn isa() -> PyResult<&'static str> {
    intcodec::isa::check_override().map_err(PyValueError::new_err)?;
    Ok(intcodec::supported_isas()
        .last()
        .unwrap_or(Isa::Scalar)
        .name())
}

/// Every instruction set codecs may use here, lowest first.
#[pyfunction]
fn isas() -> PyResult<Vec<&'static str>> {
    intcodec::isa::check_override().map_err(PyValueError::new_err)?;
    Ok(intcodec::supported_isas().map(Isa::name).collect())
}

/// Whether numpy's C API is in use (the fast path for small calls on
/// numpy arrays; `ndarray.rs`), for the tests.
#[pyfunction]
fn _numpy_c_api(py: Python<'_>) -> bool {
    ndarray::api(py).is_some()
}

#[pymodule]
fn _intcodec(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Codec>()?;
    m.add_function(wrap_pyfunction!(codecs, m)?)?;
    m.add_function(wrap_pyfunction!(isa, m)?)?;
    m.add_function(wrap_pyfunction!(isas, m)?)?;
    m.add_function(wrap_pyfunction!(_numpy_c_api, m)?)?;
    m.add("GIL_RELEASE_VALUES", GIL_RELEASE_VALUES)?;
    Ok(())
}
