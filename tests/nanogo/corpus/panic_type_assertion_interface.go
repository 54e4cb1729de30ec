package main

import "fmt"

type Shape interface{ Area() float64 }

type Sq struct{}

func main() {
	var x interface{} = Sq{}
	s := x.(Shape)
	fmt.Println(s)
}
