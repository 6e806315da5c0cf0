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

use buffer::{Buffer, Elem, Pin, Pod};
use intcodec::vbyte::VByte;
use intcodec::{
    registry, zigzag, DecodeError, EncodeError, IntCodec, Isa, KernelChoice, SortedCodec,
};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyList, PyType};

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

/// What an encode returns: the bytes it wrote, or its error.
type Written = Result<usize, EncodeError>;
/// What a decode returns: the input bytes it consumed, or its error.
type Consumed = Result<usize, DecodeError>;

/// The kernels of one value width: 32-bit values through the registry
/// codec ([`Narrow`]), 64-bit ones through VByte's u64 methods. Signed
/// arrays are zigzag-mapped around them (delta: the zigzag of the
/// differences, lemire/streamvbyte's form).
trait Width: Sync {
    /// The unsigned type the kernels code.
    type U: Pod + Send + Sync + TryFrom<i128>;
    /// Its signed counterpart.
    type S: Pod + Send + Sync + Default + TryFrom<i128>;
    /// Encodes `v` (its differences from the given start with `delta`).
    fn encode(&self, v: &[Self::U], delta: Option<Self::U>, out: &mut [u8]) -> Written;
    /// Decodes `n` values (a prefix sum from the given start with `delta`).
    fn decode(
        &self,
        input: &[u8],
        n: usize,
        delta: Option<Self::U>,
        out: &mut [Self::U],
    ) -> Consumed;
    /// The zigzag code of `x - prev`.
    fn zigzag(x: Self::S, prev: Self::S) -> Self::U;
    /// `prev` plus the value of zigzag code `z`, as unsigned bits.
    fn unzigzag(z: Self::U, prev: Self::S) -> (Self::S, Self::U);
}

/// The registry codec's 32-bit kernels.
struct Narrow<'a>(&'a dyn IntCodec);

impl Width for Narrow<'_> {
    type U = u32;
    type S = i32;
    fn encode(&self, v: &[u32], delta: Option<u32>, out: &mut [u8]) -> Written {
        self.0.encode_opt(v, delta, out)
    }
    fn decode(&self, input: &[u8], n: usize, delta: Option<u32>, out: &mut [u32]) -> Consumed {
        self.0.decode_opt(input, n, delta, out)
    }
    fn zigzag(x: i32, prev: i32) -> u32 {
        zigzag::encode_i32(x.wrapping_sub(prev))
    }
    fn unzigzag(z: u32, prev: i32) -> (i32, u32) {
        let v = prev.wrapping_add(zigzag::decode_i32(z));
        (v, v as u32)
    }
}

/// VByte's 64-bit kernels.
impl Width for VByte {
    type U = u64;
    type S = i64;
    fn encode(&self, v: &[u64], delta: Option<u64>, out: &mut [u8]) -> Written {
        match delta {
            Some(p) => self.encode_delta_u64(v, p, out),
            None => self.encode_u64(v, out),
        }
    }
    fn decode(&self, input: &[u8], n: usize, delta: Option<u64>, out: &mut [u64]) -> Consumed {
        match delta {
            Some(p) => self.decode_delta_u64(input, n, p, out),
            None => self.decode_u64(input, n, out),
        }
    }
    fn zigzag(x: i64, prev: i64) -> u64 {
        zigzag::encode_i64(x.wrapping_sub(prev))
    }
    fn unzigzag(z: u64, prev: i64) -> (i64, u64) {
        let v = prev.wrapping_add(zigzag::decode_i64(z));
        (v, v as u64)
    }
}

