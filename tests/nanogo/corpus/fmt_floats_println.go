package main

import "fmt"

func main() {
	fmt.Println(1.0, 0.5, 1e6, 1e20, 1e21, 123456789.123, 0.000012345)
	fmt.Println(float32(0.1), float32(1)/3, float32(16777216.0), float32(1e10))
	fmt.Println(2.0/3.0, 10.0/4, 1e100, -1e-100)
	fmt.Println(3.0*1.1, 0.1*3, 100.0/3.0)
	var f float64 = 5
	fmt.Println(f, f/2, f*1e15, f*1e16)
	fmt.Printf("%v %v %.2f %6.3f\n", 1.0, 2.5e-8, 1.005, 0.0)
	fmt.Printf("%f %e %g\n", 0.0, 0.0, 0.0)
	fmt.Printf("%.1f %.1f %.1f %.1f\n", 0.05, 0.15, 0.25, 0.35)
	fmt.Printf("%.0f %.0f %.0f %.0f\n", 0.5, 1.5, 2.5, -0.5)
	fmt.Printf("%5.2f|%-8.3f|%+.2e\n", -1.0, 1.0/7, 12345.678)
}
