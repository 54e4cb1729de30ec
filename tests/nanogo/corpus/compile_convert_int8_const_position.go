package main

import "fmt"

func main() {
	x := int8(200)
	fmt.Println(x)
}
