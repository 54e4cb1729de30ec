package main

import "fmt"

func main() {
	a := 5
	b := "five"
	fmt.Println(a + b)
}
