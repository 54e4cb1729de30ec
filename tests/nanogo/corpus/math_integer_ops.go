package main

import (
	"fmt"
	"math"
)

func isqrt(n int) int { return int(math.Sqrt(float64(n))) }

func powInt(base, exp int) int {
	result := 1
	for exp > 0 {
		if exp&1 == 1 {
			result *= base
		}
		base *= base
		exp >>= 1
	}
	return result
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func main() {
	fmt.Println(isqrt(99), isqrt(100), powInt(3, 13), powInt(2, 62), powInt(2, 64))
	fmt.Println(abs(-7), abs(math.MinInt64))
	fmt.Println(math.Floor(-0.5), math.Trunc(9.99), int(math.Round(-4.5)))
	fmt.Println(math.Inf(1) > math.MaxFloat64, -math.Inf(1) < -math.MaxFloat64)
	fmt.Println(math.NaN() == math.NaN(), math.Max(math.NaN(), 1))
	fmt.Println(7/2*2, 7.0/2*2, 1<<10, 1<<3*2)
}
