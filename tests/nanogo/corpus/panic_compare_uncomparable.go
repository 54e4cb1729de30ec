package main

import "fmt"

func main() {
	var a interface{} = 1
	var b interface{} = "1"
	fmt.Println(a == b)
	a = []int{1}
	b = []int{1}
	fmt.Println(a == b)
}
