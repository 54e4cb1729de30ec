package main

import "fmt"

func main() {
	fmt.Println("x")
	panic(fmt.Sprint(true, " ", 1.5))
}
