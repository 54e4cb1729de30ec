package main

import "fmt"

func main() {
	var a float32 = 0.1
	var b float32 = 0.2
	fmt.Println(a+b, a*b, a/b, a-b)
	var sum float32
	for i := 0; i < 10; i++ {
		sum += 0.1
	}
	fmt.Println(sum, sum == 1)
	var sum64 float64
	for i := 0; i < 10; i++ {
		sum64 += 0.1
	}
	fmt.Println(sum64, sum64 == 1)
	fmt.Printf("%.10f %v %g\n", a, float64(a), a)
	big := float32(1 << 24)
	fmt.Println(big+1, big+2)
}
