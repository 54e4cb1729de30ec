package main

import "fmt"

func main() {
	var b int8 = 200
	fmt.Println(b)
}
