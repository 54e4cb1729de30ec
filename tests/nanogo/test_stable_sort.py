"""sort.Stable and sort.SliceStable use Go's own algorithm (insertion-sorted blocks, then SymMerge)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.tools.nanogo.gosort import stable_func
from tinyrag_desktop.tools.nanogo.interp import run_inprocess


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 9), max_size=300))
def test_stable_func_sorts_stably(keys):
    items = [(k, i) for i, k in enumerate(keys)]

    def less(i, j):
        return items[i][0] < items[j][0]

    def swap(i, j):
        items[i], items[j] = items[j], items[i]

    stable_func(less, swap, len(items))
    assert items == sorted(((k, i) for i, k in enumerate(keys)), key=lambda p: p[0])


def test_slice_stable_calls_less_n_log_n_times():
    # 3,000 items: Go's algorithm calls less about 35,000 times; an insertion sort, about 2,250,000.
    src = """type item struct{ key, pos int }
xs := make([]item, 3000)
for i := range xs {
	xs[i] = item{(i * 7919) % 50, i}
}
calls := 0
sort.SliceStable(xs, func(i, j int) bool { calls++; return xs[i].key < xs[j].key })
ok := true
for i := 1; i < len(xs); i++ {
	if xs[i-1].key > xs[i].key || xs[i-1].key == xs[i].key && xs[i-1].pos > xs[i].pos {
		ok = false
	}
}
fmt.Println(ok, calls < 3000*12*2, xs[:3])
"""
    out, status, err = run_inprocess(src)
    assert (status, err) == ("ok", ""), err
    assert out == "true true [{0 0} {0 50} {0 100}]\n"


def test_sort_stable_on_an_interface_keeps_equal_elements_in_order():
    src = """type byLen []string
func (s byLen) Len() int           { return len(s) }
func (s byLen) Less(i, j int) bool { return len(s[i]) < len(s[j]) }
func (s byLen) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }
words := strings.Fields("banana kiwi fig apple pear plum date cherry lime grape melon peach nut yam lemon " +
	"orange quince guava papaya mango olive sloe")
sort.Stable(byLen(words))
fmt.Println(words)
"""
    out, status, err = run_inprocess(src)
    assert (status, err) == ("ok", ""), err
    assert out == ("[fig nut yam kiwi pear plum date lime sloe apple grape melon peach lemon guava mango olive "
                   "banana cherry orange quince papaya]\n")
