package main

import (
	"fmt"
	"math"
)

func addChecked(a, b int32) (int32, bool) {
	c := a + b
	if (c > a) == (b > 0) {
		return c, true
	}
	return c, false
}

func main() {
	fmt.Println(addChecked(1, 2))
	fmt.Println(addChecked(math.MaxInt32, 1))
	fmt.Println(addChecked(math.MinInt32, -1))
	var x int32 = math.MaxInt32
	x++
	fmt.Println(x, int64(x)-1)
	var y int64 = math.MaxInt32
	y++
	fmt.Println(y, int32(y), int16(y), uint16(y))
	var z uint32 = math.MaxUint32
	fmt.Println(z+1, z*2, uint64(z)*2)
}
