package main

import "fmt"

func main() {
	x := 4
	x == 4
	fmt.Println(x)
}
