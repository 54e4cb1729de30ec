package main

import "fmt"

func half(n int) int {
	return float64(n) / 2
}

func main() {
	fmt.Println(half(3))
}
