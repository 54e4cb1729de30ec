package main

import "fmt"

func main() {
	var n int
	n = "42"
	fmt.Println(n)
}
