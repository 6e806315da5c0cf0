//! The one dispatch mechanism: per codec (and per format option), a static
//! list of kernel sets in order of preference, best last; the best enabled
//! one is picked once and cached.
//!
//! A kernel set is a struct of function pointers for one ISA (and one
//! format option), built as a `static` by each ISA module (`scalar.rs`,
//! `x86/sse41.rs`, ...). Its functions may only be called on a CPU that has
//! the set's ISA: [`Registry::best`] and [`Registry::for_isa`] return only
//! such sets, so a handle holding a `&'static` set from them may call its
//! functions (that is the `// SAFETY:` argument at every call site).

use alloc::vec::Vec;

use crate::isa::Isa;

/// A kernel set: a struct of function pointers for one ISA.
pub(crate) trait KernelSet: Sync + 'static {
    /// The ISA every function of the set requires.
    fn isa(&self) -> Isa;
}

/// The kernel sets of one codec (and format option), best last. The first
/// entry must be the scalar set, which every CPU runs.
pub(crate) struct Registry<K: KernelSet> {
    sets: &'static [&'static K],
    #[cfg(feature = "std")]
    best: std::sync::OnceLock<&'static K>,
}

impl<K: KernelSet> Registry<K> {
    /// A registry of `sets` (scalar first, best last).
    pub(crate) const fn new(sets: &'static [&'static K]) -> Self {
        Registry {
            sets,
            #[cfg(feature = "std")]
            best: std::sync::OnceLock::new(),
        }
    }

    /// The best set this CPU supports within the `INTCODEC_ISA` cap,
    /// computed once.
    pub(crate) fn best(&self) -> &'static K {
        #[cfg(feature = "std")]
        {
            self.best.get_or_init(|| self.pick_best())
        }
        #[cfg(not(feature = "std"))]
        {
            self.pick_best()
        }
    }

    fn pick_best(&self) -> &'static K {
        self.sets
            .iter()
            .rev()
            .find(|k| k.isa().is_enabled())
            .copied()
            .unwrap_or(self.sets[0])
    }

    /// The set for `isa`, if this build has one and the CPU (and cap)
    /// allow it.
    pub(crate) fn for_isa(&self, isa: Isa) -> Option<&'static K> {
        if !isa.is_enabled() {
            return None;
        }
        self.sets.iter().find(|k| k.isa() == isa).copied()
    }

    /// Every ISA this build has a set for, enabled or not, scalar first.
    pub(crate) fn compiled_isas(&self) -> impl Iterator<Item = Isa> + '_ {
        self.sets.iter().map(|k| k.isa())
    }

    /// The ISAs of the sets this CPU (and cap) allow, scalar first, best last.
    pub(crate) fn enabled_isas(&self) -> Vec<Isa> {
        self.compiled_isas()
            .filter(|isa| isa.is_enabled())
            .collect()
    }
}
