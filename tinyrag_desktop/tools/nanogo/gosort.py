"""Go 1.19's sorting over less/swap callbacks (pdqsort, and insertion sort + SymMerge for the stable sorts),
so sort.Slice orders equal elements exactly as Go does."""

from __future__ import annotations

_INCREASING, _DECREASING, _UNKNOWN = 1, 2, 0


def pdqsort_func(less, swap, n: int) -> None:
    if n <= 1:
        return
    _pdq(less, swap, 0, n, n.bit_length())


def stable_func(less, swap, n: int) -> None:
    """Go 1.19's sort.Stable and sort.SliceStable: insertion sort on blocks of 20, then SymMerge rounds.
    O(n*log(n)) calls to less and O(n*log(n)*log(n)) swaps, made in Go's order, so even an inconsistent
    less or a Swap with side effects gives Go's result."""
    block = 20
    a, b = 0, block
    while b <= n:
        _insertion(less, swap, a, b)
        a = b
        b += block
    _insertion(less, swap, a, n)
    while block < n:
        a, b = 0, 2 * block
        while b <= n:
            _sym_merge(less, swap, a, a + block, b)
            a = b
            b += 2 * block
        m = a + block
        if m < n:
            _sym_merge(less, swap, a, m, n)
        block *= 2


def _sym_merge(less, swap, a, m, b):
    """Merges the sorted data[a:m] and data[m:b] in place (Kim and Kutzner's SymMerge, as Go has it)."""
    if m - a == 1:  # insert data[a] into data[m:b]: the lowest i with data[i] >= data[a]
        i, j = m, b
        while i < j:
            h = (i + j) >> 1
            if less(h, a):
                i = h + 1
            else:
                j = h
        for k in range(a, i - 1):
            swap(k, k + 1)
        return
    if b - m == 1:  # insert data[m] into data[a:m]: the lowest i with data[i] > data[m]
        i, j = a, m
        while i < j:
            h = (i + j) >> 1
            if not less(m, h):
                i = h + 1
            else:
                j = h
        for k in range(m, i, -1):
            swap(k, k - 1)
        return
    mid = (a + b) >> 1
    n = mid + m
    if m > mid:
        start, r = n - b, mid
    else:
        start, r = a, m
    p = n - 1
    while start < r:
        c = (start + r) >> 1
        if not less(p - c, c):
            start = c + 1
        else:
            r = c
    end = n - start
    if start < m < end:
        _rotate(swap, start, m, end)
    if a < start < mid:
        _sym_merge(less, swap, a, start, mid)
    if mid < end < b:
        _sym_merge(less, swap, mid, end, b)


def _rotate(swap, a, m, b):
    """Swaps the blocks data[a:m] and data[m:b] by block swaps."""
    i, j = m - a, b - m
    while i != j:
        if i > j:
            _swap_range(swap, m - i, m, j)
            i -= j
        else:
            _swap_range(swap, m - i, m + j - i, i)
            j -= i
    _swap_range(swap, m - i, m, i)


def _swap_range(swap, a, b, n):
    for i in range(n):
        swap(a + i, b + i)


def _insertion(less, swap, a, b):
    for i in range(a + 1, b):
        j = i
        while j > a and less(j, j - 1):
            swap(j, j - 1)
            j -= 1


def _sift_down(less, swap, lo, hi, first):
    root = lo
    while True:
        child = 2 * root + 1
        if child >= hi:
            return
        if child + 1 < hi and less(first + child, first + child + 1):
            child += 1
        if not less(first + root, first + child):
            return
        swap(first + root, first + child)
        root = child


