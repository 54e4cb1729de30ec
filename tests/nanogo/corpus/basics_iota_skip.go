package main

import "fmt"

type Color int

const (
	Red Color = iota + 1
	Green
	_
	Blue
)

func (c Color) String() string {
	switch c {
	case Red:
		return "Red"
	case Green:
		return "Green"
	case Blue:
		return "Blue"
	}
	return fmt.Sprintf("Color(%d)", int(c))
}

func main() {
	fmt.Println(Red, Green, Blue, Color(3))
	fmt.Printf("%v %d %s\n", Blue, Blue, Green)
	colors := []Color{Blue, Red}
	fmt.Println(colors)
}
