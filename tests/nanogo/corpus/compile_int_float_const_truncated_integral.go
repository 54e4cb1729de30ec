package main

import "fmt"

func main() {
	var small int8 = 1000.0
	fmt.Println(small)
}
