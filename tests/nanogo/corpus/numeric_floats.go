package main

import (
	"fmt"
	"math"
)

func main() {
	fmt.Println(3.0, 2.5, 1e21, 1e20, 1e-7, 123456789.0)
	fmt.Println(math.Pi, math.E, math.Sqrt2)
	fmt.Println(math.Inf(1), math.Inf(-1), math.NaN())
	var z float64
	fmt.Println(1/z, -1/z, z/z == z/z)
	fmt.Println(float32(1) / 3)
	fmt.Println(100.0, 1e6, 1e-4, 0.000001)
	fmt.Println(-0.0, 2.0/3.0)
	var f float64 = 1.5
	h := 2.999
	fmt.Println(int(f), int(-f), int64(h), uint8(255.0))
	fmt.Println(math.MaxFloat64, math.SmallestNonzeroFloat64)
	fmt.Println(float32(16777217))
}
