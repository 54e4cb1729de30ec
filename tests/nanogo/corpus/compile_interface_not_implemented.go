package main

import "fmt"

type Shape interface {
	Area() float64
}

type Square struct{ S float64 }

func (s *Square) Area() float64 { return s.S * s.S }

func main() {
	sq := Square{2}
	var sh Shape = sq
	fmt.Println(sh.Area())
}
