package main

import "fmt"

func main() {
	defer fmt.Println("deferred 1")
	defer func() {
		fmt.Println("deferred 2 sees panic, does not recover")
	}()
	fmt.Println("working")
	var m map[int]int
	m[1] = 2
}
