//! What the conformance harness (`check_sorted`) does not cover: on a
//! truncated stream, the values before the value cut short are answered.

use super::super::*;
use crate::tests::seek::{check_truncated_prefixes, check_unsorted_lower_bound};

#[test]
fn truncated_streams_answer_up_to_the_value_cut_short() {
    for layout in [Layout::LowFirst, Layout::Lucene] {
        let c = VarIntGb::new().with_layout(layout);
        check_truncated_prefixes(c, |e, _, _| e.index().unwrap());
    }
}

/// On unsorted values, `lower_bound` is the first index whose value is
/// `>= key`.
#[test]
fn lower_bound_on_unsorted_values_is_a_linear_scan() {
    for layout in [Layout::LowFirst, Layout::Lucene] {
        check_unsorted_lower_bound(VarIntGb::new().with_layout(layout));
    }
}
