"""Every codec round trip on the real posting lists of ../shared/data
(skipped loudly when absent): each list delta-coded, and the lists of each
file concatenated into 4096-value chunks coded plainly."""

import numpy as np
import pytest

import intcodec


@pytest.mark.parametrize("name", intcodec.codecs())
def test_real_posting_lists(name, posting_lists):
    c = intcodec.codec(name)
    delta = c.supports_delta
    for fname, lists in posting_lists.items():
        step = 1 if len(lists) < 50_000 else 7  # every list of clueweb1k, every 7th of europarl
        total = 0
        for ids in lists[::step]:
            b = c.encode(ids, delta=delta)
            back = c.decode(b, len(ids), delta=delta, exact=True)
            if not np.array_equal(back, ids):
                raise AssertionError(f"{name}: {fname} list of {len(ids)} values differs")
            total += len(ids)
        allvals = np.concatenate(lists)
        for k in range(0, min(allvals.size, 400_000), 4096):
            chunk = allvals[k : k + 4096]
            np.testing.assert_array_equal(c.decode(c.encode(chunk), len(chunk)), chunk)
        assert total > 0, fname
