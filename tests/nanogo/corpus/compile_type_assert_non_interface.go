package main

import "fmt"

func main() {
	x := 5
	s, ok := x.(string)
	fmt.Println(s, ok)
}
