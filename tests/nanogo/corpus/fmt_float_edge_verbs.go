package main

import (
	"fmt"
	"math"
)

// Float verbs whose layout is easy to get wrong: %x and %b, '#' (kept point and zeros), %g with a small
// precision (10 is 1e+01 at %.1g), zero padding with a sign; then the same for float32.
func main() {
	vals := []float64{0, math.Copysign(0, -1), 1, -0.1, 1.0 / 3, 2.5, 9.5, -9.5, 99.5, 10, -10, 100, 0.045,
		-29.5, 1.005, -1022.5, 0.9999999999999192, 0.99999999999999, 1e300, 5e-324, -6.091333036958065e-309,
		1.358334686508766e-308, -9.500000000000005, -999999.5, -0.0001, 123456789, 1e21, 0.000012345,
		math.Inf(1), math.Inf(-1), math.NaN()}
	for _, v := range vals {
		fmt.Printf("%[1]x %[1]X %.3[1]x %#.3[1]x %[1]b|%#[1]g %#.0[1]f %#.0[1]e %#.3[1]g %#[1]v|", v)
		fmt.Printf("%.1[1]g %.0[1]g %6.2[1]g %+.1[1]e % .0[1]f|%08.3[1]f %-9.2[1]g|%+08.2[1]f|%012[1]g|\n", v)
	}
	for _, v := range vals {
		f := float32(v)
		fmt.Printf("%[1]v %[1]x %[1]b %#[1]g %.1[1]g %[1]e %.3[1]x\n", f)
	}
}
