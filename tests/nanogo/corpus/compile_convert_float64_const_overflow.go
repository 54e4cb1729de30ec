package main

import "fmt"

func main() {
	x := float64(1e309)
	fmt.Println(x)
}
