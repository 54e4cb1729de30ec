package main

import (
	"fmt"
	"math"
)

func solve(a, b, c float64) {
	d := b*b - 4*a*c
	switch {
	case d > 0:
		r1 := (-b + math.Sqrt(d)) / (2 * a)
		r2 := (-b - math.Sqrt(d)) / (2 * a)
		fmt.Printf("two roots: %.4f, %.4f\n", r1, r2)
	case d == 0:
		fmt.Printf("one root: %.4f\n", -b/(2*a))
	default:
		re := -b / (2 * a)
		im := math.Sqrt(-d) / (2 * a)
		fmt.Printf("complex roots: %.2f±%.2fi\n", re, im)
	}
}

func main() {
	solve(1, -3, 2)
	solve(1, 2, 1)
	solve(1, 0, 1)
	solve(2, 5, -3)
	fmt.Println(math.Sqrt(2)*math.Sqrt(2) == 2, math.Abs(math.Sqrt(2)*math.Sqrt(2)-2) < 1e-9)
}
