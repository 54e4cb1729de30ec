package main

import (
	"fmt"
	"math"
)

// A constant becomes a float32 in one rounding from its exact value, never through a float64:
// 3.4028235677973366e38 is just below the midpoint past MaxFloat32, so it is MaxFloat32, not +Inf.
func main() {
	a := float32(3.4028235677973366e38)
	b := float32(1.00000005960464477550)
	c := float32(1.000000059604644775390625)
	var d float32 = 1.0000000596046448
	x := 3.4028235677973366e38
	fmt.Println(a, b, c, d, float32(x), float32(-x), float32(1e-46), float32(7.1e-46))
	fmt.Println(math.Float32bits(a), math.Float32bits(b), math.Float32bits(c), math.Float32bits(d))
	fmt.Println(math.Float32frombits(0x7f7fffff), math.Float32frombits(1), math.Float32frombits(0x80000000))
}
