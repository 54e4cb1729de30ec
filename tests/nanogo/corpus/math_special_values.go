package main

import (
	"fmt"
	"math"
)

func main() {
	fmt.Println(math.Pow(0, -1), math.Pow(-8, 1.0/3), math.Pow(2, -2), math.Pow(-2, 3))
	fmt.Println(math.Log(-1), math.Log(0), math.Sqrt(0), math.Exp(710))
	fmt.Println(math.Mod(5.5, 2), math.Mod(-5.5, 2), math.Remainder(5.5, 2), math.Mod(1, 0))
	fmt.Println(math.Float64bits(1.0), math.Float64frombits(0x4000000000000000), math.Float32bits(1))
	inf := math.Inf(1)
	fmt.Println(inf-inf, inf*0, -inf+1e308, inf > 1e308)
	fmt.Println(math.Max(-0.0, 0), math.Min(math.Inf(-1), 0), math.Abs(math.Inf(-1)))
	fmt.Println(math.Ceil(-0.2), math.Round(0.49999999999999994), math.Round(-0.5), math.Trunc(-0.9))
	fmt.Printf("%.4f %.4f %.4f\n", math.Asin(1), math.Acos(0), math.Atan(math.Inf(1)))
	fmt.Println(int(math.Sqrt(49)), int64(math.Pow(10, 18)), uint64(math.Pow(2, 63)))
}