/// `encode` of an array of `W::U` (`signed`: `W::S`) values in `src`.
fn encode_width<W: Width>(
    py: Python<'_>,
    w: &W,
    src: &Buffer,
    signed: bool,
    delta: bool,
    prev: &Prev<'_, '_>,
    out: &mut [u8],
) -> PyResult<usize> {
    let n = src.len_items();
    let r = if signed {
        let start: W::S = prev.get(src.elem())?;
        let v = src.slice::<W::S>();
        run(py, n, || {
            let mut p = if delta { start } else { W::S::default() };
            let z: Vec<W::U> = v
                .iter()
                .map(|&x| {
                    let d = W::zigzag(x, p);
                    if delta {
                        p = x;
                    }
                    d
                })
                .collect();
            w.encode(&z, None, out)
        })
    } else {
        let start: W::U = prev.get(src.elem())?;
        let v = src.slice::<W::U>();
        run(py, n, || w.encode(v, delta.then_some(start), out))
    };
    r.map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `decode` of `n` values into `out`'s first `n` items of `W::U`
/// (`signed`: `W::S`); the kernel's result, or an error about `prev`.
#[allow(clippy::too_many_arguments)]
fn decode_width<W: Width>(
    py: Python<'_>,
    w: &W,
    input: &[u8],
    n: usize,
    out: &mut Buffer,
    signed: bool,
    delta: bool,
    prev: &Prev<'_, '_>,
) -> PyResult<Consumed> {
    let elem = out.elem();
    let o = &mut out.slice_mut::<W::U>()[..n];
    if signed {
        let start: W::S = prev.get(elem)?;
        Ok(run(py, n, || {
            let r = w.decode(input, n, None, o)?;
            let mut p = if delta { start } else { W::S::default() };
            for x in o.iter_mut() {
                let (v, bits) = W::unzigzag(*x, p);
                if delta {
                    p = v;
                }
                *x = bits;
            }
            Ok(r)
        }))
    } else {
        let start: W::U = prev.get(elem)?;
        Ok(run(py, n, || w.decode(input, n, delta.then_some(start), o)))
    }
}

/// `decode_many`'s loop: the streams of `counts[i]` values stored one after
/// another in `input`, into `out[..sum(counts)]` (delta chunks continuing
/// from the previous chunk's last value, the first from `prev`); the bytes
/// used, or the error with its offset in `input` and index in `out`.
fn decode_chunks(
    codec: &dyn IntCodec,
    input: &[u8],
    counts: &[usize],
    delta: bool,
    prev: u32,
    out: &mut [u32],
) -> Consumed {
    let (mut pos, mut at, mut p) = (0usize, 0usize, prev);
    for &k in counts {
        let dst = &mut out[at..at + k];
        let r = codec.decode_opt(&input[pos..], k, delta.then_some(p), dst);
        pos +=
            r.map_err(|e| DecodeError::new(e.kind(), pos + e.offset(), e.index().map(|i| at + i)))?;
        if let Some(&last) = dst.last() {
            p = last;
        }
        at += k;
    }
    Ok(pos)
}

/// An `out=` buffer's checks beside its dtype: room for `n` values (`what`
/// names `n` in the message) and no byte shared with an input (a decode
/// must not write the bytes it reads).
fn check_out(ob: &Buffer, n: usize, what: &str, inputs: &[&Buffer]) -> PyResult<()> {
    if ob.len_items() < n {
        return Err(PyValueError::new_err(format!(
            "out holds {} values, fewer than {what} = {n}",
            ob.len_items()
        )));
    }
    let a = ob.range();
    if inputs.iter().any(|src| {
        let b = src.range();
        a.start < b.end && b.start < a.end
    }) {
        return Err(PyValueError::new_err("out overlaps buf"));
    }
    Ok(())
}

/// `decode_many`'s `counts`: a list of ints (read item by item), an integer
/// numpy array (read in place), or any other sequence of ints. The first two
/// are the common cases and avoid the generic sequence path's cost (about
/// 25 ns a list item and 60 ns a numpy item, against 4096-int chunks that
/// decode in about 500 ns).
fn read_counts(obj: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
    if let Ok(list) = obj.downcast_exact::<PyList>() {
        let py = obj.py();
        let mut v = Vec::with_capacity(list.len());
        for x in list.iter() {
            // SAFETY: `x` is a live object (a strong reference, GIL held);
            // `PyLong_AsSize_t` takes any object, returning `usize::MAX` with
            // an exception set when it is not a non-negative int that fits.
            let k = unsafe { pyo3::ffi::PyLong_AsSize_t(x.as_ptr()) };
            match k == usize::MAX && PyErr::take(py).is_some() {
                // anything else (an `__index__` object, a negative or huge
                // int) takes the general path, which gives its error
                true => v.push(x.extract::<usize>()?),
                false => v.push(k),
            }
        }
        return Ok(v);
    }
    if ndarray::api(obj.py()).and_then(|a| a.view(obj)).is_none() {
        return obj.extract();
    }
    let b = Buffer::typed(obj, false, "counts", Pin::No)?;
    match b.elem() {
        Elem::U8 => counts_of::<u8>(&b),
        Elem::U32 => counts_of::<u32>(&b),
        Elem::U64 => counts_of::<u64>(&b),
        Elem::I32 => counts_of::<i32>(&b),
        Elem::I64 => counts_of::<i64>(&b),
    }
}

/// The counts in an integer array of `T`; a negative or too large one is an
/// `OverflowError` naming its index.
fn counts_of<T: Pod>(b: &Buffer) -> PyResult<Vec<usize>>
where
    usize: TryFrom<T>,
    i128: From<T>,
{
    let slice = b.slice::<T>();
    let conv = |(i, &k): (usize, &T)| {
        usize::try_from(k).map_err(|_| {
            let v = i128::from(k);
            PyOverflowError::new_err(match v < 0 {
                true => format!("counts[{i}] = {v} is negative"),
                false => format!("counts[{i}] does not fit a usize"),
            })
        })
    };
    slice.iter().enumerate().map(conv).collect()
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

/// What a decode asks of `decode_buffers`.
enum Ask {
    /// `decode`: one stream of `n` values, of its `dtype=` if given.
    One { n: usize, dtype: Option<Elem> },
    /// `decode_many`: `total` uint32 values from `streams` streams.
    Many { total: usize, streams: usize },
}

impl Codec {
    /// A decode's buffers: `buf` (pinned for a call of its size) and its
    /// output, `out` (writable, room for every value, of the type asked
    /// for, not overlapping `buf`) or a new array (uint32 unless `dtype=`
    /// says otherwise). A count the input cannot hold is refused before any
    /// allocation.
    fn decode_buffers<'py>(
        &self,
        buf: &Bound<'py, PyAny>,
        ask: Ask,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Buffer, Bound<'py, PyAny>, Buffer)> {
        let py = buf.py();
        let (n, what, want, streams) = match ask {
            Ask::One { n, dtype } => (n, "n", dtype, 1),
            Ask::Many { total, streams } => (total, "sum(counts)", Some(Elem::U32), streams),
        };
        let pin = pin_for(n);
        let src = Buffer::bytes(buf, "buf", pin)?;
        // The decompression-bomb guard. Streams one after another can hold
        // one value more per stream boundary than one stream of the same
        // bytes: `max_values(a) + max_values(b) <= max_values(a + b) + 1`
        // for every codec (Lucene's layout reaches the + 1, its tails being
        // 1-byte vints against 5-byte groups of four; a test checks it).
        let len = src.slice::<u8>().len();
        let max = self
            .inner
            .max_values(len)
            .saturating_add(streams.saturating_sub(1));
        if n > max {
            let kind = intcodec::DecodeErrorKind::Truncated;
            return Err(decode_error(py, DecodeError::new(kind, len, Some(max))));
        }
        let Some(o) = out else {
            let (array, ob) = new_array(py, n, want.unwrap_or(Elem::U32))?;
            return Ok((src, array, ob));
        };
        let ob = Buffer::typed(o, true, "out", pin)?;
        // `decode`'s `want` is its `dtype=`; `decode_many`'s the one type
        // it writes.
        match want {
            Some(w) if w != ob.elem() && matches!(ask, Ask::One { .. }) => {
                return Err(PyTypeError::new_err(format!(
                    "dtype={} but out holds {}",
                    w.name(),
                    ob.elem().name()
                )))
            }
            Some(w) if w != ob.elem() => {
                return Err(PyTypeError::new_err(format!(
                    "out must hold {}, got {}",
                    w.name(),
                    ob.elem().name()
                )))
            }
            _ => {}
        }
        check_out(&ob, n, what, &[&src])?;
        Ok((src, o.clone(), ob))
    }

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
        match elem {
            Elem::U32 | Elem::I32 => {
                let w = Narrow(&*self.inner);
                encode_width(py, &w, src, elem == Elem::I32, delta, prev, out)
            }
            Elem::U64 | Elem::I64 => {
                let w = self.vbyte_for(elem)?;
                encode_width(py, &w, src, elem == Elem::I64, delta, prev, out)
            }
            Elem::U8 => Err(PyTypeError::new_err(
                "arr must hold uint32 (or int32, or uint64/int64 for vbyte) integers, got uint8",
            )),
        }
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

    /// Runs `op` (select, lower_bound or insert) on the stream of `n`
    /// values at the start of `buf`, without the GIL on large streams.
    fn on_sorted<T: Send>(
        &self,
        buf: &Bound<'_, PyAny>,
        n: usize,
        delta: Option<bool>,
        op: impl FnOnce(&dyn SortedCodec, &[u8]) -> Result<T, DecodeError> + Send,
    ) -> PyResult<T> {
        let py = buf.py();
        let s = self.sorted(delta)?;
        let src = Buffer::bytes(buf, "buf", pin_for(n))?;
        let input = src.slice::<u8>();
        let r = run(py, n, || op(s, input));
        drop(src);
        r.map_err(|e| decode_error(py, e))
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
        let (src, array, mut ob) = self.decode_buffers(buf, Ask::One { n, dtype: want }, out)?;
        let input = src.slice::<u8>();
        let elem = ob.elem();
        let r =
            match elem {
                Elem::U32 | Elem::I32 => {
                    let w = Narrow(&*self.inner);
                    decode_width(py, &w, input, n, &mut ob, elem == Elem::I32, delta, &prev)?
                }
                Elem::U64 | Elem::I64 => {
                    let w = self.vbyte_for(elem)?;
                    decode_width(py, &w, input, n, &mut ob, elem == Elem::I64, delta, &prev)?
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

    /// decode_many(buf, counts, delta=False, prev=0, out=None) -> numpy.ndarray
    ///
    /// Streams stored one after another in `buf` (a list cut into chunks),
    /// of `counts[i]` values each, decoded in one call into one uint32
    /// array of `sum(counts)` values; with `delta`, each chunk's deltas
    /// continue from the previous chunk's last value (the first from
    /// `prev`). One call for all the chunks: the interpreter's and the
    /// binding's cost (about 150 ns a call) is paid once, not per chunk.
    #[pyo3(signature = (buf, counts, delta=false, prev=0, out=None))]
    fn decode_many<'py>(
        &self,
        buf: &Bound<'py, PyAny>,
        counts: &Bound<'py, PyAny>,
        delta: bool,
        prev: u32,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = buf.py();
        self.check_delta(delta)?;
        let counts = read_counts(counts)?;
        let total = counts
            .iter()
            .try_fold(0usize, |t, &k| t.checked_add(k))
            .ok_or_else(|| PyValueError::new_err("sum(counts) overflows"))?;
        let ask = Ask::Many {
            total,
            streams: counts.len(),
        };
        let (src, array, mut ob) = self.decode_buffers(buf, ask, out)?;
        let input = src.slice::<u8>();
        let codec = &*self.inner;
        let o = &mut ob.slice_mut::<u32>()[..total];
        let r = run(py, total, || {
            decode_chunks(codec, input, &counts, delta, prev, o)
        });
        drop(ob);
        drop(src);
        r.map_err(|e| decode_error(py, e))?;
        Ok(array)
    }

    /// select(buf, n, i, delta=None, prev=0) -> int | None
    #[pyo3(signature = (buf, n, i, delta=None, prev=0))]
    fn select(
        &self,
        buf: &Bound<'_, PyAny>,
        n: usize,
        i: usize,
        delta: Option<bool>,
        prev: u32,
    ) -> PyResult<Option<u32>> {
        self.on_sorted(buf, n, delta, |s, input| s.select(input, n, prev, i))
    }

    /// lower_bound(buf, n, key, delta=None, prev=0) -> (index, value) | None
    #[pyo3(signature = (buf, n, key, delta=None, prev=0))]
    fn lower_bound(
        &self,
        buf: &Bound<'_, PyAny>,
        n: usize,
        key: u32,
        delta: Option<bool>,
        prev: u32,
    ) -> PyResult<Option<(usize, u32)>> {
        self.on_sorted(buf, n, delta, |s, input| s.lower_bound(input, n, prev, key))
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
        // The stream is copied: `buf` is left as it was, and the stream can
        // grow by more than the new value's own bytes (a BP128 block's bit
        // width, a FOR array's width, the tail's shifted blocks).
        let (bytes, index) = self.on_sorted(buf, n, delta, |s, input| {
            let mut bytes = input.to_vec();
            s.insert(&mut bytes, n, prev, value).map(|i| (bytes, i))
        })?;
        let py = buf.py();
        let (out, mut ob) = new_array(py, bytes.len(), Elem::U8)?;
        ob.slice_mut::<u8>().copy_from_slice(&bytes);
        drop(ob);
        Ok((out, index))
    }

    /// The Rust calls alone, for the benchmark: seconds per pass over
    /// `bufs` in order, best of `rounds` rounds of `reps` passes. `op`:
    /// "decode" (each buffer a stream of `n` values), "decode_many" (each
    /// buffer `chunks` such streams one after another, delta ones
    /// continuing, decoded into one array as `decode_many` does) or
    /// "encode" (each a uint32 array); `delta` from 0. `alloc`: each call
    /// returns a new
    /// vector (as a Python call returns a new array; encode: of the largest
    /// size, then shrunk, as `encode` does), else it writes into one reused
    /// buffer (as `out=`): `out`, a uint32 array, when given (the one the
    /// Python calls write, so that both sides meet the same memory
    /// placement), else one of its own.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (op, bufs, n, delta, alloc, reps=1, rounds=5, chunks=1, out=None))]
    fn _time_chunks(
        &self,
        py: Python<'_>,
        op: &str,
        bufs: Vec<Bound<'_, PyAny>>,
        n: usize,
        delta: bool,
        alloc: bool,
        reps: usize,
        rounds: usize,
        chunks: usize,
        out: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<f64> {
        self.check_delta(delta)?;
        let (encode, many) = match op {
            "encode" => (true, false),
            "decode" => (false, false),
            "decode_many" => (false, true),
            _ => {
                return Err(PyValueError::new_err(
                    "op must be 'encode', 'decode' or 'decode_many'",
                ))
            }
        };
        // decode_many: each buffer holds `chunks` streams of `n` values, one
        // after another (delta ones continuing), decoded into one array.
        let counts = vec![n; if many { chunks } else { 1 }];
        let srcs = bufs
            .iter()
            .map(|b| match encode {
                true => Buffer::typed(b, false, "bufs", Pin::Yes),
                false => Buffer::bytes(b, "bufs", Pin::Yes),
            })
            .collect::<PyResult<Vec<_>>>()?;
        if encode && srcs.iter().any(|s| s.elem() != Elem::U32) {
            return Err(PyTypeError::new_err("encode timing takes uint32 arrays"));
        }
        let (values, streams): (Vec<&[u32]>, Vec<&[u8]>) = match encode {
            true => (srcs.iter().map(|s| s.slice()).collect(), Vec::new()),
            false => (Vec::new(), srcs.iter().map(|s| s.slice()).collect()),
        };
        let codec = &*self.inner;
        let total = n * counts.len();
        let mut given = match out {
            Some(_) if encode => {
                return Err(PyValueError::new_err("out is for decode timings only"))
            }
            Some(o) => Some(Buffer::typed(o, true, "out", Pin::Yes)?),
            None => None,
        };
        if let Some(ob) = &given {
            if ob.elem() != Elem::U32 {
                return Err(PyTypeError::new_err("out must hold uint32"));
            }
            check_out(ob, total, "n * chunks", &srcs.iter().collect::<Vec<_>>())?;
        }
        let mut own = Vec::new();
        let ints: &mut [u32] = match &mut given {
            Some(ob) => &mut ob.slice_mut()[..total],
            None => {
                own.resize(total, 0u32);
                &mut own
            }
        };
        for input in &streams {
            decode_chunks(codec, input, &counts, delta, 0, ints)
                .map_err(|e| decode_error(py, e))?;
        }
        let from = delta.then_some(0);
        let enc = |v: &[u32], out: &mut [u8]| codec.encode_opt(v, from, out);
        let dec = |input: &[u8], out: &mut [u32]| match many {
            true => decode_chunks(codec, input, &counts, delta, 0, out),
            false => codec.decode_opt(input, n, from, out),
        };
        let most = values.iter().map(|v| v.len()).max().unwrap_or(0);
        let mut bytes = vec![0u8; self.max_len(most, Elem::U32)?];
        let (reps, rounds) = (reps.max(1), rounds.max(1));
        let best = py.allow_threads(|| {
            let mut best = f64::INFINITY;
            for _ in 0..rounds {
                let t = Instant::now();
                for _ in 0..reps {
                    for &v in &values {
                        let v = std::hint::black_box(v);
                        if alloc {
                            // as `encode` does: the largest size, then shrunk
                            let max = codec.max_compressed_len(v.len()).unwrap_or(0);
                            let mut out = vec![0u8; max];
                            let used = enc(v, &mut out).unwrap_or(0);
                            out.truncate(used);
                            out.shrink_to_fit();
                            std::hint::black_box(out);
                        } else {
                            let _ = std::hint::black_box(enc(v, &mut bytes));
                        }
                    }
                    for &input in &streams {
                        let input = std::hint::black_box(input);
                        if alloc {
                            let mut out = vec![0u32; ints.len()];
                            let _ = std::hint::black_box(dec(input, &mut out));
                            std::hint::black_box(out);
                        } else {
                            let _ = std::hint::black_box(dec(input, ints));
                        }
                    }
                }
                best = best.min(t.elapsed().as_secs_f64() / reps as f64);
            }
            best
        });
        drop(values);
        drop(streams);
        drop(srcs);
        drop(given);
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
