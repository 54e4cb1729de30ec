package main

import (
	"fmt"
	"math/rand"
)

func main() {
	fmt.Println(rand.Intn(10) < 10)
}
