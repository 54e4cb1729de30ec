package main

import "fmt"

func main() {
	x := 3
	if x > 2 {
		fmt.Println("big")
	}
	else {
		fmt.Println("small")
	}
}
