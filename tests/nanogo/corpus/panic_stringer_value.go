package main

import "fmt"

type Color int

func (c Color) String() string { return fmt.Sprintf("color-%d", int(c)) }

func main() {
	panic(Color(3))
}
