package main

import "fmt"

func main() {
	var x int32 = 100000
	fmt.Println(x * x)
	var y uint8 = 200
	fmt.Println(y * 2, y + y, y << 1)
	var z int8 = -128
	fmt.Println(-z, z / -1, z * -1)
	var big int64 = 1 << 62
	fmt.Println(big * 4, big * 2)
	var f uint64 = 1 << 63
	fmt.Println(f * 2, f + f - 1)
	h := 0
	for i := 0; i < 70; i++ {
		h = h*31 + i
	}
	fmt.Println(h)
}
