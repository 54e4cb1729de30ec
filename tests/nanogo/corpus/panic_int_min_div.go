package main

import "fmt"

func main() {
	var a int = 7
	b := 0
	fmt.Println(a % b)
}
