package main

import (
	"fmt"
	"strings"
)

type op func(float64, float64) float64

func apply(nums []int, f func(int) int) []int {
	out := make([]int, len(nums))
	for i, n := range nums {
		out[i] = f(n)
	}
	return out
}

func filter(nums []int, pred func(int) bool) []int {
	var out []int
	for _, n := range nums {
		if pred(n) {
			out = append(out, n)
		}
	}
	return out
}

func reduce(nums []int, init int, f func(int, int) int) int {
	acc := init
	for _, n := range nums {
		acc = f(acc, n)
	}
	return acc
}

func main() {
	ops := map[string]op{
		"+": func(a, b float64) float64 { return a + b },
		"-": func(a, b float64) float64 { return a - b },
		"*": func(a, b float64) float64 { return a * b },
		"/": func(a, b float64) float64 { return a / b },
	}
	for _, k := range []string{"+", "-", "*", "/"} {
		fmt.Printf("8 %s 3 = %.3f\n", k, ops[k](8, 3))
	}
	nums := []int{1, 2, 3, 4, 5, 6}
	sq := apply(nums, func(n int) int { return n * n })
	ev := filter(sq, func(n int) bool { return n%2 == 0 })
	fmt.Println(sq, ev, reduce(ev, 0, func(a, b int) int { return a + b }))
	var nilFunc func()
	fmt.Println(nilFunc == nil)
	fmt.Println(strings.Map(func(r rune) rune {
		if r == 'a' {
			return -1
		}
		return r
	}, "banana"))
}
