package main

import "fmt"

func main() {
	n := int64(1e19)
	fmt.Println(n)
}
