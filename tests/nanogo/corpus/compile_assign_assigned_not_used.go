package main

import "fmt"

func main() {
	var result int
	result = 5
	fmt.Println("done")
}
