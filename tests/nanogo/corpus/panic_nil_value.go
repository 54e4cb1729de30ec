package main

import "fmt"

func main() {
	fmt.Println("panicking with nil")
	panic(nil)
}
