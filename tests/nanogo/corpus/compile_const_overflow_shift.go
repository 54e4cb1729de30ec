package main

import "fmt"

func main() {
	x := 1 << 64
	fmt.Println(x)
}
