package main

import "fmt"

func main() {
	x := 5
	fmt.Println(x())
}
