package main

import "fmt"

func main() {
	a, b := 3, 7
	fmt.Println(max(a, b))
}
