package main

import (
	"fmt"
	"sort"
)

type Ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~float32 | ~float64 | ~string
}

func SortSlice[T Ordered](s []T) {
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
}

func Keys[K comparable, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

func Contains[T comparable](xs []T, x T) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func Reduce[T, A any](xs []T, init A, f func(A, T) A) A {
	acc := init
	for _, x := range xs {
		acc = f(acc, x)
	}
	return acc
}

func main() {
	m := map[string]int{"b": 2, "a": 1, "c": 3}
	keys := Keys(m)
	SortSlice(keys)
	fmt.Println(keys)
	nums := []float64{3.5, -1, 2}
	SortSlice(nums)
	fmt.Println(nums)
	fmt.Println(Contains(keys, "b"), Contains([]int{1, 2}, 5))
	total := Reduce([]int{1, 2, 3, 4}, 0.5, func(a float64, x int) float64 { return a + float64(x) })
	fmt.Println(total)
	joined := Reduce([]string{"x", "y"}, "", func(a string, s string) string { return a + s })
	fmt.Println(joined)
}
