package main

import "fmt"

type Number interface {
	~int | ~int64 | ~float64
}

func Sum[T Number](xs []T) T {
	var total T
	for _, x := range xs {
		total += x
	}
	return total
}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func Filter[T any](xs []T, keep func(T) bool) []T {
	var out []T
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

func Max[T int | float64 | string](a, b T) T {
	if a > b {
		return a
	}
	return b
}

type MyInt int

func main() {
	fmt.Println(Sum([]int{1, 2, 3}), Sum([]float64{1.5, 2.25}))
	fmt.Println(Sum([]MyInt{4, 5}))
	strs := Map([]int{1, 2, 3}, func(i int) string { return fmt.Sprintf("<%d>", i) })
	fmt.Println(strs, len(strs))
	fmt.Println(Filter([]string{"go", "rust", "c", "zig"}, func(s string) bool { return len(s) <= 2 }))
	fmt.Println(Max(3, 7), Max(2.5, -1.0), Max("apple", "pear"))
	fmt.Println(Sum[float64]([]float64{0.1, 0.2}))
}
