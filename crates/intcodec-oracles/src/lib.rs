//! Oracle bindings.
