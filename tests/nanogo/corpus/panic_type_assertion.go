package main

import "fmt"

func main() {
	var v interface{} = "hello"
	n := v.(int)
	fmt.Println(n)
}
