package main

import (
	"fmt"
	"sort"
)

func main() {
	ints := []int{5, 2, 8, -1, 9, 3}
	sort.Ints(ints)
	fmt.Println(ints, sort.IntsAreSorted(ints))
	strs := []string{"pear", "apple", "fig", "Banana"}
	sort.Strings(strs)
	fmt.Println(strs)
	fl := []float64{2.5, -1, 3.25, 0}
	sort.Float64s(fl)
	fmt.Println(fl)
	idx := sort.SearchInts(ints, 8)
	fmt.Println(idx, sort.SearchInts(ints, 4))
	i := sort.Search(len(ints), func(i int) bool { return ints[i] >= 3 })
	fmt.Println(i, ints[i])
	sort.Sort(sort.Reverse(sort.IntSlice(ints)))
	fmt.Println(ints)
	words := []string{"banana", "kiwi", "apple", "fig", "cherry"}
	sort.Slice(words, func(i, j int) bool {
		if len(words[i]) != len(words[j]) {
			return len(words[i]) < len(words[j])
		}
		return words[i] < words[j]
	})
	fmt.Println(words)
	fmt.Println(sort.SearchStrings([]string{"a", "c", "e"}, "d"))
}
