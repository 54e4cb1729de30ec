package main

import (
	"fmt"
	"math"
	"strconv"
)

// The bits of the NaNs math gives: Go's NaN() is 0x7FF8000000000001, an SSE instruction's own NaN is
// 0xFFF8000000000000, and some functions hand back the NaN they were given.
func main() {
	nan := math.NaN()
	neg := math.Copysign(nan, -1)
	inf := math.Inf(1)
	p, _ := strconv.ParseFloat("nan", 64)
	_, fr := math.Modf(inf)
	_, nfr := math.Modf(-inf)
	for _, x := range []float64{nan, p, math.Sqrt(-1), math.Sqrt(nan), math.Log(-1), math.Log(nan), math.Log(neg),
		math.Log2(-2), math.Sin(inf), math.Cos(nan), math.Acos(2), math.Asin(-3), math.Atanh(2), math.Acosh(0.5),
		fr, nfr, math.Remainder(1, 0), math.Mod(1, 0), math.Max(nan, 1), math.Min(1, nan), math.Pow(nan, 2),
		math.Pow(-8, 0.5), math.Floor(nan), math.Exp(nan), math.Log1p(-2), inf - inf, 0 * inf} {
		fmt.Printf("%x ", math.Float64bits(x))
	}
	fmt.Println()
	zero := 0.0
	weird := math.Float64frombits(0x7FF8000000000123)
	for _, x := range []float64{zero / zero, weird / zero, -weird / zero, nan / zero, 1 / zero, -1 / zero} {
		fmt.Printf("%x ", math.Float64bits(x))
	}
	fmt.Println()
}
