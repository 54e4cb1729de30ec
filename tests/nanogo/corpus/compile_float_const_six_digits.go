package main

import "fmt"

func main() {
	var n int = 1234567.5
	fmt.Println(n)
}
