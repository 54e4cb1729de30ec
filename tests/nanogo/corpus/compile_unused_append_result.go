package main

import "fmt"

func main() {
	s := []int{1, 2}
	append(s, 3)
	fmt.Println(s)
}
