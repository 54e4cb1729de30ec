package main

import "fmt"

func main() {
	defer fmt.Println("deferred runs before crash")
	m := map[string][]int{}
	fmt.Println(m["missing"][0])
}
