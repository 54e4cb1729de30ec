package main

import "fmt"

func main() {
	s := "hello"
	n := 10
	fmt.Println(s[:3])
	fmt.Println(s[:n])
}
