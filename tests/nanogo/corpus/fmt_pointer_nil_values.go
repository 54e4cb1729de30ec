package main

import (
	"errors"
	"fmt"
)

type S struct {
	P   *int
	E   error
	I   interface{}
	F   func()
	Ch  chan int
	M   map[string]int
	Sl  []int
}

func main() {
	var s S
	fmt.Printf("%v\n", s)
	fmt.Printf("%+v\n", s)
	s.E = errors.New("boom")
	s.I = 3
	fmt.Printf("%+v\n", s)
	var ip *int
	fmt.Println(ip)
	var e error
	fmt.Printf("[%v] [%d]\n", e, e)
}
