package main

import (
	"fmt"
	"math"
	"strconv"
)

type P struct {
	A float32
	B float64
	C []float64
	D map[string]float32
	E complex128
	F *float64
}

// Floats inside slices, maps, structs and complex numbers, with widths, flags and precisions.
func main() {
	nan, inf := math.NaN(), math.Inf(1)
	fs := []float64{0, -0.0 * -1, math.Copysign(0, -1), 1.5, 1e21, 1e-7, 123456789, nan, inf, -inf, 2.5e-324}
	f32 := []float32{0.1, 1e20, 3.4e38, 1.401298464324817e-45, 16777217, float32(math.Pi)}
	x := 2.5
	p := P{0.1, 0.1, fs[:4], map[string]float32{"b": 2.5, "a": 1e-5}, complex(1.5, -2), &x}
	fmt.Println(fs, f32, p.A, p.B, p.C, p.D, p.E)
	fmt.Printf("%v\n%+v\n%.2f\n%6.2f|%-8.3g|%e\n%x\n", fs, f32, fs, f32, fs, f32, fs[3:6])
	fmt.Printf("%v %+v\n", p.C, p.D)
	fmt.Printf("%#v\n", fs)
	fmt.Printf("%#v %#v %#v\n", f32, p.D, p.E)
	cs := []complex128{complex(0, 0), complex(1, 1), complex(-1.5, 2e21), complex(nan, inf), complex(1e-7, -0.0)}
	for _, c := range cs {
		fmt.Printf("%v %.2f %e %g %+.3g %8.2f| %x\n", c, c, c, c, c, c, c)
		fmt.Println(c, complex64(c), real(c), imag(c), strconv.FormatComplex(c, 'f', 2, 128), strconv.FormatComplex(c, 'g', -1, 64))
	}
	fmt.Printf("%5.1f|%-7.2e|%+08.3f|% .1f|%08v|%-8v|%8v\n", -1.25, 2.5, -3.14159, 2.0, 1.5, 2.5, nan)
	fmt.Printf("%T %T %T %v\n", fs[0], f32[0], p.E, []interface{}{1.0, float32(2), 3 + 4i, nan})
	fmt.Println(fmt.Sprint(1.0, 2.0, "x", 3.0, float32(4)), fmt.Sprintln(1e6, 1e-5, 100000.0, 1e20, 1e21))
	fmt.Printf("%6.3v|%.0v|%10.4e|%-10.1f|%+v|%#.3v\n", math.Pi, 2.5, 123456.789, -0.05, inf, 1.0)
	var ip *float64
	fmt.Println(ip == nil, *p.F)
}
