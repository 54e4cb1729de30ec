package main

import "fmt"

func main() {
	var big int = 1e100
	fmt.Println(big)
}
