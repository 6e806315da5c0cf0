//! Internal test harness.
