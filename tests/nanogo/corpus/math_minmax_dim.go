package main

import (
	"fmt"
	"math"
)

// Max(x, +Inf) is +Inf even for a NaN x; Dim(-0, 0) is +0.
func main() {
	for _, p := range [][2]float64{
		{math.Inf(1), math.NaN()},
		{math.NaN(), math.Inf(1)},
	} {
		fmt.Println("Max", p[0], p[1], math.Max(p[0], p[1]))
	}
	for _, p := range [][2]float64{
		{math.NaN(), math.Inf(-1)},
		{math.Inf(-1), math.NaN()},
	} {
		fmt.Println("Min", p[0], p[1], math.Min(p[0], p[1]))
	}
	for _, p := range [][2]float64{
		{math.Copysign(0, -1), 0.0},
	} {
		fmt.Println("Dim", p[0], p[1], math.Dim(p[0], p[1]))
	}
}
