package main

import (
	"fmt"
	"sort"
)

func main() {
	names := []string{"delta", "Alpha", "charlie", "bravo"}
	sort.Sort(sort.Reverse(sort.StringSlice(names)))
	fmt.Println(names)
	fl := []float64{3.5, -1, 2}
	fmt.Println(sort.Float64sAreSorted(fl))
	sort.Float64s(fl)
	fmt.Println(fl, sort.SearchFloat64s(fl, 2), sort.SearchFloat64s(fl, 10))
	data := []int{5, 1, 4, 1, 5, 9, 2, 6}
	sort.Stable(sort.IntSlice(data))
	fmt.Println(data)
	idx := sort.Search(100, func(i int) bool { return i*i >= 50 })
	fmt.Println(idx)
	people := map[string]int{"x": 3, "y": 1, "z": 2}
	type kv struct {
		k string
		v int
	}
	var kvs []kv
	for k, v := range people {
		kvs = append(kvs, kv{k, v})
	}
	sort.Slice(kvs, func(i, j int) bool { return kvs[i].v < kvs[j].v })
	fmt.Println(kvs)
}
