package main

import (
	"fmt"
	"math"
)

func main() {
	nz := math.Copysign(0, -1)
	fmt.Println(nz, -nz, nz == 0, 1/nz)
	fmt.Printf("%v %.2f %g %e\n", nz, nz, nz, nz)
	x := 0.0
	x = -x
	fmt.Println(x, -1*0.0)
	fmt.Println(-7>>1, -8>>2, -1>>10, 7>>1)
	var i8 int8 = -128
	fmt.Println(i8>>7, i8/2, i8%3, -i8)
	var u8 uint8 = 200
	fmt.Println(u8>>1, u8<<1, u8/3, u8%7)
	fmt.Printf("%08b %b %x %o\n", -5, -5, int8(-1), -8)
	var mn int64 = math.MinInt64
	fmt.Println(mn/-1 == mn, mn%-1)
}
