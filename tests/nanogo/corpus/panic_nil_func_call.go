package main

import "fmt"

func main() {
	var f func(int) int
	fmt.Println("calling")
	fmt.Println(f(1))
}
