package main

import "fmt"

func main() {
	shift := 3
	fmt.Println(1 << shift)
	shift -= 5
	fmt.Println(1 << shift)
}
