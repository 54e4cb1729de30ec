package main

import (
	"fmt"
	"math"
)

func main() {
	fmt.Println(math.MaxInt64 + 1)
}
