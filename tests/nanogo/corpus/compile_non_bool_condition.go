package main

import "fmt"

func main() {
	n := 1
	if n {
		fmt.Println("yes")
	}
}
