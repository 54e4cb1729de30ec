package main

import "fmt"

func main() {
	n := -1
	s := make([]int, n)
	fmt.Println(s)
}
