package main

import "fmt"

func main() {
	m := map[[]int]string{}
	fmt.Println(len(m))
}
