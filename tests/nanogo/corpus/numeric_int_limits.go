package main

import (
	"fmt"
	"math"
)

func main() {
	fmt.Println(math.MaxInt8, math.MinInt8, math.MaxUint8)
	fmt.Println(math.MaxInt16, math.MinInt16, math.MaxUint16)
	fmt.Println(math.MaxInt32, math.MinInt32, math.MaxUint32)
	fmt.Println(math.MaxInt64, math.MinInt64)
	fmt.Println(uint64(math.MaxUint64))
	fmt.Println(math.MaxInt)
	var x int64 = math.MinInt64
	fmt.Println(x-1, -x, x/-1)
}
