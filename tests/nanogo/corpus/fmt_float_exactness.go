package main

import (
	"fmt"
	"math"
)

func main() {
	vals := []float64{1e-5, 0.0001, 123456789012345678, 1e20, 1e21, 5e-324, math.MaxFloat64, 100, 0.1 + 0.7, 1.0 / 7}
	for _, v := range vals {
		fmt.Println(v)
	}
	for _, v := range []float64{2.675, 1.005, 0.125, 0.375, 2.5, 3.5, -0.5, 1234.5678} {
		fmt.Printf("%.2f %.0f %.1e %g %.3g\n", v, v, v, v, v)
	}
	fmt.Printf("%f %e %g\n", 1e20, 1e100, 1e-300)
	fmt.Printf("%.3g %.3g %.3g %.10g\n", 0.0001234, 1234567.0, 100.0, math.Pi)
	fmt.Printf("%+.3e %-10.2e| %10.3g|\n", 12345.678, -0.000123, 6.02214076e23)
	fmt.Println(float32(3.4e38), float32(1e-45), float32(0.3), float32(1)/float32(3)*3)
	var f32 float32 = 16777217
	fmt.Printf("%v %.1f %g\n", f32, f32, float64(f32))
	fmt.Println(math.Trunc(1e300), math.Floor(-1e-300), 9007199254740993.0)
}
