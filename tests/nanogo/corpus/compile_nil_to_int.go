package main

import "fmt"

func main() {
	var n int = nil
	fmt.Println(n)
}
