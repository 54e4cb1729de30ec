package main

import (
	"fmt"
	"sort"
)

type Ordered interface {
	~int | ~string | ~float64
}

func SortedKeys[K Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}

type Pair[A any, B any] struct {
	First  A
	Second B
}

func Zip[A, B any](as []A, bs []B) []Pair[A, B] {
	n := len(as)
	if len(bs) < n {
		n = len(bs)
	}
	out := make([]Pair[A, B], n)
	for i := 0; i < n; i++ {
		out[i] = Pair[A, B]{as[i], bs[i]}
	}
	return out
}

func main() {
	ages := map[string]int{"zed": 40, "amy": 22, "kim": 31}
	for _, k := range SortedKeys(ages) {
		fmt.Println(k, ages[k])
	}
	fmt.Println(SortedKeys(map[int]bool{3: true, -1: false, 2: true}))
	fmt.Println(Zip([]string{"a", "b", "c"}, []int{1, 2}))
	fmt.Printf("%+v\n", Zip([]int{1}, []bool{true})[0])
}
