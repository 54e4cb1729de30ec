package main

import "fmt"

func main() {
	var s []int = map[string]int{}
	fmt.Println(s)
}