def _heap_sort(less, swap, a, b):
    first, lo, hi = a, 0, b - a
    for i in range((hi - 1) // 2, -1, -1):
        _sift_down(less, swap, i, hi, first)
    for i in range(hi - 1, -1, -1):
        swap(first, first + i)
        _sift_down(less, swap, lo, i, first)


def _pdq(less, swap, a, b, limit):
    was_balanced, was_partitioned = True, True
    while True:
        length = b - a
        if length <= 12:
            _insertion(less, swap, a, b)
            return
        if limit == 0:
            _heap_sort(less, swap, a, b)
            return
        if not was_balanced:
            _break_patterns(swap, a, b)
            limit -= 1
        pivot, hint = _choose_pivot(less, a, b)
        if hint == _DECREASING:
            _reverse(swap, a, b)
            pivot = (b - 1) - (pivot - a)
            hint = _INCREASING
        if was_balanced and was_partitioned and hint == _INCREASING:
            if _partial_insertion(less, swap, a, b):
                return
        if a > 0 and not less(a - 1, pivot):
            a = _partition_equal(less, swap, a, b, pivot)
            continue
        mid, already = _partition(less, swap, a, b, pivot)
        was_partitioned = already
        left, right = mid - a, b - mid
        threshold = length // 8
        if left < right:
            was_balanced = left >= threshold
            _pdq(less, swap, a, mid, limit)
            a = mid + 1
        else:
            was_balanced = right >= threshold
            _pdq(less, swap, mid + 1, b, limit)
            b = mid


def _partition(less, swap, a, b, pivot):
    swap(a, pivot)
    i, j = a + 1, b - 1
    while i <= j and less(i, a):
        i += 1
    while i <= j and not less(j, a):
        j -= 1
    if i > j:
        swap(j, a)
        return j, True
    swap(i, j)
    i += 1
    j -= 1
    while True:
        while i <= j and less(i, a):
            i += 1
        while i <= j and not less(j, a):
            j -= 1
        if i > j:
            break
        swap(i, j)
        i += 1
        j -= 1
    swap(j, a)
    return j, False


def _partition_equal(less, swap, a, b, pivot):
    swap(a, pivot)
    i, j = a + 1, b - 1
    while True:
        while i <= j and not less(a, i):
            i += 1
        while i <= j and less(a, j):
            j -= 1
        if i > j:
            break
        swap(i, j)
        i += 1
        j -= 1
    return i


def _partial_insertion(less, swap, a, b):
    i = a + 1
    for _ in range(5):
        while i < b and not less(i, i - 1):
            i += 1
        if i == b:
            return True
        if b - a < 50:
            return False
        swap(i, i - 1)
        if i - a >= 2:
            j = i - 1
            while j >= 1:
                if not less(j, j - 1):
                    break
                swap(j, j - 1)
                j -= 1
        if b - i >= 2:
            j = i + 1
            while j < b:
                if not less(j, j - 1):
                    break
                swap(j, j - 1)
                j += 1
    return False


def _break_patterns(swap, a, b):
    length = b - a
    if length >= 8:
        r = length
        modulus = 1 << length.bit_length()
        idx = a + (length // 4) * 2 - 1
        for i in range(3):
            r ^= (r << 13) & 0xFFFFFFFFFFFFFFFF
            r ^= r >> 17
            r ^= (r << 5) & 0xFFFFFFFFFFFFFFFF
            other = r & (modulus - 1)
            if other >= length:
                other -= length
            swap(idx + i, a + other)


def _choose_pivot(less, a, b):
    l = b - a
    swaps = [0]
    i = a + l // 4 * 1
    j = a + l // 4 * 2
    k = a + l // 4 * 3
    if l >= 8:
        if l >= 50:
            i = _median(less, i - 1, i, i + 1, swaps)
            j = _median(less, j - 1, j, j + 1, swaps)
            k = _median(less, k - 1, k, k + 1, swaps)
        j = _median(less, i, j, k, swaps)
    if swaps[0] == 0:
        return j, _INCREASING
    if swaps[0] == 12:
        return j, _DECREASING
    return j, _UNKNOWN


def _order2(less, a, b, swaps):
    if less(b, a):
        swaps[0] += 1
        return b, a
    return a, b


def _median(less, a, b, c, swaps):
    a, b = _order2(less, a, b, swaps)
    b, c = _order2(less, b, c, swaps)
    a, b = _order2(less, a, b, swaps)
    return b


def _reverse(swap, a, b):
    i, j = a, b - 1
    while i < j:
        swap(i, j)
        i += 1
        j -= 1
