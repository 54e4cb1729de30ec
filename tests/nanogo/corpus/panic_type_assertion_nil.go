package main

import "fmt"

func main() {
	var x interface{}
	s := x.(string)
	fmt.Println(s)
}
