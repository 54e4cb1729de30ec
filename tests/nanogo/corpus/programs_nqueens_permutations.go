package main

import (
	"fmt"
	"strings"
)

func solveQueens(n int) (int, []int) {
	cols := make([]bool, n)
	d1 := make([]bool, 2*n)
	d2 := make([]bool, 2*n)
	pos := make([]int, n)
	var first []int
	count := 0
	var place func(r int)
	place = func(r int) {
		if r == n {
			if first == nil {
				first = append([]int(nil), pos...)
			}
			count++
			return
		}
		for c := 0; c < n; c++ {
			if cols[c] || d1[r+c] || d2[r-c+n] {
				continue
			}
			cols[c], d1[r+c], d2[r-c+n] = true, true, true
			pos[r] = c
			place(r + 1)
			cols[c], d1[r+c], d2[r-c+n] = false, false, false
		}
	}
	place(0)
	return count, first
}

func permutations(s []string) [][]string {
	if len(s) <= 1 {
		return [][]string{append([]string(nil), s...)}
	}
	var out [][]string
	for i := range s {
		rest := append(append([]string(nil), s[:i]...), s[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]string{s[i]}, p...))
		}
	}
	return out
}

func main() {
	for n := 4; n <= 8; n++ {
		c, first := solveQueens(n)
		fmt.Printf("%d-queens: %d solutions, first %v\n", n, c, first)
	}
	_, sol := solveQueens(6)
	for _, c := range sol {
		fmt.Println(strings.Repeat(". ", c) + "Q " + strings.Repeat(". ", 5-c))
	}
	perms := permutations([]string{"a", "b", "c"})
	fmt.Println(len(perms), perms)
}
