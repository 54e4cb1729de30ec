package main

import "fmt"

func main() {
	m := map[interface{}]int{}
	m["ok"] = 1
	m[[2]int{1, 2}] = 2
	fmt.Println(len(m))
	m[[]int{1, 2}] = 3
}
