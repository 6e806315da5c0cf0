//! A stream placed flush against an inaccessible page, for decoders that
//! must read no byte past it (the trusted-count decoders).

/// Memory that ends at an inaccessible page: a stream copied flush against
/// it makes any read past its last byte fault (Linux; elsewhere a plain
/// exact-length copy).
#[cfg(all(target_os = "linux", feature = "std"))]
mod guarded {
    use core::ffi::{c_int, c_long, c_void};

    extern "C" {
        fn mmap(
            a: *mut c_void,
            len: usize,
            prot: c_int,
            fl: c_int,
            fd: c_int,
            off: i64,
        ) -> *mut c_void;
        fn mprotect(a: *mut c_void, len: usize, prot: c_int) -> c_int;
        fn munmap(a: *mut c_void, len: usize) -> c_int;
        fn sysconf(name: c_int) -> c_long;
    }
    const PROT_NONE: c_int = 0;
    const PROT_RW: c_int = 3;
    const MAP_PRIVATE_ANON: c_int = 0x02 | 0x20;
    const SC_PAGESIZE: c_int = 30;

    /// `room` writable bytes followed by a `PROT_NONE` page.
    pub(super) struct Guarded {
        map: *mut u8,
        len: usize,
        room: usize,
    }

    impl Guarded {
        pub(super) fn new(room: usize) -> Self {
            // SAFETY: `sysconf` has no preconditions.
            let page = unsafe { sysconf(SC_PAGESIZE) } as usize;
            let room = room.div_ceil(page).max(1) * page;
            let len = room + page;
            // SAFETY: a fresh anonymous private mapping; no memory of ours
            // is touched.
            let map = unsafe { mmap(core::ptr::null_mut(), len, PROT_RW, MAP_PRIVATE_ANON, -1, 0) };
            assert!(!map.is_null() && map as isize != -1, "mmap failed");
            let map = map.cast::<u8>();
            // SAFETY: the last page of the mapping made above.
            let r = unsafe { mprotect(map.wrapping_add(room).cast(), page, PROT_NONE) };
            assert_eq!(r, 0, "mprotect failed");
            Guarded { map, len, room }
        }

        /// `bytes` copied to end exactly at the guard page; its address.
        pub(super) fn flush(&mut self, bytes: &[u8]) -> *const u8 {
            assert!(bytes.len() <= self.room);
            let at = self.map.wrapping_add(self.room - bytes.len());
            // SAFETY: `at .. at + bytes.len()` is inside the writable part
            // of our mapping, which `bytes` (a Rust slice) cannot overlap.
            unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr(), at, bytes.len()) };
            at
        }
    }

    impl Drop for Guarded {
        fn drop(&mut self) {
            // SAFETY: the whole mapping made in `new`, no longer borrowed.
            unsafe { munmap(self.map.cast(), self.len) };
        }
    }
}

/// Where the counted decoders read from in these tests: at a guard page
/// where there is one, else an exact-length boxed copy.
pub(crate) struct Flush {
    #[cfg(all(target_os = "linux", feature = "std"))]
    g: guarded::Guarded,
    #[cfg(not(all(target_os = "linux", feature = "std")))]
    b: alloc::boxed::Box<[u8]>,
}

impl Flush {
    /// Room for a stream of up to `room` bytes.
    pub(crate) fn new(room: usize) -> Self {
        Flush {
            #[cfg(all(target_os = "linux", feature = "std"))]
            g: guarded::Guarded::new(room),
            #[cfg(not(all(target_os = "linux", feature = "std")))]
            b: alloc::vec![0u8; room].into_boxed_slice(),
        }
    }

    /// `bytes` copied to end where readable memory ends; its address.
    pub(crate) fn put(&mut self, bytes: &[u8]) -> *const u8 {
        #[cfg(all(target_os = "linux", feature = "std"))]
        return self.g.flush(bytes);
        #[cfg(not(all(target_os = "linux", feature = "std")))]
        {
            self.b = alloc::vec::Vec::from(bytes).into_boxed_slice();
            self.b.as_ptr()
        }
    }
}
