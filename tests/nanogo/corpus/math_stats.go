package main

import (
	"fmt"
	"math"
	"sort"
)

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func stddev(xs []float64) float64 {
	m := mean(xs)
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return math.Sqrt(v / float64(len(xs)))
}

func median(xs []float64) float64 {
	c := append([]float64(nil), xs...)
	sort.Float64s(c)
	n := len(c)
	if n%2 == 0 {
		return (c[n/2-1] + c[n/2]) / 2
	}
	return c[n/2]
}

func main() {
	data := []float64{2, 4, 4, 4, 5, 5, 7, 9}
	fmt.Println("mean:", mean(data))
	fmt.Println("stddev:", stddev(data))
	fmt.Println("median:", median(data))
	fmt.Printf("%.3f %.3f\n", mean([]float64{1, 2, 3, 4}), stddev([]float64{1, 2, 3, 4}))
	fmt.Println(median([]float64{3, 1, 2}), data[0])
}
