package main

import (
	"fmt"
	"math"
)

func main() {
	fmt.Println(math.Sqrt(2), math.Sqrt(16), math.Cbrt(27))
	fmt.Println(math.Pow(2, 10), math.Pow(2, 0.5), math.Pow(10, -2))
	fmt.Println(math.Abs(-3.2), math.Floor(-2.5), math.Ceil(-2.5), math.Trunc(-2.7), math.Round(2.5), math.Round(-2.5))
	fmt.Println(math.Max(3, 7), math.Min(3, 7), math.Mod(7, 3), math.Mod(-7, 3))
	fmt.Println(math.Log(math.E), math.Log2(8), math.Log10(1000), math.Exp(0))
	fmt.Printf("%.4f %.4f %.4f\n", math.Sin(math.Pi/6), math.Cos(math.Pi/3), math.Tan(math.Pi/4))
	fmt.Printf("%.4f %.4f\n", math.Atan2(1, 1), math.Hypot(3, 4))
	fmt.Println(math.IsNaN(math.NaN()), math.IsInf(math.Inf(1), 1), math.Sqrt(-1))
	fmt.Println(math.Floor(3.7), int(math.Floor(3.7)), math.RoundToEven(2.5))
	frac, whole := math.Modf(3.75)
	fmt.Println(frac, whole)
	fmt.Println(math.Signbit(-0.0), math.Signbit(math.Copysign(0, -1)))
	fmt.Println(math.MaxInt32, math.Pi*2)
}
